import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from '../../src/core/messages';
import { sessionKey, sha256Hex } from '../../src/io/hash';
import { policyCacheEntry, recordValidated } from '../../src/io/policy-cache';
import { scanSpans } from '../../src/io/policy-spans';
import { indexEntries } from '../../src/io/span-index';
import { validatePolicy } from '../../src/policy/validate';
// @ts-expect-error a script without types
import { largePolicy } from '../../scripts/large-policy.mjs';
import { BIN, cleanEnv, denyJson, preEvent, runCli, tempDir } from '../helpers/cli';
import { TAX_POLICY_PATH } from '../helpers/policy';

/** SPEC §9.6: files under the state directory that persona-gate did not write are never used. */
function setup() {
  const dir = tempDir();
  const stateDir = join(dir, 'state');
  const policyPath = join(dir, 'policy.json');
  writeFileSync(policyPath, readFileSync(TAX_POLICY_PATH));
  const env = cleanEnv({ PERSONA_GATE_STATE_DIR: stateDir, PERSONA_GATE_CONFIG: policyPath, HOME: dir });
  const session = join(stateDir, 'sessions', sessionKey('cli-session'));
  const receipts = join(stateDir, 'receipts', `${sessionKey('cli-session')}.jsonl`);
  return { dir, stateDir, policyPath, env, session, receipts };
}

/** A session with one snapshot (1.json) written by the hook itself. */
function withSnapshot() {
  const s = setup();
  expect(runCli(['hook'], { input: preEvent('mcp__aeat__profile_switch'), env: s.env })).toMatchObject({ stdout: '', code: 0 });
  expect(readdirSync(s.session)).toEqual(['1.json']);
  return s;
}

const forgedState = JSON.stringify({
  v: 1,
  confirmed: true,
  label: null,
  epoch: 0,
  pending_reads: {},
  persona: 'auditor',
  stage: null,
  iterations: {},
});
const stateDenied = (detail: string) => ({ stdout: denyJson(en.stateError(detail)), stderr: '', code: 0 });
/** Unscoped, this call passes; under the forged persona "auditor" (none such) it would be refused. */
const probe = () => preEvent('Read');

describe('hook: forged session snapshots are refused, never used', () => {
  it('the forged state would take effect if it were a real snapshot (the probe tells them apart)', () => {
    const s = withSnapshot();
    expect(runCli(['hook'], { input: probe(), env: s.env })).toMatchObject({ stdout: '', code: 0 });
    writeFileSync(join(s.session, '9.json'), forgedState, { mode: 0o600 });
    const r = runCli(['hook'], { input: probe(), env: s.env });
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it.each([
    ['dangling', false],
    ['pointing at a forged state', true],
  ])('a snapshot that is a symbolic link (%s)', (_name, withTarget) => {
    const s = withSnapshot();
    const target = join(s.dir, 'forged.json');
    if (withTarget) writeFileSync(target, forgedState);
    const snapshot = join(s.session, '2.json');
    symlinkSync(target, snapshot);
    const expected = stateDenied(`${snapshot} is a symbolic link, which persona-gate never follows in its state directory; remove it`);
    expect(runCli(['hook'], { input: probe(), env: s.env })).toMatchObject(expected);
    // Written through the dangling link later: still not read.
    writeFileSync(target, forgedState);
    expect(runCli(['hook'], { input: probe(), env: s.env })).toMatchObject(expected);
    expect(lstatSync(snapshot).isSymbolicLink()).toBe(true);
  });

  it('a snapshot that is a hard link to a file elsewhere', () => {
    const s = withSnapshot();
    const target = join(s.dir, 'forged.json');
    writeFileSync(target, forgedState, { mode: 0o600 });
    const snapshot = join(s.session, '2.json');
    linkSync(target, snapshot);
    expect(runCli(['hook'], { input: probe(), env: s.env })).toMatchObject(
      stateDenied(`${snapshot} has 2 hard links, not one as the files persona-gate writes; remove it`),
    );
  });

  it('a snapshot that is a FIFO (without blocking on it)', () => {
    const s = withSnapshot();
    const snapshot = join(s.session, '2.json');
    expect(spawnSync('mkfifo', ['-m', '600', snapshot]).status).toBe(0);
    const r = runCli(['hook'], { input: probe(), env: s.env, timeout: 10_000 });
    expect(r).toMatchObject(stateDenied(`${snapshot} is a FIFO, not a file persona-gate wrote; remove it`));
  });

  it('a snapshot that is a directory', () => {
    const s = withSnapshot();
    const snapshot = join(s.session, '2.json');
    mkdirSync(snapshot);
    expect(runCli(['hook'], { input: probe(), env: s.env })).toMatchObject(
      stateDenied(`${snapshot} is a directory, not a file persona-gate wrote; remove it`),
    );
  });

  it("another user's snapshot (uid 65534), even for root", () => {
    const s = withSnapshot();
    const snapshot = join(s.session, '2.json');
    writeFileSync(snapshot, forgedState, { mode: 0o600 });
    chownSync(snapshot, 65534, 65534);
    const uid = process.getuid!();
    expect(runCli(['hook'], { input: probe(), env: s.env })).toMatchObject(
      stateDenied(`${snapshot} belongs to uid 65534, not to this user (uid ${uid}); remove it`),
    );
  });

  it('a snapshot other users can write', () => {
    const s = withSnapshot();
    const snapshot = join(s.session, '2.json');
    writeFileSync(snapshot, forgedState);
    chmodSync(snapshot, 0o666);
    expect(runCli(['hook'], { input: probe(), env: s.env })).toMatchObject(
      stateDenied(`${snapshot} is writable by other users, so it may not be what persona-gate wrote; remove it`),
    );
  });

  it('a session directory that is a symbolic link', () => {
    const s = setup();
    const elsewhere = join(s.dir, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    writeFileSync(join(elsewhere, '1.json'), forgedState, { mode: 0o600 });
    mkdirSync(join(s.stateDir, 'sessions'), { recursive: true, mode: 0o700 });
    symlinkSync(elsewhere, s.session);
    expect(runCli(['hook'], { input: probe(), env: s.env })).toMatchObject(
      stateDenied(`${s.session} is a symbolic link, which persona-gate never follows in its state directory; remove it`),
    );
  });

  it('a sessions directory other users can write', () => {
    const s = setup();
    mkdirSync(join(s.stateDir, 'sessions'), { recursive: true, mode: 0o700 });
    chmodSync(join(s.stateDir, 'sessions'), 0o777);
    const dir = join(s.stateDir, 'sessions');
    expect(runCli(['hook'], { input: probe(), env: s.env })).toMatchObject(
      stateDenied(`${dir} is writable by other users; run chmod go-w ${dir}`),
    );
  });

  it("a state directory reached through this user's symbolic link", () => {
    const s = setup();
    const real = join(s.dir, 'real-state');
    mkdirSync(real, { mode: 0o700 });
    const link = join(s.dir, 'link');
    symlinkSync(real, link);
    const stateDir = join(link, 'state');
    const r = runCli(['hook'], { input: probe(), env: { ...s.env, PERSONA_GATE_STATE_DIR: stateDir } });
    expect(r).toMatchObject(
      stateDenied(
        `the state directory ${stateDir} is reached through ${link}, a symbolic link of this user; use the directory it points to (PERSONA_GATE_STATE_DIR) or remove the link`,
      ),
    );
    expect(readdirSync(real)).toEqual([]);
  });
});

describe('hook: receipts are never written through a forged file', () => {
  const reference = () => {
    const s = setup();
    return runCli(['hook'], { input: preEvent('mcp__aeat__modelo_work_create'), env: { ...s.env, PERSONA_GATE_PERSONA: 'coordinator' } });
  };

  it.each([
    ['a symbolic link', (path: string, target: string) => symlinkSync(target, path)],
    ['a dangling symbolic link', (path: string, target: string) => symlinkSync(`${target}-missing`, path)],
    ['a hard link', (path: string, target: string) => linkSync(target, path)],
  ])('receipts file as %s: not written, the verdict unchanged', (_name, make) => {
    const expected = reference();
    expect(JSON.parse(expected.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    const s = setup();
    const target = join(s.dir, 'target.jsonl');
    writeFileSync(target, '', { mode: 0o600 });
    mkdirSync(join(s.stateDir, 'receipts'), { recursive: true, mode: 0o700 });
    make(s.receipts, target);
    const r = runCli(['hook'], {
      input: preEvent('mcp__aeat__modelo_work_create'),
      env: { ...s.env, PERSONA_GATE_PERSONA: 'coordinator' },
    });
    expect(r).toEqual({ ...expected, ms: r.ms });
    expect(readFileSync(target, 'utf8')).toBe('');
    expect(existsSync(`${target}-missing`)).toBe(false);
  });

  it('receipts directory as a symbolic link: nothing written there, the verdict unchanged', () => {
    const expected = reference();
    const s = setup();
    const elsewhere = join(s.dir, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    mkdirSync(s.stateDir, { mode: 0o700 });
    symlinkSync(elsewhere, join(s.stateDir, 'receipts'));
    const r = runCli(['hook'], {
      input: preEvent('mcp__aeat__modelo_work_create'),
      env: { ...s.env, PERSONA_GATE_PERSONA: 'coordinator' },
    });
    expect(r).toEqual({ ...expected, ms: r.ms });
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});

describe('hook: the policy cache', () => {
  // Making a file another user's (uid 65534) needs root; elsewhere those cases are skipped.
  const asRoot = process.getuid?.() === 0;
  /** modelo.export is owned by verifier: modelo-preparer is refused it. */
  const ownerCall = () => preEvent('mcp__aeat__modelo_export');
  const cacheDirOf = (s: ReturnType<typeof setup>) => join(s.stateDir, 'policy-cache');
  const entryOf = (s: ReturnType<typeof setup>) => policyCacheEntry(cacheDirOf(s), s.policyPath, readFileSync(s.policyPath).length);
  /** The call as modelo-preparer: refused, naming the owner, when the policy decides it. */
  const reference = (s: ReturnType<typeof setup>) => {
    const env = { ...s.env, PERSONA_GATE_PERSONA: 'modelo-preparer' };
    const expected = runCli(['hook'], { input: ownerCall(), env });
    expect(JSON.parse(expected.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(/verifier/);
    return { env, expected, entry: entryOf(s), original: readFileSync(entryOf(s)) };
  };
  type Made = NonNullable<ReturnType<typeof indexEntries>>;
  /** The positions the hook records for the policy's bytes (or for `bytes`), edited by `edit`. */
  const positions = (s: ReturnType<typeof setup>, edit: (made: Made) => void, bytes = readFileSync(s.policyPath)) => {
    const validated = validatePolicy(JSON.parse(bytes.toString('utf8')));
    if (!validated.ok) throw new Error('invalid policy');
    const made = indexEntries(validated.policy, scanSpans(bytes)!)!;
    edit(made);
    return made;
  };
  /** Writes the policy's entry as the hook writes it, with `made`'s positions and a copy of `bytes`. */
  const record = (s: ReturnType<typeof setup>, made: Made, bytes = readFileSync(s.policyPath)) =>
    recordValidated(cacheDirOf(s), s.policyPath, bytes, sha256Hex(bytes), made.core, made.entries);
  const named = (list: unknown[][], name: string) => list.find((e) => e[0] === name)!;
  /** A command of the example policy without an owner. */
  const unowned = (made: Made) => {
    const commands = JSON.parse(readFileSync(TAX_POLICY_PATH, 'utf8')).catalog.commands as Record<string, { owner?: string }>;
    return named(
      made.entries.c,
      Object.keys(commands).find((k) => commands[k]!.owner === undefined)!,
    );
  };
  /** The tool pointed at an unowned command: its key and its span. */
  const toOtherCommand = (made: Made) => {
    const other = unowned(made);
    const entry = named(made.entries.t, 'mcp__aeat__modelo_export');
    entry.splice(1, 3, other[0], other[1], other[2]);
  };
  /** The tool left on its command, at the span of an unowned command. */
  const toOtherSpan = (made: Made) => {
    const other = unowned(made);
    const entry = named(made.entries.t, 'mcp__aeat__modelo_export');
    entry.splice(2, 2, other[1], other[2]);
  };

  describe("of the user's own policy is taken as recorded (SPEC §9.6)", () => {
    it('a tool pointed at another command and its span: the decision follows the cache', () => {
      const s = setup();
      const { env, expected } = reference(s);
      record(s, positions(s, toOtherCommand));
      const r = runCli(['hook'], { input: ownerCall(), env });
      expect(r.code).toBe(0);
      expect(r.stdout).not.toBe(expected.stdout);
      expect(r.stdout).not.toMatch(/verifier/);
    });

    it('an entry deleted: the name is taken as absent', () => {
      const s = setup();
      const { env, expected } = reference(s);
      record(
        s,
        positions(s, (made) => {
          made.entries.t = made.entries.t.filter((e) => e[0] !== 'mcp__aeat__modelo_export');
        }),
      );
      const r = runCli(['hook'], { input: ownerCall(), env });
      expect(r.code).toBe(0);
      expect(r.stdout).not.toBe(expected.stdout);
    });

    it('a span that does not hold the member named: decided from the whole policy, the entry rebuilt', () => {
      const s = setup();
      const { env, expected, entry, original } = reference(s);
      record(s, positions(s, toOtherSpan));
      expect(readFileSync(entry).equals(original)).toBe(false);
      const r = runCli(['hook'], { input: ownerCall(), env });
      expect(r).toEqual({ ...expected, ms: r.ms });
      expect(readFileSync(entry).equals(original)).toBe(true);
    });

    it('an entry whose positions do not parse is rebuilt', () => {
      const s = setup();
      const { env, expected, entry, original } = reference(s);
      const line = original.indexOf(0x0a);
      const header = original.subarray(0, line).toString('latin1');
      const broken = Buffer.concat([Buffer.from(header.slice(0, header.indexOf(' {') + 2), 'latin1'), original.subarray(line)]);
      writeFileSync(entry, broken);
      const r = runCli(['hook'], { input: ownerCall(), env });
      expect(r).toEqual({ ...expected, ms: r.ms });
      expect(readFileSync(entry).equals(original)).toBe(true);
    });

    it("an entry that does not match the policy's bytes (the size and hash recorded) changes nothing, and is rebuilt", () => {
      const s = setup();
      const { env, expected, entry, original } = reference(s);
      const bytes = readFileSync(s.policyPath);
      expect(original.subarray(original.length - bytes.length).equals(bytes)).toBe(true);
      // The same size, so that the entry keeps its name: the owner replaced by spaces.
      const text = bytes.toString('utf8');
      const forged = text.replace('"owner": "verifier", ', ' '.repeat('"owner": "verifier", '.length));
      expect(forged).not.toBe(text);
      expect(forged.length).toBe(text.length);
      // Its positions are right for the forged bytes, its copy is of them.
      record(
        s,
        positions(s, () => {}, Buffer.from(forged)),
        Buffer.from(forged),
      );
      const r = runCli(['hook'], { input: ownerCall(), env });
      expect(r).toEqual({ ...expected, ms: r.ms });
      expect(readFileSync(entry).equals(original)).toBe(true);
    });

    it('the large policy: the cached positions decide as the whole policy does', () => {
      const s = setup();
      writeFileSync(s.policyPath, JSON.stringify(largePolicy(), null, 2));
      expect(largePolicyDecisions(s, () => {})).toBe(true);
    });
  });

  describe("of another user's policy is checked against its bytes: a forged cache changes no decision", () => {
    /** The policy made uid 65534's; the hook still runs as root. */
    const others = () => {
      const s = setup();
      chownSync(s.policyPath, 65534, 65534);
      return s;
    };

    it.runIf(asRoot).each([
      ['another command, key and span', toOtherCommand],
      ['the span of another command', toOtherSpan],
      [
        'no entry',
        (made: Made) => {
          made.entries.t = made.entries.t.filter((e) => e[0] !== 'mcp__aeat__modelo_export');
          made.entries.c = made.entries.c.filter((e) => e[0] !== 'modelo.export');
        },
      ],
    ])('a tool given %s', (_name, forge) => {
      const s = others();
      const { env, expected } = reference(s);
      record(s, positions(s, forge));
      const r = runCli(['hook'], { input: ownerCall(), env });
      expect(r).toEqual({ ...expected, ms: r.ms });
    });

    it.runIf(asRoot)('positions of an earlier version of the policy, with a copy of the new one', () => {
      const s = others();
      const { env, expected } = reference(s);
      const before = readFileSync(s.policyPath);
      // The same size, so that the cache's names stay: every member after the first moves.
      const text = before.toString('utf8');
      const edited = `  ${text.replace('"owner": "verifier", ', '"owner": "verifier",')}`.replace(/\n\s*$/, '').padEnd(text.length, ' ');
      expect(edited.length).toBe(text.length);
      writeFileSync(s.policyPath, edited);
      record(
        s,
        positions(s, () => {}, before),
        Buffer.from(edited),
      );
      const r = runCli(['hook'], { input: ownerCall(), env });
      expect(r).toMatchObject({ stdout: expected.stdout, code: 0 });
    });

    it.runIf(asRoot)('the large policy: every entry deleted, or every tool pointed at one command', () => {
      const s = others();
      writeFileSync(s.policyPath, JSON.stringify(largePolicy(), null, 2));
      expect(
        largePolicyDecisions(s, (made) => {
          for (const kind of ['c', 'p', 'a', 'f'] as const) made.entries[kind] = [];
          const one = made.entries.t[0]!;
          made.entries.t = made.entries.t.map((e) => [e[0], ...one.slice(1)]);
        }),
      ).toBe(true);
    });

    it('a policy this user cannot write', () => {
      // Root can write any file: there the policy and the state are uid 65534's, and so is the hook.
      const s = setup();
      const home = join(s.dir, 'home');
      mkdirSync(home, { mode: 0o755 });
      chmodSync(s.dir, 0o755);
      if (asRoot) chownSync(home, 65534, 65534);
      const env = { ...s.env, HOME: home, PERSONA_GATE_STATE_DIR: join(home, 'state'), PERSONA_GATE_PERSONA: 'modelo-preparer' };
      const run = () => {
        const r = spawnSync(process.execPath, [BIN, 'hook'], {
          input: ownerCall(),
          env,
          encoding: 'utf8',
          cwd: '/',
          ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
        });
        return { stdout: r.stdout, stderr: r.stderr, code: r.status };
      };
      if (asRoot) chownSync(s.policyPath, 65534, 65534);
      const expected = run();
      expect(expected.stdout).toMatch(/verifier/);
      const forge = () => {
        // Written where this process may write, then put in place as the hook's user's.
        const scratch = { ...s, stateDir: join(s.dir, 'scratch') };
        mkdirSync(scratch.stateDir, { recursive: true, mode: 0o700 });
        record(scratch, positions(s, toOtherCommand));
        const entry = policyCacheEntry(join(env.PERSONA_GATE_STATE_DIR, 'policy-cache'), s.policyPath, readFileSync(s.policyPath).length);
        writeFileSync(`${entry}.forged`, readFileSync(entryOf(scratch)), { mode: 0o600 });
        if (asRoot) chownSync(`${entry}.forged`, 65534, 65534);
        renameSync(`${entry}.forged`, entry);
      };
      chmodSync(s.policyPath, 0o444);
      forge();
      expect(run()).toEqual(expected);
      // Writable again: the same forged cache is trusted.
      chmodSync(s.policyPath, 0o644);
      forge();
      expect(run().stdout).not.toMatch(/verifier/);
    });
  });

  describe('an entry that is not a regular file of this user is ignored and replaced', () => {
    /** A forged entry, one that would change the decision were it read (see above), at `path`. */
    const forgedAt = (s: ReturnType<typeof setup>, path: string) => {
      const entry = entryOf(s);
      const honest = readFileSync(entry);
      record(s, positions(s, toOtherCommand));
      renameSync(entry, path);
      writeFileSync(entry, honest);
    };
    const replaced = (s: ReturnType<typeof setup>, original: Buffer) => {
      const st = lstatSync(entryOf(s));
      expect(st.isFile()).toBe(true);
      expect(st.uid).toBe(process.getuid!());
      expect(readFileSync(entryOf(s)).equals(original)).toBe(true);
    };

    it('a symbolic link to a forged entry, its target untouched', () => {
      const s = setup();
      const { env, expected, entry, original } = reference(s);
      const target = join(s.dir, 'forged-entry');
      forgedAt(s, target);
      const forged = readFileSync(target);
      rmSync(entry);
      symlinkSync(target, entry);
      const r = runCli(['hook'], { input: ownerCall(), env });
      expect(r).toEqual({ ...expected, ms: r.ms });
      replaced(s, original);
      expect(readFileSync(target).equals(forged)).toBe(true);
    });

    it('a forged entry with a second hard link', () => {
      const s = setup();
      const { env, expected, entry, original } = reference(s);
      const other = join(s.dir, 'forged-entry');
      forgedAt(s, other);
      rmSync(entry);
      linkSync(other, entry);
      const r = runCli(['hook'], { input: ownerCall(), env });
      expect(r).toEqual({ ...expected, ms: r.ms });
      replaced(s, original);
    });

    it.runIf(asRoot)("another user's forged entry (uid 65534)", () => {
      const s = setup();
      const { env, expected, entry, original } = reference(s);
      forgedAt(s, `${entry}.forged`);
      renameSync(`${entry}.forged`, entry);
      chownSync(entry, 65534, 65534);
      const r = runCli(['hook'], { input: ownerCall(), env });
      expect(r).toEqual({ ...expected, ms: r.ms });
      replaced(s, original);
    });

    it('a FIFO (without blocking on it)', () => {
      const s = setup();
      const { env, expected, entry, original } = reference(s);
      rmSync(entry);
      expect(spawnSync('mkfifo', ['-m', '600', entry]).status).toBe(0);
      const r = runCli(['hook'], { input: ownerCall(), env, timeout: 10_000 });
      expect(r).toEqual({ ...expected, ms: r.ms });
      replaced(s, original);
    });

    it('a policy-cache directory that is a symbolic link is refused', () => {
      const s = setup();
      const elsewhere = join(s.dir, 'elsewhere');
      mkdirSync(elsewhere, { mode: 0o700 });
      mkdirSync(s.stateDir, { mode: 0o700 });
      const cacheDir = join(s.stateDir, 'policy-cache');
      symlinkSync(elsewhere, cacheDir);
      const r = runCli(['hook'], { input: ownerCall(), env: s.env });
      expect(r).toMatchObject(
        stateDenied(`${cacheDir} is a symbolic link, which persona-gate never follows in its state directory; remove it`),
      );
      expect(readdirSync(elsewhere)).toEqual([]);
    });
  });

  /**
   * Calls on the large policy decided over its cache (written again with `forge` applied to its
   * positions) and each with no cache at all: whether they decide alike, and differently enough to tell.
   */
  function largePolicyDecisions(s: ReturnType<typeof setup>, forge: (made: Made) => void): boolean {
    const calls: [string, Record<string, string>][] = [
      [preEvent('mcp__srv57__op3', {}, { session_id: 'large-1' }), { PERSONA_GATE_PERSONA: 'persona14' }],
      [preEvent('mcp__srv0__op0', {}, { session_id: 'large-2' }), { PERSONA_GATE_PERSONA: 'persona1' }],
      [preEvent('mcp__srv0__op0', {}, { session_id: 'large-3' }), { PERSONA_GATE_PERSONA: 'persona0' }],
      [preEvent('mcp__glob10__anything', {}, { session_id: 'large-4' }), { PERSONA_GATE_PERSONA: 'persona2' }],
      [preEvent('mcp__nowhere__x', {}, { session_id: 'large-5' }), {}],
      [preEvent('mcp__hub__execute', { command: 'fam3.group0.op0' }, { session_id: 'large-6' }), { PERSONA_GATE_PERSONA: 'persona0' }],
      [preEvent('mcp__srv5__op1', {}, { session_id: 'large-7', agent_type: 'agent1' }), {}],
      [preEvent('mcp__srv5__op1', {}, { session_id: 'large-8' }), { PERSONA_GATE_PERSONA: 'nobody' }],
    ];
    const forget = () => {
      for (const id of calls.keys()) rmSync(join(s.stateDir, 'sessions', sessionKey(`large-${id + 1}`)), { recursive: true, force: true });
    };
    const decide = ([input, extra]: (typeof calls)[number]) => {
      const r = runCli(['hook'], { input, env: { ...s.env, ...extra } });
      return { stdout: r.stdout, code: r.code };
    };
    // Each call validates, with a cache that holds nothing.
    const uncached = calls.map((call) => {
      rmSync(cacheDirOf(s), { recursive: true, force: true });
      return decide(call);
    });
    expect(new Set(uncached.map((r) => r.stdout)).size).toBeGreaterThan(2);
    forget();
    runCli(['hook'], { input: preEvent('Read', {}, { session_id: 'warm' }), env: s.env });
    record(s, positions(s, forge));
    const cached = calls.map(decide);
    expect(cached).toEqual(uncached);
    return JSON.stringify(cached) === JSON.stringify(uncached);
  }
});

describe('hook: a state directory behind a symbolic link of root, for another user', () => {
  // Running the hook as uid 65534 needs root; elsewhere these cases are skipped.
  const asRoot = process.getuid?.() === 0;
  function nobodySetup() {
    const s = setup();
    chmodSync(s.dir, 0o755);
    chmodSync(s.policyPath, 0o644);
    const home = join(s.dir, 'home');
    mkdirSync(home, { mode: 0o755 });
    chownSync(home, 65534, 65534);
    return { ...s, home };
  }
  const runAs = (env: Record<string, string>) =>
    spawnSync(process.execPath, [BIN, 'hook'], { input: preEvent('Read'), env, uid: 65534, gid: 65534, encoding: 'utf8', cwd: '/' });

  it.runIf(asRoot)("accepts a link owned by root, refuses one of the user's own", () => {
    const s = nobodySetup();
    const rootLink = join(s.dir, 'root-link');
    symlinkSync(s.home, rootLink);
    const ok = runAs({ ...s.env, HOME: s.home, PERSONA_GATE_STATE_DIR: join(rootLink, 'state') });
    expect({ stdout: ok.stdout, stderr: ok.stderr, code: ok.status }).toEqual({ stdout: '', stderr: '', code: 0 });
    expect(lstatSync(join(s.home, 'state', 'sessions')).uid).toBe(65534);

    const userLink = join(s.home, 'user-link');
    symlinkSync(join(s.home, 'state'), userLink);
    lchown(userLink);
    const stateDir = join(userLink, 'sub');
    const refused = runAs({ ...s.env, HOME: s.home, PERSONA_GATE_STATE_DIR: stateDir });
    expect({ stdout: refused.stdout, code: refused.status }).toEqual({
      stdout: denyJson(
        en.stateError(
          `the state directory ${stateDir} is reached through ${userLink}, a symbolic link of this user; use the directory it points to (PERSONA_GATE_STATE_DIR) or remove the link`,
        ),
      ),
      code: 0,
    });
  });
});

function lchown(path: string): void {
  expect(spawnSync('chown', ['-h', '65534:65534', path]).status).toBe(0);
}
