import { readFileSync } from 'node:fs';
import type { Env } from '../../core/decide';
import { validatePolicy } from '../../policy/validate';
import { CliError, type CommandResult } from '../errors';
import { locateForCli } from '../context';

export function validateCommand(env: Env, opts: { config?: string }): CommandResult {
  const location = locateForCli(env, opts.config);
  if (location.path === null) throw new CliError(`persona-gate validate: no policy found (looked at: ${location.searched.join(', ') || '(nothing)'})`);
  let text: string;
  try {
    text = readFileSync(location.path, 'utf8');
  } catch (err) {
    throw new CliError(`persona-gate validate: cannot read ${location.path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { stdout: '', stderr: `${location.path}: not valid JSON: ${(err as Error).message}\n`, exitCode: 1 };
  }
  const result = validatePolicy(json);
  if (result.ok) {
    const personas = Object.keys(result.policy.personas).length;
    const commands = Object.keys(result.policy.catalog.commands).length;
    return { stdout: `${location.path}: valid (${personas} personas, ${commands} commands)\n`, exitCode: 0 };
  }
  const lines = result.problems.map((p) => `${location.path}: ${p.path}: ${p.message}`);
  return { stdout: '', stderr: `${lines.join('\n')}\n${result.problems.length} problem${result.problems.length === 1 ? '' : 's'}\n`, exitCode: 1 };
}
