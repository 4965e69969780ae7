import { describe, expect, it } from 'vitest';
import { en, messagesFor } from '../../src/core/messages';
import { decisionReceipt } from '../../src/core/receipt';
import { readShellCall } from '../../src/shell/resolve-shell';
import { partText, quoteWords, reasonIds, reasonText, type Reason } from '../../src/shell/reasons';
import { indexOf, pre, run } from '../helpers/policy';

/**
 * The shell reader's reasons as ids with a text in every locale, the part of a line that decided
 * its level, and the refusals that say it with the line's own words.
 */

const policy = {
  version: 1,
  catalog: { include: ['claude-code'] },
  personas: {
    researcher: { families: ['file_read', 'shell'], ceiling: 'read_only' },
    builder: { families: ['file_read', 'shell'], ceiling: 'workspace_write' },
  },
};
const index = indexOf(policy);
const read = (line: string, locale: 'en' | 'es' = 'en') => readShellCall(index, pre('Bash', { command: line }), { locale })!;

describe('reason texts', () => {
  it('has a non-empty English and a different Spanish text for every id, with its subject and detail in both', () => {
    for (const id of reasonIds()) {
      const r: Reason = { id, subject: 'SUBJ', detail: 'DET' };
      const english = reasonText(r, 'en');
      const spanish = reasonText(r, 'es');
      expect(english.length, id).toBeGreaterThan(0);
      expect(spanish, id).not.toBe(english);
      for (const value of ['SUBJ', 'DET']) expect(spanish.includes(value), `${id} ${value}`).toBe(english.includes(value));
    }
  });

  it.each([
    ['curl -s https://x.y', { id: 'network', subject: 'curl' }, 'en', '`curl -s https://x.y` reaches the network'],
    ['curl -s https://x.y', { id: 'network', subject: 'curl' }, 'es', '`curl -s https://x.y` accede a la red'],
    ['python3 x.py', { id: 'unknown_program', subject: 'python3' }, 'es', '`python3 x.py` ejecuta código que persona-gate no puede leer'],
    ['> notes.md', { id: 'redirect_writes', subject: '> notes.md' }, 'en', '`> notes.md` writes a file'],
    // a reason that names something besides its subject follows the words after a colon
    [
      'bash -k x',
      { id: 'shell_changes_reading', subject: 'bash', detail: '-k' },
      'en',
      "`bash -k x`: bash -k changes how the script's words are read",
    ],
    [
      'git -c a=b status',
      { id: 'git_runs_configured_command' },
      'es',
      '`git -c a=b status`: git -c / --exec-path pueden hacer que git ejecute órdenes',
    ],
  ] as const)('says %j with %j in %s', (words, reason, locale, expected) => {
    expect(partText(words, reason as Reason, locale)).toBe(expected);
  });

  it('quotes words on one line and cuts them past 120 characters', () => {
    expect(quoteWords('a\n  b')).toBe('`a b`');
    const long = quoteWords(`echo ${'x'.repeat(200)}`);
    expect(long.length).toBe(123);
    expect(long.endsWith('…`')).toBe(true);
  });
});

describe('the part of a line that decided its level', () => {
  it.each([
    ['ls -la && curl -s https://x.y | head', 'network', ['curl -s https://x.y'], '`curl -s https://x.y` reaches the network'],
    ['echo draft > notes.md', 'workspace_write', ['> notes.md'], '`> notes.md` writes a file'],
    ['curl -s a; wget -q b', 'network', ['curl -s a', 'wget -q b'], '`curl -s a` reaches the network'],
    ["bash -c 'python3 x.py' | tee log", 'process_exec', ['python3 x.py'], '`python3 x.py` runs code persona-gate cannot read'],
    ['git -C sub push origin main', 'network', ['git -C sub push origin main'], '`git -C sub push origin main` reaches the network'],
    ['ls', 'read_only', ['ls'], '`ls` reads'],
    // a reader that changes the kind the spec gives says the new kind's reason
    [
      'git remote add up https://x.y/r.git',
      'workspace_write',
      ['git remote add up https://x.y/r.git'],
      '`git remote add up https://x.y/r.git` writes files',
    ],
    ['git branch topic', 'workspace_write', ['git branch topic'], '`git branch topic` writes files'],
    ['find . -name x -delete', 'workspace_write', ['find . -name x -delete'], '`find . -name x -delete` writes files'],
    ['git remote show origin', 'network', ['git remote show origin'], '`git remote show origin` reaches the network'],
    ['git stash list', 'read_only', ['git stash list'], '`git stash list` reads'],
  ])('%j: %s, decided by %j', (line, level, words, because) => {
    const r = read(line);
    expect(r.level).toBe(level);
    expect(r.decided.map((p) => p.words)).toEqual(words);
    expect(r.because).toBe(because);
  });

  it('gives each invocation its words, subcommands and reason', () => {
    const r = read('git -C sub push origin main && ls');
    expect(r.invocations.map((i) => [i.words, i.path, i.kind, i.level, i.reason?.id])).toEqual([
      ['git -C sub push origin main', ['push'], 'network', 'network', 'network'],
      ['ls', [], 'reader', 'read_only', 'reads'],
    ]);
    expect(r.decided[0]!.invocation).toBe(0);
  });

  it('says what makes a line opaque in the locale of the call', () => {
    expect(read('sh script.sh').opaque).toEqual(['sh runs the script file script.sh']);
    expect(read('sh script.sh', 'es').opaque).toEqual(['sh ejecuta el fichero de script script.sh']);
    expect(read('sudo -s ls', 'es').opaqueBecause).toBe(
      '`sudo -s ls`: sudo -s pasa la orden a un shell, que vuelve a expandir sus palabras',
    );
  });

  it('says what takes code from stdin in the locale of the call', () => {
    expect(read('less notes.md').stdinCode).toEqual(['less takes commands at a terminal']);
    expect(read('less notes.md', 'es').stdinCode).toEqual(['less acepta órdenes en un terminal']);
    expect(read('source /dev/stdin', 'es').stdinCode).toEqual(['source ejecuta órdenes leídas de la entrada estándar']);
  });

  // what awk's and sed's readers found, never their words scanned again
  it.each([
    ["awk '{ system($0) }'", ['awk runs commands its input gives it']],
    ["awk '{ print | $2 }' f", ['awk runs commands its input gives it']],
    ["awk '$1 | getline x' f", ['awk runs commands its input gives it']],
    ['gawk \'{ print |& "bc" }\'', ['gawk runs commands its input gives it']],
    // read no further than a regex whose bracket holds a slash: what follows may run its input
    ["awk '/[/]/ { system($0) }'", ['an awk program persona-gate does not read, which may run commands its input gives it']],
    ['sed e', ['sed runs commands its input gives it (the e command)']],
    ["sed 's/x/y/e' f", ['sed runs commands its input gives it (the e command)']],
    // literal commands, read as lines of their own; a program file, opaque but not read from stdin
    ['awk \'BEGIN { system("ls") }\'', []],
    ['awk \'{ print "a|b" }\' f', []],
    ['awk \'BEGIN { system("ls\\/x") }\'', ['an awk program persona-gate does not read, which may run commands its input gives it']],
    ["sed 'e date' f", []],
    ['awk -f prog.awk f', []],
    ['sed -f script.sed f', []],
  ])('%j: code from stdin %j', (line, want) => {
    expect(read(line).stdinCode).toEqual(want);
  });

  it('has no part at level none', () => {
    const r = read('true');
    expect(r.decided).toEqual([]);
    expect(r.because).toBeUndefined();
  });
});

describe('refusals that name the part', () => {
  it.each([
    [
      'en',
      'researcher',
      'curl -s https://x.y',
      "it has side-effect level network, above the persona's ceiling read_only, because `curl -s https://x.y` reaches the network.",
    ],
    [
      'es',
      'researcher',
      'curl -s https://x.y',
      'por encima del techo de la persona, read_only, porque `curl -s https://x.y` accede a la red.',
    ],
    [
      'en',
      'builder',
      'ls; node build.js',
      "above the persona's ceiling workspace_write, because `node build.js` runs code persona-gate cannot read.",
    ],
    ['es', 'builder', 'ls; node build.js', 'porque `node build.js` ejecuta código que persona-gate no puede leer.'],
  ] as const)('%s, %s: %j', (locale, persona, line, expected) => {
    const d = run(index, pre('Bash', { command: line }), {
      options: { persona },
      env: { PERSONA_GATE_LOCALE: locale },
      shell: readShellCall,
    });
    expect(d.rule).toBe('ceiling');
    expect(d.reason).toContain(expected);
    if (locale === 'es') expect(d.reason).not.toMatch(/reaches|runs code|cannot read/);
  });

  it('says the stage ceiling the same way', () => {
    const staged = indexOf({
      ...policy,
      personas: {
        builder: { families: ['file_read', 'shell'], ceiling: 'network', stages: [{ name: 'look', side_effect_level: 'read_only' }] },
      },
    });
    const d = run(staged, pre('Bash', { command: 'cat a > b' }), { options: { persona: 'builder', stage: 'look' }, shell: readShellCall });
    expect(d.rule).toBe('side_effect_level');
    expect(d.reason).toContain("above the stage's ceiling read_only, because `> b` writes a file.");
  });

  it('keeps the message of a tool that is not a shell', () => {
    expect(en.scopeCeiling('p', 'k', 'network', 'read_only')).not.toContain('because');
    expect(messagesFor('es').scopeCeiling('p', 'k', 'network', 'read_only')).not.toContain('porque');
  });

  it.each([
    ['curl -s -T .claude/settings.json https://x.y', 'to `curl -s -T .claude/settings.json https://x.y`, which could change it'],
    ["ls; python3 -c 'open(1)' .claude/settings.json", "to `python3 -c 'open(1)' .claude/settings.json`, which could change it"],
    // ssh writes its log here (-E); what it runs on the other host is handed the path too
    ['ssh -E .claude/settings.json host ls', 'to `ssh -E .claude/settings.json host ls`, which could change it'],
    ["ssh host 'echo x > .claude/settings.json'", "to `ssh host 'echo x > .claude/settings.json'`, which could change it"],
  ])('names the invocation a guarded path is handed to: %j', (line, expected) => {
    const guarded = (path: string) => (path.endsWith('.claude/settings.json') ? 'the hook registration' : null);
    const d = run(index, pre('Bash', { command: line }), { options: { persona: 'builder' }, shell: readShellCall, isProtected: guarded });
    expect(d.rule).toBe('protected_mention');
    expect(d.reason).toContain(expected);
  });

  it('writes the deciding part and its reason id into the receipt', () => {
    const event = pre('Bash', { command: 'ls && curl -s https://x.y' });
    const d = run(index, event, { options: { persona: 'researcher' }, shell: readShellCall });
    const receipt = decisionReceipt(event, d, null, new Date(0), 1);
    expect(receipt.decided_by).toEqual({ words: 'curl -s https://x.y', reason: 'network' });
    const mcp = run(index, pre('Read', { file_path: 'a' }), { options: { persona: 'researcher' }, shell: readShellCall });
    expect(decisionReceipt(event, mcp, null, new Date(0), 1).decided_by).toBeUndefined();
  });
});
