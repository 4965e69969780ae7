import { chownSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a script without types
import { largePolicy } from '../../scripts/large-policy.mjs';
import { buildPolicyIndex, type MemoryPolicyIndex, type PolicyIndex } from '../../src/core/policy-index';
import { policyCacheEntry, type IndexKind } from '../../src/io/policy-cache';
import { loadPolicy } from '../../src/io/policy-source';
import { memberAt, MISMATCH, scanSpans, usableName } from '../../src/io/policy-spans';
import { indexEntries, openSpanIndex, TAKES_MCP } from '../../src/io/span-index';
import { commandWithDefaults, familyWithDefaults, identityWithDefaults, personaWithDefaults } from '../../src/policy/defaults';
import type { Policy } from '../../src/policy/schema';
import { validatePolicy } from '../../src/policy/validate';
import { tempDir } from '../helpers/cli';
import { MERGE_POLICY_PATH, TAX_POLICY_PATH } from '../helpers/policy';

const tax = () => JSON.parse(readFileSync(TAX_POLICY_PATH, 'utf8'));
const merge = () => JSON.parse(readFileSync(MERGE_POLICY_PATH, 'utf8'));

function validated(raw: unknown): Policy {
  const result = validatePolicy(structuredClone(raw));
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.policy;
}

/**
 * A cache held in memory, made from the bytes as the hook makes it (its buckets can be edited);
 * `trusted` as for a policy of the user running the hook, checked as for another user's.
 */
function memoryCache(bytes: Buffer, trusted = false) {
  const policy = validated(JSON.parse(bytes.toString('utf8')));
  const made = indexEntries(policy, scanSpans(bytes)!)!;
  const buckets: Record<IndexKind, unknown[][]> = {
    c: [...made.entries.c],
    t: [...made.entries.t],
    p: [...made.entries.p],
    a: [...made.entries.a],
    f: [...made.entries.f],
  };
  const seen = { whole: 0, rewrites: 0 };
  const cache = {
    trusted,
    bucket: (kind: IndexKind, name: string) => ({ ok: true as const, entries: buckets[kind].filter((e) => e[0] === name) }),
    rewrite: () => {
      seen.rewrites++;
    },
    parsedWhole: () => {
      seen.whole++;
    },
  };
  const open = (core: unknown = made.core) => {
    const index = openSpanIndex(bytes, 'sha', '/p.json', core, cache);
    if (index === TAKES_MCP) throw new Error('these bytes take commands from the MCP lock');
    return index;
  };
  return { policy, core: made.core, buckets, seen, open, whole: buildPolicyIndex(policy, 'sha', '/p.json') };
}

const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value ?? null));

/** Every lookup the decision makes, through `index` and through the whole policy, side by side. */
function sameAnswers(index: PolicyIndex, whole: MemoryPolicyIndex, seen?: { whole: number }, absent: string[] = []) {
  const policy = whole.policy;
  expect(plain(index.settings)).toStrictEqual(plain(whole.settings));
  for (const family of [...whole.familyLevels.keys(), 'nope', 'constructor']) {
    expect(index.familyLevels.get(family), `family ${family}`).toBe(whole.familyLevels.get(family));
    expect(index.familyLevels.has(family)).toBe(whole.familyLevels.has(family));
  }
  expect(index.familyGlobs.map((g) => [g.family, g.pattern])).toStrictEqual(whole.familyGlobs.map((g) => [g.family, g.pattern]));
  const commands = Object.keys(policy.catalog.commands);
  const tools = Object.values(policy.catalog.commands).flatMap((c) => c.tools);
  const personas = Object.keys(policy.personas);
  const agentTypes = Object.values(policy.personas).flatMap((p) => p.agent_types);
  const check = (kind: string, names: string[]) => {
    for (const name of names) {
      if (kind === 'command') expect(plain(index.command(name)), `command ${name}`).toStrictEqual(plain(whole.command(name)));
      if (kind === 'tool') expect(index.commandForTool(name), `tool ${name}`).toBe(whole.commandForTool(name));
      if (kind === 'persona') expect(plain(index.persona(name)), `persona ${name}`).toStrictEqual(plain(whole.persona(name)));
      if (kind === 'agent') {
        expect(index.agentTypeToPersona.get(name), `agent type ${name}`).toBe(whole.agentTypeToPersona.get(name));
        expect(index.agentTypeToPersona.has(name)).toBe(whole.agentTypeToPersona.has(name));
      }
    }
  };
  // Each name looked up as what it is, and names that occur nowhere: from the spans alone.
  check('command', [...commands, ...absent]);
  check('tool', [...tools, ...absent]);
  check('persona', [...personas, ...absent]);
  check('agent', [...agentTypes, ...absent]);
  if (seen) expect(seen.whole).toBe(0);
  // A shell call's prefixes: every command's, as the whole policy has them.
  expect(index.bashPrefixes()).toStrictEqual(whole.bashPrefixes());
  // Names of one kind looked up as another: the same answers (the whole policy may be parsed).
  const all = [...commands, ...tools, ...personas, ...agentTypes, ...Object.keys(policy.catalog.families)];
  for (const kind of ['command', 'tool', 'persona', 'agent']) check(kind, all);
}

const layouts = (raw: unknown): [string, Buffer][] => [
  ['compact', Buffer.from(JSON.stringify(raw))],
  ['indented', Buffer.from(JSON.stringify(raw, null, 2))],
  ['with tabs and CRLF', Buffer.from(JSON.stringify(raw, null, '\t').replace(/\n/g, '\r\n'))],
];

const policies: [string, () => unknown][] = [
  ['tax-filing', tax],
  ['merge-captain', merge],
  ['the generated large policy', largePolicy],
];

describe('members read alone get the defaults the validator gives them', () => {
  it.each(policies)('%s, member by member', (_name, make) => {
    const raw = make() as Record<string, any>;
    const policy = validated(raw);
    for (const [key, def] of Object.entries(raw.catalog.commands ?? {}))
      expect(commandWithDefaults(structuredClone(def))).toStrictEqual(plain(policy.catalog.commands[key]));
    for (const [key, def] of Object.entries(raw.catalog.families ?? {}))
      expect(familyWithDefaults(structuredClone(def))).toStrictEqual(plain(policy.catalog.families[key]));
    for (const [key, def] of Object.entries(raw.personas ?? {}))
      expect(personaWithDefaults(structuredClone(def))).toStrictEqual(plain(policy.personas[key]));
    if (raw.identity) expect(identityWithDefaults(structuredClone(raw.identity))).toStrictEqual(plain(policy.identity));
  });
});

describe('the index over the cached positions answers as the whole policy does', () => {
  for (const [name, make] of policies) {
    for (const trusted of [true, false]) {
      it.each(layouts(make()))(`${name}, %s, ${trusted ? 'trusted' : 'checked'}, without parsing the whole policy`, (_layout, bytes) => {
        const c = memoryCache(bytes, trusted);
        const index = c.open();
        expect(index).not.toBeNull();
        sameAnswers(index!, c.whole, c.seen, ['nope.nothing', 'Read', 'mcp__unknown__tool', 'persona-nobody', '__proto__', 'constructor']);
        expect(c.seen.rewrites).toBe(0);
      });
    }
  }

  it('spans are the members as written', () => {
    const bytes = Buffer.from(JSON.stringify(tax(), null, 2));
    const spans = scanSpans(bytes)!;
    const raw = tax();
    for (const [key, span] of spans.commands) expect(memberAt(bytes, span, key)).toStrictEqual(raw.catalog.commands[key]);
    for (const [key, span] of spans.personas) expect(memberAt(bytes, span, key)).toStrictEqual(raw.personas[key]);
    expect(memberAt(bytes, spans.settings.defaults, 'defaults')).toStrictEqual(raw.defaults);
    expect(memberAt(bytes, spans.settings.defaults, 'identity')).toBe(MISMATCH);
  });

  it('bytes with a backslash have no positions', () => {
    const raw = tax();
    raw.catalog.commands['modelo.export'].description = 'a "quoted" word';
    const bytes = Buffer.from(JSON.stringify(raw));
    expect(scanSpans(bytes)).toBeNull();
    expect(
      openSpanIndex(bytes, 'sha', '/p.json', {}, { trusted: false, bucket: () => ({ ok: true, entries: [] }), rewrite: () => {} }),
    ).toBeNull();
  });

  it('bytes with a member named mcp are read with the MCP lock, whatever the cached positions say', () => {
    const raw = tax() as ReturnType<typeof tax> & { catalog: { mcp?: unknown } };
    const c = memoryCache(Buffer.from(JSON.stringify(raw)));
    raw.catalog.mcp = { servers: {} };
    for (const bytes of [
      Buffer.from(JSON.stringify(raw)),
      Buffer.from(JSON.stringify(raw, null, 2)),
      Buffer.from(JSON.stringify(tax()).replace('"personas":{', '"personas":{"mcp" :\n 1,')),
    ]) {
      expect(
        openSpanIndex(bytes, 'sha', '/p.json', c.core, { trusted: false, bucket: () => ({ ok: true, entries: [] }), rewrite: () => {} }),
      ).toBe(TAKES_MCP);
    }
  });

  it.each([['a'], ['fam.x'], ['ünïcode'], ['a b']])('usable name %s', (name) => expect(usableName(name)).toBe(true));
  it.each([[''], [' a'], [':a'], [',a'], ['}a'], [']a'], ['a"b'], ['a\\b'], ['a\u0001'], ['\ufffd'], ['\ud800']])(
    'unusable name %j',
    (name) => expect(usableName(name)).toBe(false),
  );
});

describe('checked positions (a policy of another user): a forged cache changes no answer', () => {
  const bytes = Buffer.from(JSON.stringify(tax(), null, 2));
  const entryOf = (list: unknown[][], name: string) => list.find((e) => e[0] === name)!;

  it('a command pointed at another command’s span', () => {
    const c = memoryCache(bytes);
    const other = entryOf(c.buckets.c, 'modelo.list');
    const entry = entryOf(c.buckets.c, 'modelo.export');
    entry[1] = other[1];
    entry[2] = other[2];
    const index = c.open()!;
    expect(index.command('modelo.export')?.owner).toBe('verifier');
    expect(plain(index.command('modelo.export'))).toStrictEqual(plain(c.whole.command('modelo.export')));
    expect(c.seen).toEqual({ whole: 1, rewrites: 0 });
  });

  it('a tool pointed at another command (its key and its span)', () => {
    const c = memoryCache(bytes);
    const other = entryOf(c.buckets.c, 'modelo.list');
    const entry = entryOf(c.buckets.t, 'mcp__aeat__modelo_export');
    entry[1] = 'modelo.list';
    entry[2] = other[1];
    entry[3] = other[2];
    const index = c.open()!;
    expect(index.commandForTool('mcp__aeat__modelo_export')).toBe('modelo.export');
    expect(index.command('modelo.export')?.owner).toBe('verifier');
  });

  it('an entry deleted: the tool is still found', () => {
    const c = memoryCache(bytes);
    c.buckets.t = c.buckets.t.filter((e) => e[0] !== 'mcp__aeat__modelo_export');
    c.buckets.c = c.buckets.c.filter((e) => e[0] !== 'modelo.export');
    const index = c.open()!;
    expect(index.commandForTool('mcp__aeat__modelo_export')).toBe('modelo.export');
    expect(index.command('modelo.export')?.owner).toBe('verifier');
  });

  it('a persona and an agent type deleted or pointed elsewhere', () => {
    const c = memoryCache(bytes);
    c.buckets.p = c.buckets.p.filter((e) => e[0] !== 'verifier');
    const agent = entryOf(c.buckets.a, 'classifier');
    agent[1] = 'coordinator';
    const index = c.open()!;
    expect(plain(index.persona('verifier'))).toStrictEqual(plain(c.whole.persona('verifier')));
    expect(index.agentTypeToPersona.get('classifier')).toBe('classifier');
  });

  it('a command pointed at a family of the same name', () => {
    const raw = {
      version: 1,
      catalog: { families: { f: { level: 'read_only' }, 'f.x': { level: 'network' } }, commands: { 'f.y': { tools: ['t'] } } },
    };
    const famBytes = Buffer.from(JSON.stringify(raw));
    const c = memoryCache(famBytes);
    const family = scanSpans(famBytes)!;
    expect(family).not.toBeNull();
    const start = famBytes.indexOf('"f.x"');
    c.buckets.c.push(['f.x', start, famBytes.indexOf('}', start) + 1]);
    c.buckets.t.push(['mcp__x', 'f.x', start, famBytes.indexOf('}', start) + 1]);
    const index = c.open()!;
    expect(index.command('f.x')).toBeUndefined();
    expect(index.commandForTool('mcp__x')).toBeUndefined();
  });

  it('a persona pointed at a stage, a family or a command', () => {
    const c = memoryCache(bytes);
    const text = bytes.toString('utf8');
    const at = (needle: string) => text.indexOf(needle);
    c.buckets.p.push(['modelo', at('"modelo": {'), text.indexOf('}', at('"modelo": {')) + 1]);
    const index = c.open()!;
    expect(index.persona('modelo')).toBeUndefined();
  });

  it('settings pointed at a member of the same name elsewhere', () => {
    const raw = tax();
    delete raw.persona_env;
    raw.catalog.meta_tools.persona_env = 'command';
    const metaBytes = Buffer.from(JSON.stringify(raw));
    const c = memoryCache(metaBytes);
    const start = metaBytes.indexOf('"persona_env"');
    const forged = { ...c.core, persona_env: [start, start + '"persona_env":"command"'.length] };
    expect(memberAt(metaBytes, forged.persona_env, 'persona_env')).toBe('command');
    expect(c.open(forged)).toBeNull();
    // A setting named as a meta tool is always read from the whole policy.
    expect(c.open()).toBeNull();
  });

  it('an earlier duplicate of a member is not the one JSON.parse keeps', () => {
    const text = JSON.stringify(tax(), null, 2);
    const member = '"modelo.export": {';
    const duplicated = text.replace(member, `"modelo.export": { "level": "read_only" },\n      ${member}`);
    const dupBytes = Buffer.from(duplicated);
    const c = memoryCache(dupBytes);
    expect(c.whole.command('modelo.export')?.owner).toBe('verifier');
    const start = dupBytes.indexOf('"modelo.export"');
    const entry = entryOf(c.buckets.c, 'modelo.export');
    entry[1] = start;
    entry[2] = dupBytes.indexOf('}', start) + 1;
    expect(c.open()!.command('modelo.export')?.owner).toBe('verifier');
  });

  it('spans of an earlier version of the policy', () => {
    const before = memoryCache(bytes);
    const raw = tax();
    const moved = { 'modelo.zzz': { level: 'read_only', tools: ['mcp__aeat__zzz'] }, ...raw.catalog.commands };
    raw.catalog.commands = moved;
    const after = Buffer.from(JSON.stringify(raw, null, 2));
    const c = memoryCache(after);
    c.buckets.c = before.buckets.c;
    c.buckets.t = before.buckets.t;
    c.buckets.p = before.buckets.p;
    c.buckets.a = before.buckets.a;
    c.buckets.f = before.buckets.f;
    const index = c.open(before.core);
    // The settings moved too: the index is not opened, or answers as the whole policy does.
    if (index) sameAnswers(index, c.whole);
  });
});

describe('trusted positions (a policy of the user running the hook) are taken as recorded', () => {
  const bytes = Buffer.from(JSON.stringify(tax(), null, 2));
  const entryOf = (list: unknown[][], name: string) => list.find((e) => e[0] === name)!;

  it('a tool pointed at another command (its key and its span) answers that command', () => {
    const c = memoryCache(bytes, true);
    const other = entryOf(c.buckets.c, 'modelo.list');
    const entry = entryOf(c.buckets.t, 'mcp__aeat__modelo_export');
    entry[1] = 'modelo.list';
    entry[2] = other[1];
    entry[3] = other[2];
    const index = c.open()!;
    expect(index.commandForTool('mcp__aeat__modelo_export')).toBe('modelo.list');
    expect(c.seen).toEqual({ whole: 0, rewrites: 0 });
  });

  it('an entry deleted: the name is taken as absent', () => {
    const c = memoryCache(bytes, true);
    c.buckets.c = c.buckets.c.filter((e) => e[0] !== 'modelo.export');
    c.buckets.f = c.buckets.f.filter((e) => e[0] !== 'modelo');
    const index = c.open()!;
    expect(index.command('modelo.export')).toBeUndefined();
    expect(index.familyLevels.get('modelo')).toBeUndefined();
    expect(c.seen).toEqual({ whole: 0, rewrites: 0 });
  });

  it.each([
    [
      'a command at the span of another command',
      (c: ReturnType<typeof memoryCache>) => {
        const entry = entryOf(c.buckets.c, 'modelo.export');
        const other = entryOf(c.buckets.c, 'modelo.list');
        [entry[1], entry[2]] = [other[1], other[2]];
      },
      (index: PolicyIndex) => index.command('modelo.export')?.owner,
    ],
    [
      'a persona at a span outside the bytes',
      (c: ReturnType<typeof memoryCache>) => {
        entryOf(c.buckets.p, 'verifier')[2] = bytes.length + 10;
      },
      (index: PolicyIndex) => index.persona('verifier')?.ceiling,
    ],
    [
      'a family at a span that does not parse',
      (c: ReturnType<typeof memoryCache>) => {
        const entry = entryOf(c.buckets.f, 'modelo');
        entry[2] = (entry[1] as number) + 5;
      },
      (index: PolicyIndex) => index.familyLevels.get('modelo'),
    ],
  ])('%s: answered from the whole policy, and the cache written again', (_name, forge, ask) => {
    const c = memoryCache(bytes, true);
    forge(c);
    expect(ask(c.whole)).toBeDefined();
    expect(ask(c.open()!)).toBe(ask(c.whole));
    expect(c.seen).toEqual({ whole: 1, rewrites: 1 });
  });

  it('a bucket that does not parse: answered from the whole policy, and the cache written again', () => {
    const c = memoryCache(bytes, true);
    const index = openSpanIndex(bytes, 'sha', '/p.json', c.core, {
      trusted: true,
      bucket: () => ({ ok: false }),
      rewrite: () => {
        c.seen.rewrites++;
      },
    }) as PolicyIndex;
    expect(index.command('modelo.export')?.owner).toBe('verifier');
    expect(c.seen.rewrites).toBe(1);
  });

  it('settings at a span that does not hold them: not opened (the caller parses the whole policy)', () => {
    const c = memoryCache(bytes, true);
    expect(c.open({ ...c.core, defaults: c.core.identity })).toBeNull();
  });
});

describe('loadPolicy over the cache', () => {
  /** A policy with a persona named `identity` and no identity section. */
  const identityPersona = () => {
    const raw = tax();
    delete raw.identity;
    raw.personas.identity = { families: ['modelo'], ceiling: 'read_only' };
    const dir = tempDir();
    const path = join(dir, 'policy.json');
    writeFileSync(path, JSON.stringify(raw, null, 2));
    return { path, cacheDir: join(dir, 'cache') };
  };
  const loadTwice = (path: string, cacheDir: string) => {
    const first = loadPolicy(path, { cacheDir });
    const entry = policyCacheEntry(cacheDir, path, readFileSync(path).length);
    const written = statSync(entry, { bigint: true });
    const second = loadPolicy(path, { cacheDir });
    if (!second.ok || !first.ok) throw new Error('not loaded');
    expect(plain(second.index.settings)).toStrictEqual(plain(first.index.settings));
    expect(second.index.settings.identity).toBeUndefined();
    expect(statSync(entry, { bigint: true }).ino).toBe(written.ino);
    return second.index;
  };

  it("a policy of this user's whose settings share a name with a persona: opened over the positions", () => {
    const { path, cacheDir } = identityPersona();
    expect(loadTwice(path, cacheDir).policy).toBeNull();
  });

  it.runIf(process.getuid?.() === 0)("the same, another user's: read whole, the cache not written again on each call", () => {
    const { path, cacheDir } = identityPersona();
    chownSync(path, 65534, 65534);
    expect(loadTwice(path, cacheDir).policy).not.toBeNull();
  });

  it('an ordinary policy: opened over the positions, nothing parsed whole', () => {
    const dir = tempDir();
    const path = join(dir, 'policy.json');
    writeFileSync(path, readFileSync(TAX_POLICY_PATH));
    const cacheDir = join(dir, 'cache');
    expect(loadPolicy(path, { cacheDir }).ok).toBe(true);
    const loaded = loadPolicy(path, { cacheDir });
    if (!loaded.ok) throw new Error('not loaded');
    expect(loaded.index.policy).toBeNull();
    expect(loaded.index.command('modelo.export')?.owner).toBe('verifier');
  });
});
