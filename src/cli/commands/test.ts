import { lockBeside } from '../../io/lock-lookup';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import type { Env } from '../../core/decide';
import type { Locale } from '../../core/messages';
import { gateProtections } from '../../io/protect';
import { assumedSandbox, projectOf } from '../../io/sandbox-state';
import { runCase, type CaseResult } from '../../policydev/cases';
import { parseTestFile } from '../../policydev/test-file';
import { readShellCall } from '../../shell/resolve-shell';
import { CliError, type CommandResult } from '../errors';
import { cliMessages, jsonProblem, type CliMessages } from '../messages';
import { policyForCli, stateDirFor } from '../context';

export interface TestOptions {
  config?: string;
  json?: boolean;
}

export const DEFAULT_TEST_FILE = '.claude/persona-gate.test.json';

interface FileReport {
  file: string;
  policy: string | null;
  error: string | null;
  cases: CaseResult[];
}

function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel !== '' && !rel.startsWith('..') ? rel : path;
}

/**
 * The policy a test file without `policy` tests, when it is there: NAME.json beside NAME.test.json
 * (`.claude/persona-gate.test.json` tests `.claude/persona-gate.json`, `examples/X.test.json`
 * tests `examples/X.json`), so that a test file works wherever it is copied; else the policy is
 * found as usual.
 */
function policyBeside(testFile: string): string | undefined {
  if (!testFile.endsWith('.test.json')) return undefined;
  const beside = `${testFile.slice(0, -'.test.json'.length)}.json`;
  return existsSync(beside) ? beside : undefined;
}

function runFile(env: Env, path: string, opts: TestOptions, t: CliMessages): FileReport {
  const report: FileReport = { file: shown(path), policy: null, error: null, cases: [] };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    report.error = t.testFileUnreadable(report.file, code === 'ENOENT' ? t.noSuchFile() : (err as Error).message);
    return report;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    report.error = jsonProblem(t, report.file, text, err);
    return report;
  }
  const parsed = parseTestFile(value);
  if (!parsed.ok) {
    report.error = t.testFileInvalid(
      report.file,
      parsed.problems.map((p) => `${p.path}: ${p.message}`),
    );
    return report;
  }
  const config = opts.config ?? (parsed.file.policy !== undefined ? resolve(dirname(path), parsed.file.policy) : policyBeside(path));
  let index;
  try {
    index = policyForCli(env, config);
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    report.error = err.message;
    return report;
  }
  report.policy = shown(index.path);
  // Cases are hermetic: the decision sees only each case's own environment (persona, stage, env),
  // and speaks the policy's language unless a case sets PERSONA_GATE_LOCALE.
  const inLocale = {
    en: gateProtections(index.path, stateDirFor(env), env, 'en'),
    es: gateProtections(index.path, stateDirFor(env), env, 'es'),
  };
  const deps = {
    env: {},
    isProtected: inLocale.en,
    isProtectedIn: (locale: Locale) => inLocale[locale],
    pinned: lockBeside(index.path),
    shell: readShellCall,
    cwd: process.cwd(),
    // a case that asks for the sandbox gets the one init sets up for the policy's project, not this machine's
    sandbox: (home: string | undefined) => assumedSandbox(projectOf(index.path, {}, process.cwd()), home),
  };
  report.cases = parsed.file.cases.map((c) => runCase(index, c, deps));
  return report;
}

function describeFailure(r: CaseResult, t: CliMessages): string[] {
  const e = r.expected;
  const want = [
    e.verdict,
    e.status,
    e.gate !== undefined ? `gate ${e.gate}` : undefined,
    e.rule !== undefined ? `rule ${e.rule}` : undefined,
  ]
    .filter(Boolean)
    .join(' ');
  const got = `${r.actual.verdict} ${r.actual.status}`;
  const lines = [
    t.testExpected(want, got),
    t.testDecided(r.actual.command_key, r.actual.persona, r.actual.stage, r.actual.gate, r.actual.rule),
  ];
  if (r.actual.reason !== '') lines.push(t.testReason(r.actual.reason));
  if (e.reason !== undefined && r.mismatches.includes('reason')) lines.push(t.testReasonMissing(e.reason));
  if (r.actual.answered !== undefined) lines.push(t.testAnswered(r.actual.answered));
  if (r.before.length > 0) lines.push(t.testBefore(r.before.map((b) => `${b.tool} → ${b.verdict} ${b.status}`)));
  return lines;
}

/** `persona-gate test [FILE…]`: exit 0 when every case of every file passes, else 1. */
export function testCommand(env: Env, files: string[], opts: TestOptions): CommandResult {
  const t = cliMessages(env);
  const paths = (files.length > 0 ? files : [DEFAULT_TEST_FILE]).map((f) => resolve(process.cwd(), f));
  const reports = paths.map((p) => runFile(env, p, opts, t));
  const passed = reports.reduce((n, r) => n + r.cases.filter((c) => c.ok).length, 0);
  // A file that cannot be run counts as one failure.
  const failed = reports.reduce((n, r) => n + r.cases.filter((c) => !c.ok).length + (r.error !== null ? 1 : 0), 0);
  const exitCode = failed === 0 ? 0 : 1;
  if (opts.json) return { stdout: `${JSON.stringify({ files: reports, passed, failed })}\n`, exitCode };
  const lines: string[] = [];
  for (const report of reports) {
    lines.push(report.policy !== null ? t.testFileHeader(report.file, report.policy) : report.file);
    if (report.error !== null) lines.push(`  ${t.testError()}  ${report.error.replace(/\n/g, '\n        ')}`);
    for (const c of report.cases) {
      lines.push(`  ${c.ok ? t.testOk() : t.testFail()}  ${c.name}`);
      if (!c.ok) for (const line of describeFailure(c, t)) lines.push(`        ${line}`);
    }
  }
  lines.push(t.testSummary(passed, failed));
  return { stdout: `${lines.join('\n')}\n`, exitCode };
}
