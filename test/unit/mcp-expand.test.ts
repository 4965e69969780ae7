import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPolicyIndex, commandLevel, defaultTier } from '../../src/core/policy-index';
import { lockServer, levelOfAnnotations, serializeLock, tierOfAnnotations, type Lock } from '../../src/mcp/lock';
import { MCP_MESSAGES } from '../../src/mcp/messages';
import { parseLock, type LockRead } from '../../src/mcp/read-lock';
import { lockDrift } from '../../src/mcp/drift';
import { validatePolicy } from '../../src/policy/validate';
import { ROOT, TAX_POLICY_PATH } from '../helpers/policy';

const mcpEn = MCP_MESSAGES.en;

const EXAMPLE = join(ROOT, 'examples', 'tax-filing-mcp', '.claude');

function lockOf(tools: Record<string, Record<string, boolean>>): LockRead {
  const lock: Lock = {
    version: 1,
    servers: { s: lockServer(Object.entries(tools).map(([name, annotations]) => ({ name, description: name, annotations }))) },
  };
  return parseLock(Buffer.from(serializeLock(lock)));
}

const policy = (mcp: unknown, extra: Record<string, unknown> = {}) => ({ version: 1, catalog: { mcp, ...extra }, personas: {} });

describe('annotations → level and tier (SPEC §11, with the MCP defaults for hints left out)', () => {
  it.each([
    [{ readOnlyHint: true }, 'read_only', 'auto'],
    [{ readOnlyHint: true, destructiveHint: true, openWorldHint: true }, 'read_only', 'auto'],
    [{ openWorldHint: false, destructiveHint: false }, 'workspace_write', 'auto'],
    [{ openWorldHint: false }, 'workspace_write', 'confirm'],
    [{ destructiveHint: false }, 'network', 'auto'],
    [{}, 'network', 'confirm'],
  ] as const)('%j → %s, %s', (a, level, tier) => {
    expect(levelOfAnnotations(a)).toBe(level);
    expect(tierOfAnnotations(a)).toBe(tier);
  });
});

describe('catalog.mcp expansion', () => {
  const lock = lockOf({
    a_read: { readOnlyHint: true },
    a_write: { openWorldHint: false, destructiveHint: false },
    b_send: {},
    odd: { readOnlyHint: true },
  });

  it('groups by prefix, glob and explicit map into families whose level is their highest member', () => {
    const r = validatePolicy(
      policy({ servers: { s: { families: { a: { prefix: 'a_' }, b: { glob: 'b_*' }, c: { tools: { odd: 'c.odd.one' } } } } } }),
      'en',
      undefined,
      lock,
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(Object.keys(r.policy.catalog.commands).sort()).toEqual(['a.read', 'a.write', 'b.send', 'c.odd.one']);
    expect(r.policy.catalog.commands['b.send']).toEqual({ level: 'network', confirm: 'confirm', tools: ['mcp__s__b_send'], bash: [] });
    expect(r.policy.catalog.families).toMatchObject({
      a: { level: 'workspace_write' },
      b: { level: 'network' },
      c: { level: 'read_only' },
    });
    expect(r.policy.pinned?.settings).toMatchObject({ servers: ['s'], unlisted: [] });
  });

  it.each([
    [
      'a tool in no family',
      { families: { a: { prefix: 'a_' }, b: { glob: 'b_*' } } },
      'catalog.mcp.servers.s',
      mcpEn.toolInNoFamily('s', 'odd'),
    ],
    [
      'a tool in two families',
      { families: { a: { prefix: 'a_' }, b: { glob: '*' } } },
      'catalog.mcp.servers.s',
      mcpEn.toolInTwoFamilies('a_read', ['a', 'b']),
    ],
    [
      'a level lowered',
      { families: { x: { glob: '*' } }, tools: { b_send: { level: 'read_only' } } },
      'catalog.mcp.servers.s.tools.b_send.level',
      mcpEn.levelLowered('read_only', 'network', 'b_send'),
    ],
    [
      'a family level lowered',
      { families: { x: { glob: '*', level: 'workspace_write' } } },
      'catalog.mcp.servers.s.families.x.level',
      mcpEn.familyLowered('workspace_write', 'network', 'b_send'),
    ],
    [
      'an override of a tool not in the lock',
      { families: { x: { glob: '*' } }, tools: { gone: { owner: 'v' } } },
      'catalog.mcp.servers.s.tools.gone',
      mcpEn.toolNotInLock('s', 'gone'),
    ],
    [
      'a key outside its family',
      { families: { x: { glob: '*', tools: { odd: 'y.odd' } } } },
      'catalog.mcp.servers.s.families.x.tools.odd',
      mcpEn.keyOutsideFamily('y.odd', 'x'),
    ],
    ['an empty rule', { families: { x: { glob: '*' }, y: {} } }, 'catalog.mcp.servers.s.families.y', mcpEn.ruleEmpty()],
  ])('refuses %s', (_, server, path, message) => {
    const r = validatePolicy(policy({ servers: { s: server } }), 'en', undefined, lock);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toContainEqual({ path, message });
  });

  it('refuses a server the lock does not have, and a hand-written command claiming a pinned tool', () => {
    const r = validatePolicy(
      policy(
        { servers: { s: { families: { x: { glob: '*' } } }, t: {} } },
        { families: { h: { level: 'read_only' } }, commands: { 'h.c': { tools: ['mcp__s__a_read'] } } },
      ),
      'en',
      undefined,
      lock,
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toEqual([
      { path: 'catalog.mcp.servers.t', message: mcpEn.serverNotPinned('t') },
      { path: 'catalog.commands["h.c"].tools[0]', message: mcpEn.toolOfPinnedServer('mcp__s__a_read', 's') },
    ]);
  });

  it('reports a general rule broken by a lock-derived command at the catalog.mcp entry behind it', () => {
    const r = validatePolicy(
      policy({ servers: { s: { families: { x: { glob: '*' } }, tools: { a_read: { owner: 'nobody' } } } } }),
      'en',
      undefined,
      lock,
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toEqual([{ path: 'catalog.mcp.servers.s.tools.a_read.owner', message: 'owner "nobody" is not a declared persona' }]);
  });

  it('drift names added, removed, annotations, description and schema changes', () => {
    const a: Lock = {
      version: 1,
      servers: {
        s: lockServer([
          { name: 't', description: 'd', annotations: { readOnlyHint: true } },
          { name: 'u', description: 'x' },
        ]),
      },
    };
    const b: Lock = {
      version: 1,
      servers: {
        s: lockServer([
          { name: 't', description: 'd2', inputSchema: { type: 'object', properties: {} }, annotations: {} },
          { name: 'v', description: 'x' },
        ]),
        n: { tools: {} },
      },
    };
    expect(lockDrift(a, b)).toEqual([
      { kind: 'server_added', server: 'n' },
      { kind: 'annotations', server: 's', tool: 't', changes: [{ hint: 'readOnlyHint', was: true, now: undefined }] },
      { kind: 'description', server: 's', tool: 't' },
      { kind: 'input_schema', server: 's', tool: 't' },
      { kind: 'tool_removed', server: 's', tool: 'u' },
      { kind: 'tool_added', server: 's', tool: 'v' },
    ]);
  });
});

describe('the tax-filing example taken from the lock', () => {
  it('gives every command the level, tier and owner the hand-written policy gives it', () => {
    const hand = validatePolicy(JSON.parse(readFileSync(TAX_POLICY_PATH, 'utf8')));
    const pinnedPath = join(EXAMPLE, 'persona-gate.json');
    const pinned = validatePolicy(JSON.parse(readFileSync(pinnedPath, 'utf8')), 'en', pinnedPath);
    expect(hand.ok && pinned.ok).toBe(true);
    if (!hand.ok || !pinned.ok) return;
    const a = buildPolicyIndex(hand.policy, '', '');
    const b = buildPolicyIndex(pinned.policy, '', '');
    const view = (index: typeof a) =>
      Object.fromEntries(
        Object.entries(index.policy.catalog.commands).map(([key, def]) => {
          const level = commandLevel(index, key, def);
          return [
            key,
            { level, tier: def.confirm ?? defaultTier(index, level), owner: def.owner ?? null, tools: def.tools, bash: def.bash },
          ];
        }),
      );
    expect(view(b)).toEqual(view(a));
    expect(b.familyLevels).toEqual(a.familyLevels);
  });
});
