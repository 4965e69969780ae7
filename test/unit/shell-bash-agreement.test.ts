import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBashStubs, type BashStubs, type StubRun } from '../helpers/bash-stubs';
import { agreementIndex, cataloguedPrograms, compare, explainComparison, makeJudge } from '../helpers/shell-agreement';

/**
 * Every Bash command line of the shell corpus (test/unit/shell-corpus.test.ts), run by the real bash
 * with every program stubbed: each program bash ran must be one the reader reported, or the line
 * refused under the persona (test/helpers/shell-agreement.ts). The lines are read out of the
 * corpus's source, so the corpus stays the one place they are written.
 */

const CORPUS = join(__dirname, 'shell-corpus.test.ts');
const TABLES = ['ORDINARY', 'DOMAIN', 'BYPASSES', 'UNREADABLE', 'PROTECTED'];

/** The command strings of the corpus's Bash tables: string elements, or the first element of tuples. */
function corpusLines(): string[] {
  const source = ts.createSourceFile(CORPUS, readFileSync(CORPUS, 'utf8'), ts.ScriptTarget.Latest, true);
  const lines: string[] = [];
  const literal = (node: ts.Node): string | null =>
    ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? node.text : null;
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && TABLES.includes(node.name.text) && node.initializer) {
      let init: ts.Node = node.initializer;
      // `[…].map(…)`: the array is the call's receiver.
      while (ts.isCallExpression(init) && ts.isPropertyAccessExpression(init.expression)) init = init.expression.expression;
      if (!ts.isArrayLiteralExpression(init)) throw new Error(`shell corpus: ${node.name.text} is not an array literal`);
      for (const element of init.elements) {
        const text = ts.isArrayLiteralExpression(element) ? literal(element.elements[0]!) : literal(element);
        if (text === null) throw new Error(`shell corpus: an entry of ${node.name.text} is not a literal string: ${element.getText()}`);
        lines.push(text);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return lines;
}

const lines = corpusLines();
const index = agreementIndex();
const judge = makeJudge(index);
const catalogued = cataloguedPrograms(index);

describe('the shell corpus, run by bash', () => {
  let stubs: BashStubs;
  const runs = new Map<string, StubRun>();
  beforeAll(async () => {
    stubs = createBashStubs();
    const results = await stubs.runMany(
      lines.map((line) => ({ line })),
      { timeoutSeconds: 10 },
    );
    lines.forEach((line, k) => runs.set(line, results[k]!));
  });
  afterAll(() => stubs.cleanup());

  it(`reads every Bash table of the corpus (${lines.length} lines)`, () => {
    expect(lines.length).toBeGreaterThanOrEqual(150);
    expect(lines).toContain('ls -la');
    expect(lines).toContain("bash -c 'aeat modelo export'");
  });

  it.each(lines)('%j: what bash runs is reported or refused', (line) => {
    const run = runs.get(line)!;
    expect(run.timedOut, `bash did not finish ${JSON.stringify(line)}`).toBe(false);
    const comparison = compare(line, judge(line), run, judge, catalogued);
    expect(comparison.disagreements, explainComparison(comparison)).toEqual([]);
  });
});

describe('the stubbed bash', () => {
  let stubs: BashStubs;
  beforeAll(() => {
    stubs = createBashStubs();
  });
  afterAll(() => stubs.cleanup());
  const ran = (line: string, status: 0 | 1 = 0) =>
    stubs.run(line, status).ran.map((r) => [r.notFound ? '!' : '', r.program, ...r.args].join(' ').trim());

  it('records each program with its exact arguments', () => {
    expect(ran(`aeat "" 'a b' $'x\\ny' '$HOME' "\\"q\\""`)).toEqual(['aeat  a b x\ny $HOME "q"']);
    expect(stubs.run("aeat '' 'a b'").ran[0]!.args).toEqual(['', 'a b']);
  });

  it('records what bash cannot find, and runs nothing else', () => {
    expect(ran('frobnicate --all; /no/such/aeat x; ls')).toEqual(['! frobnicate --all', 'ls']);
  });

  it('waits for background jobs and process substitutions', () => {
    expect(ran('(sleep 0; aeat modelo list) & cat <(gh pr list) >/dev/null').sort()).toEqual([
      'aeat modelo list',
      'cat /dev/fd/63',
      'gh pr list',
      'sleep 0',
    ]);
  });

  it('runs wrappers, runners and shells for real', () => {
    expect(ran("sudo -u root env A=1 timeout 5 nohup bash -c 'aeat modelo export'")).toEqual([
      'sudo -u root env A=1 timeout 5 nohup bash -c aeat modelo export',
      'env A=1 timeout 5 nohup bash -c aeat modelo export',
      'timeout 5 nohup bash -c aeat modelo export',
      'nohup bash -c aeat modelo export',
      'bash -c aeat modelo export',
      'aeat modelo export',
    ]);
    expect(ran('echo 303 | xargs aeat modelo export --modelo')).toEqual([
      'xargs aeat modelo export --modelo',
      'aeat modelo export --modelo 303',
    ]);
    expect(ran("find . -name '*.json' -exec aeat modelo export {} \\;")).toEqual([
      'find . -name *.json -exec aeat modelo export {} ;',
      'aeat modelo export .',
    ]);
    expect(ran('watch -n 1 aeat modelo export')).toEqual([
      'watch -n 1 aeat modelo export',
      'sh -c aeat modelo export',
      'aeat modelo export',
    ]);
    expect(ran("script -qc 'aeat modelo export' /dev/null")).toEqual([
      'script -qc aeat modelo export /dev/null',
      'sh -c aeat modelo export',
      'aeat modelo export',
    ]);
    expect(ran('cat <<EOF | sh\naeat modelo export\nEOF')).toEqual(expect.arrayContaining(['cat', 'sh', 'aeat modelo export']));
  });

  it('takes the || branches when every program fails', () => {
    expect(ran('git diff --quiet || aeat modelo export', 0)).toEqual(['git diff --quiet']);
    expect(ran('git diff --quiet || aeat modelo export', 1)).toEqual(['git diff --quiet', 'aeat modelo export']);
  });

  it('stops a function that calls itself', () => {
    const started = Date.now();
    const run = stubs.run('aeat() { aeat x | aeat y | aeat z; }; aeat modelo export; ls');
    expect([run.timedOut, run.ran.map((r) => r.program)]).toEqual([false, ['ls']]);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('kills a line that does not end', () => {
    const run = stubs.run('ls; while :; do :; done', 0, 2);
    expect([run.timedOut, run.ran.map((r) => r.program)]).toEqual([true, ['ls']]);
  });

  it('finds a program the reader did not report, and a refused command, on a line let through', () => {
    const fake = (program: string, ...args: string[]): StubRun => ({
      ran: [{ program, args, id: '1.0', via: [], notFound: false }],
      status: 0,
      timedOut: false,
    });
    const kinds = (line: string, run: StubRun) =>
      compare(line, judge(line), run, judge, catalogued).disagreements.map((d) => `${d.kind}: ${d.program.program}`);
    expect(kinds('ls', fake('ls', '-la'))).toEqual([]);
    expect(kinds('ls', fake('gh', 'pr', 'list'))).toEqual(['unreported: gh']);
    expect(kinds('aeat modelo list', fake('aeat', 'modelo', 'export'))).toEqual(['refused alone: aeat']);
    expect(kinds('aeat modelo export', fake('aeat', 'modelo', 'export'))).toEqual([]);
  });

  it('tells a program run by opaque code from one the line names', () => {
    const line = "echo 'ls; aeat modelo list' | bash";
    const c = compare(line, judge(line), stubs.run(line), judge, catalogued);
    // ls is opaque code's business at this ceiling; aeat, catalogued, must be reported or the line refused.
    expect(c.disagreements.map((d) => `${d.kind}: ${d.program.program}`)).toEqual(c.verdict === 'deny' ? [] : ['unreported: aeat']);
  });
});
