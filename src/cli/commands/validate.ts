import { readFileSync } from 'node:fs';
import { sha256Hex } from '../../io/hash';
import type { Env } from '../../core/decide';
import { opaqueReachAll } from '../../core/residue';
import { lockPathFor, validatePolicy } from '../../policy/validate';
import { lockCoverage } from '../../mcp/coverage';
import { readLock } from '../../mcp/read-lock';
import type { Policy } from '../../policy/schema';
import type { CliMessages } from '../messages';
import { CliError, type CommandResult } from '../errors';
import { locateForCli } from '../context';
import { cliLocale, CLI_MESSAGES, jsonProblem } from '../messages';
import { jsonErrorAt } from '../../core/json-error';
import { buildPolicyIndex } from '../../core/policy-index';
import { definitionWarnings } from './agents';

export function validateCommand(env: Env, opts: { config?: string; json?: boolean }): CommandResult {
  const locale = cliLocale(env);
  const t = CLI_MESSAGES[locale];
  const location = locateForCli(env, opts.config);
  const asJson = (body: Record<string, unknown>, exitCode: number): CommandResult => ({
    stdout: `${JSON.stringify(body, null, 2)}\n`,
    exitCode,
  });
  if (location.path === null) {
    if (opts.json)
      return asJson(
        { valid: false, path: null, problems: [{ path: '', message: t.noPolicyFound(location.searched.join(', ')) }], warnings: [] },
        1,
      );
    throw new CliError(t.noPolicyFound(location.searched.join(', ')));
  }
  let text: string;
  try {
    text = readFileSync(location.path, 'utf8');
  } catch (err) {
    const message = t.cannotRead(location.path, (err as NodeJS.ErrnoException).code ?? String(err));
    if (opts.json) return asJson({ valid: false, path: location.path, problems: [{ path: '', message }], warnings: [] }, 1);
    throw new CliError(message);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    if (opts.json) {
      const at = jsonErrorAt(text, err);
      const message = at
        ? t.notJsonAt(location.path, at.line, at.column, at.trailingComma ? t.trailingComma() : at.detail)
        : t.notJsonFile(location.path, (err as Error).message);
      return asJson(
        {
          valid: false,
          path: location.path,
          problems: [{ path: '', message, ...(at ? { line: at.line, column: at.column } : {}) }],
          warnings: [],
        },
        1,
      );
    }
    return { stdout: '', stderr: `${jsonProblem(t, location.path, text, err)}\n`, exitCode: 1 };
  }
  const result = validatePolicy(json, locale, location.path);
  if (result.ok) {
    const warnings = [
      ...opaqueReachAll(result.policy).map((r) =>
        t.residueWarning(
          r.persona,
          r.commands.map((c) => c.bash),
        ),
      ),
      ...lockFindings(result.policy, location.path, t).map((f) => `${f.level === 'ok' ? t.notePrefix() : t.warningPrefix()}${f.text}`),
      ...definitionWarnings(buildPolicyIndex(result.policy, sha256Hex(Buffer.from(text, 'utf8')), location.path), env, t),
    ];
    if (opts.json) {
      const sha256 = sha256Hex(Buffer.from(text, 'utf8'));
      return asJson(
        {
          valid: true,
          path: location.path,
          sha256,
          personas: Object.keys(result.policy.personas),
          commands: Object.keys(result.policy.catalog.commands).length,
          problems: [],
          warnings,
        },
        0,
      );
    }
    const stderr = warnings.length > 0 ? `${warnings.join('\n')}\n` : '';
    return {
      stdout: `${t.valid(location.path, Object.keys(result.policy.personas).length, Object.keys(result.policy.catalog.commands).length)}\n`,
      ...(stderr ? { stderr } : {}),
      exitCode: 0,
    };
  }
  if (opts.json)
    return asJson(
      { valid: false, path: location.path, problems: result.problems.map((p) => ({ path: p.path, message: p.message })), warnings: [] },
      1,
    );
  const lines = result.problems.map((p) => `${location.path}: ${p.path}: ${p.message}`);
  return { stdout: '', stderr: `${lines.join('\n')}\n${t.problems(result.problems.length)}\n`, exitCode: 1 };
}

/** SPEC §11: what the MCP lock beside a hand-written policy refuses (`not_pinned`): a note of the servers it pins, a warning for each refusal. */
export function lockFindings(policy: Policy, policyPath: string, t: CliMessages): { level: 'ok' | 'warn'; text: string }[] {
  const lock = lockPathFor(policyPath);
  const coverage = lockCoverage(policy, readLock(lock));
  if (coverage === null) return [];
  if ('unreadable' in coverage) return [{ level: 'warn', text: t.lockUnreadable(lock, coverage.unreadable) }];
  if (coverage.servers.length === 0) return [];
  return [
    { level: 'ok', text: t.lockPins(lock, coverage.servers) },
    ...coverage.unlisted.map((u) => ({ level: 'warn' as const, text: t.lockToolMissing(u.path, u.tool) })),
  ];
}
