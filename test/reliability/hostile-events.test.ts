import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, tempDir } from '../helpers/cli';
import { outcomeOf, runHooks, type Outcome } from '../helpers/pool';
import { ROOT, TAX_POLICY_PATH } from '../helpers/policy';

/**
 * At least 200 hostile events, each with the outcome due under the modelo-preparer persona (no
 * identity read yet). None may exit 1, hang, or pass where a refusal is due.
 */

type Entry = { name: string; input: string | Buffer; expect: Outcome[] };

const base = {
  hook_event_name: 'PreToolUse',
  session_id: 'hostile',
  tool_name: 'mcp__aeat__modelo_list',
  tool_input: {},
  tool_use_id: 'toolu_h',
  cwd: ROOT,
};
const json = (value: unknown) => JSON.stringify(value);
const event = (patch: Record<string, unknown>) => json({ ...base, ...patch });
const DENY: Outcome[] = ['deny'];
const REFUSED: Outcome[] = ['deny', 'ask'];
const PASS: Outcome[] = ['abstain'];

const corpus: Entry[] = [];
const add = (name: string, input: string | Buffer, expected: Outcome[]) => corpus.push({ name, input, expect: expected });

// Malformed and truncated JSON.
const valid = event({ tool_name: 'mcp__aeat__modelo_export' });
for (let cut = 1; cut < valid.length; cut += Math.max(1, Math.floor(valid.length / 40)))
  add(`truncated at ${cut}`, valid.slice(0, cut), DENY);
for (const text of [
  '{',
  '}',
  '{"a":}',
  "{'hook_event_name':'PreToolUse'}",
  '{"hook_event_name":"PreToolUse",}',
  'NaN',
  'undefined',
  '{"a":1}{"b":2}',
  '\uFEFF' + valid,
  valid + 'x',
  '{"hook_event_name":"PreToolUse" "session_id":"s"}',
]) {
  add(`malformed ${text.slice(0, 30)}`, text, DENY);
}
// Empty and whitespace stdin; arrays and scalars.
for (const text of ['', ' ', '\n', '\t\r\n ', '[]', '[{}]', `[${valid}]`, '0', '-1', '"PreToolUse"', 'true', 'false', 'null', '1e309'])
  add(`not an event: ${json(text)}`, text, DENY);
// Missing and wrongly typed fields.
for (const field of ['hook_event_name', 'session_id', 'tool_name', 'tool_input']) {
  add(`missing ${field}`, json({ ...base, tool_name: 'mcp__aeat__modelo_export', [field]: undefined }), DENY);
  for (const bad of [1, true, [], {}, null, '']) {
    if (field === 'tool_input' && typeof bad === 'object' && bad !== null && !Array.isArray(bad)) continue;
    add(`${field} = ${json(bad)}`, event({ tool_name: 'mcp__aeat__modelo_export', [field]: bad }), DENY);
  }
}
for (const field of ['agent_type', 'agent_id', 'tool_use_id', 'cwd'])
  for (const bad of [1, true, [], {}]) add(`${field} = ${json(bad)}`, event({ [field]: bad }), DENY);
// Oversized input and deep nesting.
add('just over 1 MiB', event({ tool_input: { pad: 'x'.repeat(1024 * 1024) } }), DENY);
add('5 MiB', Buffer.alloc(5 * 1024 * 1024, 0x20), DENY);
add(
  'nested 100,000 deep',
  `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Write","tool_input":{"x":${'['.repeat(100000)}${']'.repeat(100000)}}}`,
  DENY,
);
add('nested 400,000 deep, unterminated', '['.repeat(400000), DENY);
add(
  '1,000 nested objects in tool_input (well-formed, mutating tool)',
  event({ tool_name: 'mcp__aeat__modelo_work_create', tool_input: JSON.parse('{"a":'.repeat(1000) + '1' + '}'.repeat(1000)) }),
  DENY,
);
// Look-alikes and case changes of tool names: never the real command, never passed under a persona.
const lookalikes = [
  'mcp__aeat__modelo_exp\u043ert',
  'mcp__aeat__modelo_export\u200b',
  '\u200bmcp__aeat__modelo_export',
  'mcp__aeat__modelo\u2010export',
  'MCP__AEAT__MODELO_EXPORT',
  'Mcp__aeat__modelo_export',
  'mcp__aeat__Modelo_Export',
  'mcp__aeat__modelo_export ',
  ' mcp__aeat__modelo_export',
  'mcp__aeat__modelo_export\n',
  'mcp__aeat__modelo_export\u0000',
  'mcp__aeat__modelo_\uff45xport',
  'mcp__aeat__modelo_list\u0000export',
  'mcp__aeat__modelo_list ',
  'mcp__aeat__modelo_lis\u0442',
  'bash',
  'BASH',
  'write',
  'WRITE',
  'Writ\u0435',
  'edit',
  'Read ',
  'read',
  'ΜultiEdit',
  'mcp__aeat__*',
  '*',
  'mcp__aeat__execute\u200d',
];
for (const name of lookalikes) add(`look-alike ${json(name)}`, event({ tool_name: name }), REFUSED);
// NUL bytes.
add('NUL in session id', event({ session_id: 'a\u0000b' }), PASS);
add('NUL in tool input', event({ tool_name: 'mcp__aeat__modelo_export', tool_input: { modelo: '\u0000' } }), DENY);
add('raw NUL byte in the stream', Buffer.concat([Buffer.from(valid.slice(0, 20)), Buffer.from([0]), Buffer.from(valid.slice(20))]), DENY);
// Path traversal and very long session ids: the state is keyed by a hash, never by the id.
// The marker a substitution in an id would create is this run's own, so that one left on the machine proves nothing.
const MARKER = join(mkdtempSync(join(tmpdir(), 'pg-hostile-')), 'pwned');
for (const id of [
  '../../../../etc/passwd',
  '..',
  '/',
  '.',
  'a/../../b',
  '\\..\\..\\windows',
  '~',
  `$(touch ${MARKER})`,
  '%2e%2e%2f',
  'x'.repeat(4096),
]) {
  add(`session id ${json(id.slice(0, 40))}`, event({ session_id: id }), PASS);
  add(`session id ${json(id.slice(0, 40))}, mutation`, event({ session_id: id, tool_name: 'mcp__aeat__modelo_work_create' }), DENY);
}
add('session id of 4,097 characters', event({ session_id: 'x'.repeat(4097) }), DENY);
add('session id of 100,000 characters', event({ session_id: 'x'.repeat(100000) }), DENY);
// Unknown hook events.
for (const name of [
  'Notification',
  'Stop',
  'SubagentStop',
  'UserPromptSubmit',
  'PreCompact',
  'pretooluse',
  'PRETOOLUSE',
  'PreToolUse ',
  '',
  'PreToolUse\u0000',
]) {
  add(`hook event ${json(name)}`, event({ hook_event_name: name }), DENY);
}
// Extra fields, including ones named like ours.
add('many extra fields', json({ ...base, ...Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`extra_${i}`, i])) }), PASS);
add('a large extra field', json({ ...base, transcript: 'y'.repeat(500_000) }), PASS);
add(
  'extra fields of Claude Code',
  event({ prompt_id: 'p', effort: 'high', permission_mode: 'bypassPermissions', transcript_path: '/tmp/t' }),
  PASS,
);
add(
  'persona smuggled in the event',
  event({ tool_name: 'mcp__aeat__modelo_export', persona: 'verifier', PERSONA_GATE_PERSONA: 'verifier' }),
  DENY,
);
add(
  'permission decision smuggled in the event',
  event({ tool_name: 'mcp__aeat__modelo_export', hookSpecificOutput: { permissionDecision: 'allow' } }),
  DENY,
);
add(
  '__proto__ in the event',
  `{"__proto__":{"tool_name":"Read"},"hook_event_name":"PreToolUse","session_id":"s","tool_name":"mcp__aeat__modelo_export","tool_input":{}}`,
  DENY,
);
add(
  'duplicate keys, the last wins',
  `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Read","tool_input":{},"tool_name":"mcp__aeat__modelo_export"}`,
  DENY,
);
add(
  'agent type bound to the owner, unknown to Claude Code',
  event({ tool_name: 'mcp__aeat__modelo_export', agent_type: 'verifier ' }),
  DENY,
);
// Meta-tool keys that are undeclared, non-strings or empty.
for (const key of [
  'modelo.nonexistent',
  42,
  null,
  '',
  [],
  {},
  'modelo.export ',
  ' modelo.export',
  'MODELO.EXPORT',
  'modelo.export\u0000',
  'modelo',
  'modelo.',
  '.export',
  '__proto__',
  'constructor',
  'toString',
  'modelo.list.',
  true,
]) {
  add(`meta key ${json(key)}`, event({ tool_name: 'mcp__aeat__execute', tool_input: { command: key } }), REFUSED);
}
add('meta tool without its field', event({ tool_name: 'mcp__aeat__execute', tool_input: {} }), REFUSED);
add('meta key as the other field', event({ tool_name: 'mcp__aeat__execute', tool_input: { cmd: 'modelo.list' } }), REFUSED);
// Ordinary events stay ordinary.
add('a plain read', event({}), PASS);
add('meta read', event({ tool_name: 'mcp__aeat__execute', tool_input: { command: 'modelo.list' } }), PASS);
add('the filing', event({ tool_name: 'mcp__aeat__modelo_export' }), DENY);
add(
  'PostToolUse with a null response',
  json({ ...base, hook_event_name: 'PostToolUse', tool_name: 'mcp__aeat__whoami', tool_response: null }),
  ['silent'],
);
add(
  'PostToolUse with a hostile label',
  json({
    ...base,
    hook_event_name: 'PostToolUse',
    tool_name: 'mcp__aeat__whoami',
    tool_response: [{ type: 'text', text: '\u001b[2J\u202eErik' }],
  }),
  ['silent'],
);
add('SessionStart without source', json({ hook_event_name: 'SessionStart', session_id: 's' }), ['silent']);
add('SessionStart with a numeric source', json({ hook_event_name: 'SessionStart', session_id: 's', source: 7 }), DENY);

describe('hostile events against the built hook', () => {
  it(`has at least 200 events (${corpus.length})`, () => {
    expect(corpus.length).toBeGreaterThanOrEqual(200);
  });

  it('never exits 1, never hangs, never passes where a refusal is due', async () => {
    const dir = tempDir();
    const stateDir = join(dir, 'state');
    const env = cleanEnv({
      PERSONA_GATE_STATE_DIR: stateDir,
      PERSONA_GATE_CONFIG: TAX_POLICY_PATH,
      HOME: dir,
      PERSONA_GATE_PERSONA: 'modelo-preparer',
    });
    const results = await runHooks(
      corpus.map((c) => c.input),
      env,
    );
    const failures: string[] = [];
    corpus.forEach((entry, i) => {
      const r = results[i]!;
      const isPre = (() => {
        try {
          return JSON.parse(String(entry.input)).hook_event_name === 'PreToolUse';
        } catch {
          return false;
        }
      })();
      const outcome = outcomeOf(r, isPre);
      if (r.code === 1 || outcome === 'invalid' || !entry.expect.includes(outcome) || r.ms > 10_000) {
        failures.push(`${entry.name}: ${outcome} (exit ${r.code}, ${r.ms} ms) ${r.stdout.slice(0, 160)}${r.stderr.slice(0, 160)}`);
      }
    });
    expect(failures).toEqual([]);
    // Whatever the session id, nothing was written outside the state directory's own files.
    const sessions = readdirSync(join(stateDir, 'sessions'));
    for (const name of sessions) {
      expect(name).toMatch(/^[0-9a-f]{32}$/);
      for (const file of readdirSync(join(stateDir, 'sessions', name))) expect(file).toMatch(/^\d+\.json$/);
    }
    expect(existsSync(MARKER)).toBe(false);
    const receipts = readdirSync(join(stateDir, 'receipts'));
    for (const name of receipts) {
      expect(name).toMatch(/^[0-9a-f]{32}\.jsonl$/);
      for (const line of readFileSync(join(stateDir, 'receipts', name), 'utf8')
        .trim()
        .split('\n'))
        JSON.parse(line);
    }
  }, 300_000);
});
