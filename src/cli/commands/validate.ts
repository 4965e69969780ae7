import { readFileSync } from 'node:fs';
import type { Env } from '../../core/decide';
import { opaqueReachAll } from '../../core/residue';
import { validatePolicy } from '../../policy/validate';
import { CliError, type CommandResult } from '../errors';
import { locateForCli } from '../context';
import { cliLocale, CLI_MESSAGES } from '../messages';

export function validateCommand(env: Env, opts: { config?: string }): CommandResult {
  const locale = cliLocale(env);
  const t = CLI_MESSAGES[locale];
  const location = locateForCli(env, opts.config);
  if (location.path === null) throw new CliError(t.noPolicyFound(location.searched.join(', ')));
  let text: string;
  try {
    text = readFileSync(location.path, 'utf8');
  } catch (err) {
    throw new CliError(t.cannotRead(location.path, (err as NodeJS.ErrnoException).code ?? String(err)));
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { stdout: '', stderr: `${t.notJsonFile(location.path, (err as Error).message)}\n`, exitCode: 1 };
  }
  const result = validatePolicy(json, locale, location.path);
  if (result.ok) {
    const warnings = opaqueReachAll(result.policy).map((r) => t.residueWarning(r.persona, r.commands.map((c) => c.bash)));
    const stderr = warnings.length > 0 ? `${warnings.join('\n')}\n` : '';
    return { stdout: `${t.valid(location.path, Object.keys(result.policy.personas).length, Object.keys(result.policy.catalog.commands).length)}\n`, ...(stderr ? { stderr } : {}), exitCode: 0 };
  }
  const lines = result.problems.map((p) => `${location.path}: ${p.path}: ${p.message}`);
  return { stdout: '', stderr: `${lines.join('\n')}\n${t.problems(result.problems.length)}\n`, exitCode: 1 };
}
