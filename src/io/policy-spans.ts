import { isLevel, LEVELS, TIERS } from '../core/levels';
import { isJsSpace } from '../core/chars';
import { latin1Text, utf8Text } from './text';

/**
 * Where the members of a policy sit in its bytes: for a command, a family, a persona or a
 * top-level setting, the byte span [start, end) of its JSON member (`"key": value`). The cache
 * keeps only these positions (policy-cache.ts); a lookup slices the policy's bytes read on this
 * call at the span and parses that slice alone, and uses it only when the slice is exactly one
 * member with the name looked up. Where the positions are checked (a policy of another user:
 * span-index.ts), the member must also have the shape its kind has, and no later member of that
 * name in the bytes may be the one JSON.parse keeps, so that a forged span yields nothing, never
 * another member's definition; and a name the cache says is absent is believed only when its
 * quoted form does not occur in the bytes at all.
 *
 * The positions are recorded only for bytes without a backslash: then every `"` in them is a
 * string's delimiter, every name is written literally, and a search for `"name"` finds each string
 * whose value is `name` (for the names `usableName` accepts: see there).
 */

export type Span = [number, number];

/** The members a call reads whole: the catalog's settings and the top-level ones. */
export const SETTINGS = [
  'include',
  'families',
  'meta_tools',
  'programs',
  'identity',
  'defaults',
  'persona_env',
  'stage_env',
  'locale',
] as const;
export type SettingName = (typeof SETTINGS)[number];
export const CATALOG_SETTINGS: ReadonlySet<string> = new Set(['include', 'families', 'meta_tools', 'programs']);

export interface PolicySpans {
  settings: Partial<Record<SettingName, Span>>;
  commands: Map<string, Span>;
  families: Map<string, Span>;
  personas: Map<string, Span>;
}

/** Bytes whose positions can be used: no escape sequence anywhere. */
export function spansUsable(bytes: Buffer): boolean {
  return bytes.indexOf(0x5c) === -1;
}

const isSpace = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * The spans of a policy's members (the last member of a name, as JSON.parse keeps), or null when
 * the bytes are not usable. Only for bytes that parse: it is run after a validation.
 */
export function scanSpans(bytes: Buffer): PolicySpans | null {
  if (!spansUsable(bytes)) return null;
  const b = bytes;
  let i = 0;
  const fail = (): never => {
    throw new Error(`unexpected byte at ${i}`);
  };
  const ws = () => {
    while (isSpace(b[i])) i++;
  };
  const root = new Map<string, Span>();
  const catalog = new Map<string, Span>();
  const commands = new Map<string, Span>();
  const families = new Map<string, Span>();
  const personas = new Map<string, Span>();
  /** The table for the members of `key` inside the object whose members go to `table`. */
  const childOf = (table: Map<string, Span> | null, key: string): Map<string, Span> | null => {
    if (table === root) return key === 'catalog' ? catalog : key === 'personas' ? personas : null;
    if (table === catalog) return key === 'commands' ? commands : key === 'families' ? families : null;
    return null;
  };
  const clear = (table: Map<string, Span>) => {
    table.clear();
    if (table === catalog) {
      commands.clear();
      families.clear();
    }
  };
  const string = (): Span => {
    if (b[i] !== 0x22) fail();
    const start = i;
    const close = b.indexOf(0x22, i + 1);
    if (close === -1) fail();
    i = close + 1;
    return [start, i];
  };
  const value = (table: Map<string, Span> | null): void => {
    const c = b[i];
    if (c === 0x7b) object(table);
    else if (c === 0x5b) {
      i++;
      ws();
      if (b[i] === 0x5d) {
        i++;
        return;
      }
      for (;;) {
        ws();
        value(null);
        ws();
        if (b[i] === 0x2c) i++;
        else if (b[i] === 0x5d) {
          i++;
          return;
        } else fail();
      }
    } else if (c === 0x22) string();
    else {
      const start = i;
      while (i < b.length && !isSpace(b[i]) && b[i] !== 0x2c && b[i] !== 0x5d && b[i] !== 0x7d) i++;
      if (i === start) fail();
    }
  };
  const object = (table: Map<string, Span> | null): void => {
    i++;
    ws();
    if (b[i] === 0x7d) {
      i++;
      return;
    }
    for (;;) {
      ws();
      const [ks, ke] = string();
      const key = b.toString('utf8', ks + 1, ke - 1);
      ws();
      if (b[i] !== 0x3a) fail();
      i++;
      ws();
      const child = childOf(table, key);
      // A later member of the same name is the one JSON.parse keeps: it replaces what was found.
      if (child) clear(child);
      value(child);
      if (table) {
        table.delete(key);
        table.set(key, [ks, i]);
      }
      ws();
      if (b[i] === 0x2c) i++;
      else if (b[i] === 0x7d) {
        i++;
        return;
      } else fail();
    }
  };
  try {
    ws();
    if (b[i] !== 0x7b) fail();
    object(root);
    ws();
    if (i !== b.length) fail();
  } catch {
    return null;
  }
  const settings: Partial<Record<SettingName, Span>> = {};
  for (const name of SETTINGS) {
    const span = (CATALOG_SETTINGS.has(name) ? catalog : root).get(name);
    if (span) settings[name] = span;
  }
  return { settings, commands, families, personas };
}

/**
 * The names whose every occurrence `"name"` in usable bytes is a string of that value: no quote,
 * backslash or control character (they would be escaped), no U+FFFD or lone surrogate (bytes that
 * are not UTF-8 decode to U+FFFD), and not starting with what can follow a string's closing quote
 * (white space, `:`, `,`, `}` or `]`), so that the quote before it opens a string.
 */
export function usableName(name: string): boolean {
  if (name.length === 0) return false;
  const first = name.charCodeAt(0);
  if (isJsSpace(first) || first === 0x3a || first === 0x2c || first === 0x7d || first === 0x5d) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c <= 0x1f || c === 0x22 || c === 0x5c || c === 0xfffd) return false;
    if (c >= 0xdc00 && c <= 0xdfff) return false;
    if (c >= 0xd800 && c <= 0xdbff) {
      const low = name.charCodeAt(i + 1);
      if (!(low >= 0xdc00 && low <= 0xdfff)) return false;
      i++;
    }
  }
  return true;
}

const quoted = (name: string) => Buffer.from(`"${name}"`, 'utf8');

/** Whether `"name"` occurs anywhere in the bytes. */
export function occurs(bytes: Buffer, name: string): boolean {
  return bytes.indexOf(quoted(name)) !== -1;
}

/**
 * Whether a member `"name": v` whose value starts with the byte `open` occurs at or after `from`.
 */
function memberFrom(bytes: Buffer, needle: Buffer, from: number, open: number): boolean {
  for (let at = bytes.indexOf(needle, from); at !== -1; at = bytes.indexOf(needle, at + 1)) {
    let j = at + needle.length;
    while (isSpace(bytes[j])) j++;
    if (bytes[j] !== 0x3a) continue;
    j++;
    while (isSpace(bytes[j])) j++;
    if (bytes[j] === open) return true;
  }
  return false;
}

export const MISMATCH: unique symbol = Symbol('mismatch');

/**
 * The value of the member at `span`, when the bytes there are exactly one member named `name`
 * and no later member of that name with a value of the same kind follows it (JSON.parse keeps the
 * last one); MISMATCH otherwise.
 */
export function memberAt(bytes: Buffer, span: unknown, name: string, checkLater = true): unknown {
  if (!Array.isArray(span) || span.length !== 2) return MISMATCH;
  const [start, end] = span as unknown[];
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return MISMATCH;
  const s = start as number;
  const e = end as number;
  if (s < 0 || e > bytes.length || e - s < 4 || bytes[s] !== 0x22) return MISMATCH;
  let parsed: unknown;
  try {
    parsed = JSON.parse(`{${utf8Text(bytes, s, e)}}`);
  } catch {
    return MISMATCH;
  }
  const keys = Object.keys(parsed as object);
  if (keys.length !== 1 || keys[0] !== name) return MISMATCH;
  const needle = quoted(name);
  // The slice starts with the name written literally (no backslash in the bytes).
  if (!bytes.subarray(s, s + needle.length).equals(needle)) return MISMATCH;
  let v = s + needle.length;
  while (isSpace(bytes[v])) v++;
  if (bytes[v] !== 0x3a) return MISMATCH;
  v++;
  while (isSpace(bytes[v])) v++;
  if (checkLater && memberFrom(bytes, needle, s + 1, bytes[v]!)) return MISMATCH;
  return (parsed as Record<string, unknown>)[name];
}

// The shapes of the members read alone: enough to tell a command, a family and a persona apart
// from each other and from the other members a name can have, and to fill their defaults.

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isName = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const names = (v: unknown) => Array.isArray(v) && v.every(isName);
const optional = (v: unknown, check: (v: unknown) => boolean) => v === undefined || check(v);
const onlyKeys = (v: Obj, allowed: readonly string[]) => Object.keys(v).every((k) => allowed.includes(k));
const isTier = (v: unknown) => typeof v === 'string' && (TIERS as readonly string[]).includes(v);
const isText = (v: unknown) => typeof v === 'string';

export function isCommandShape(v: unknown): boolean {
  return (
    isObject(v) &&
    onlyKeys(v, ['description', 'level', 'confirm', 'owner', 'tools', 'bash']) &&
    optional(v.description, isText) &&
    optional(v.level, isLevel) &&
    optional(v.confirm, isTier) &&
    optional(v.owner, isName) &&
    optional(v.tools, names) &&
    optional(v.bash, names)
  );
}

// A large policy has hundreds of families, all checked on every call: plain loops, few calls.
export function isFamilyShape(v: unknown): boolean {
  if (!isObject(v)) return false;
  const keys = Object.keys(v);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (key !== 'description' && key !== 'level' && key !== 'tools') return false;
  }
  const { description, tools } = v;
  if (!(description === undefined || typeof description === 'string') || !isLevel(v.level)) return false;
  if (tools === undefined) return true;
  if (!Array.isArray(tools)) return false;
  for (let i = 0; i < tools.length; i++) if (!isName(tools[i])) return false;
  return true;
}

function isFamiliesShape(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const name in v) if (!isFamilyShape(v[name])) return false;
  return true;
}

function isStageShape(v: unknown): boolean {
  return (
    isObject(v) &&
    onlyKeys(v, ['name', 'allowed_tools', 'side_effect_level', 'max_iterations', 'on_exit']) &&
    isName(v.name) &&
    optional(v.allowed_tools, names) &&
    optional(v.side_effect_level, isLevel) &&
    optional(v.max_iterations, (n) => Number.isInteger(n) && (n as number) > 0) &&
    optional(
      v.on_exit,
      (x) => isObject(x) && onlyKeys(x, ['on_complete', 'on_failure']) && optional(x.on_complete, isName) && optional(x.on_failure, isName),
    )
  );
}

export function isPersonaShape(v: unknown): boolean {
  return (
    isObject(v) &&
    onlyKeys(v, ['description', 'families', 'ceiling', 'agent_types', 'delegates', 'stages']) &&
    optional(v.description, isText) &&
    names(v.families) &&
    (v.families as unknown[]).length > 0 &&
    isLevel(v.ceiling) &&
    optional(v.agent_types, names) &&
    optional(v.delegates, names) &&
    optional(v.stages, (s) => Array.isArray(s) && s.every(isStageShape))
  );
}

const ROLES = ['writes', 'destroys', 'into', 'chdir', 'runs', 'reads'];
const OPERANDS = ['reads', 'writes', 'destroys', 'none'];

/** The shape `catalog.programs` validates to (schema.ts), for a program (`top`) or one of its subcommands. */
function isProgramShape(v: unknown, top: boolean): boolean {
  if (
    !isObject(v) ||
    !onlyKeys(
      v,
      top
        ? ['description', 'level', 'options', 'operands', 'subcommands', 'persistent', 'closed']
        : ['description', 'level', 'options', 'operands', 'subcommands'],
    )
  )
    return false;
  return (
    optional(v.description, (d) => typeof d === 'string') &&
    optional(v.level, isLevel) &&
    optional(v.operands, (o) => OPERANDS.includes(o as string)) &&
    optional(v.persistent, (p) => typeof p === 'boolean') &&
    optional(v.closed, (c) => typeof c === 'boolean') &&
    optional(
      v.options,
      (os) =>
        Array.isArray(os) &&
        os.every(
          (o) =>
            isObject(o) &&
            onlyKeys(o, ['names', 'arg', 'role', 'level']) &&
            names(o.names) &&
            optional(o.arg, (a) => a === 'none' || a === 'required' || a === 'optional') &&
            optional(o.role, (r) => ROLES.includes(r as string)) &&
            optional(o.level, isLevel),
        ),
    ) &&
    optional(v.subcommands, (subs) => isObject(subs) && Object.values(subs).every((sub) => isProgramShape(sub, false)))
  );
}

const SETTING_SHAPES: Record<SettingName, (v: unknown) => boolean> = {
  include: (v) => Array.isArray(v) && v.every((x) => x === 'claude-code'),
  families: isFamiliesShape,
  meta_tools: (v) => isObject(v) && Object.values(v).every(isName),
  programs: (v) => isObject(v) && Object.values(v).every((p) => isProgramShape(p, true)),
  identity: (v) =>
    isObject(v) &&
    onlyKeys(v, ['reads', 'switches', 'label', 'profile_state']) &&
    optional(v.reads, names) &&
    optional(v.switches, names) &&
    optional(
      v.profile_state,
      (p) =>
        isObject(p) &&
        (onlyKeys(p, ['file'])
          ? isName(p.file)
          : onlyKeys(p, ['command', 'path']) && names(p.command) && (p.command as unknown[]).length > 0 && optional(p.path, isName)),
    ) &&
    optional(
      v.label,
      (l) =>
        isObject(l) &&
        (l.from === 'response'
          ? onlyKeys(l, ['from', 'path']) && isName(l.path)
          : l.from === 'env' && onlyKeys(l, ['from', 'name']) && isName(l.name)),
    ),
  defaults: (v) =>
    isObject(v) &&
    onlyKeys(v, ['confirm', 'unknown_tools', 'on_pass']) &&
    optional(
      v.confirm,
      (c) => isObject(c) && Object.entries(c).every(([k, t]) => (LEVELS as readonly string[]).includes(k) && isTier(t)),
    ) &&
    optional(v.unknown_tools, (u) => u === 'allow' || u === 'ask' || u === 'deny') &&
    optional(v.on_pass, (p) => p === 'abstain' || p === 'allow'),
  persona_env: isName,
  stage_env: isName,
  locale: (v) => v === 'en' || v === 'es',
};

export function isSettingShape(name: SettingName, v: unknown): boolean {
  return SETTING_SHAPES[name](v);
}

/** The value's first byte for each setting, to find its members in the bytes. */
export const SETTING_OPEN: Record<SettingName, number> = {
  include: 0x5b,
  families: 0x7b,
  meta_tools: 0x7b,
  programs: 0x7b,
  identity: 0x7b,
  defaults: 0x7b,
  persona_env: 0x22,
  stage_env: 0x22,
  locale: 0x22,
};

const SETTING_MEMBER = new RegExp(`"(${SETTINGS.join('|')}|mcp)"[ \\t\\n\\r]*:[ \\t\\n\\r]*([[{"]?)`, 'g');

export interface SettingMembers {
  /** For each setting, where the last member of its name with a value of its kind starts, or -1. */
  last: Record<SettingName, number>;
  /** Whether a member named `mcp` occurs anywhere: the policy may take commands from the MCP lock. */
  mcp: boolean;
}

/**
 * For each setting, where the last member of its name with a value of its kind starts in the
 * bytes (the one JSON.parse keeps, if it is the setting at all), or -1, and whether any member is
 * named `mcp`: one pass over the bytes. (A native search per name costs more: the names' quotes
 * are JSON's commonest byte, and a search for a name without its quote still reads every byte,
 * once per name.)
 */
export function settingMembers(bytes: Buffer): SettingMembers {
  const last = Object.fromEntries(SETTINGS.map((name) => [name, -1])) as Record<SettingName, number>;
  let mcp = false;
  // latin1: one character per byte, so that positions in the text are positions in the bytes.
  const text = latin1Text(bytes);
  SETTING_MEMBER.lastIndex = 0;
  for (let m = SETTING_MEMBER.exec(text); m !== null; m = SETTING_MEMBER.exec(text)) {
    if (m[1] === 'mcp') {
      mcp = true;
      continue;
    }
    const name = m[1] as SettingName;
    if (m[2]!.charCodeAt(0) === SETTING_OPEN[name]) last[name] = m.index;
  }
  return { last, mcp };
}

/** The member names the schema itself uses: a persona of such a name is read from the whole policy. */
export const SCHEMA_KEYS: ReadonlySet<string> = new Set([
  '$schema',
  'version',
  'catalog',
  'include',
  'families',
  'commands',
  'meta_tools',
  'programs',
  'personas',
  'identity',
  'defaults',
  'persona_env',
  'stage_env',
  'locale',
  'options',
  'names',
  'arg',
  'role',
  'operands',
  'subcommands',
  'persistent',
  'closed',
  'description',
  'level',
  'tools',
  'confirm',
  'owner',
  'bash',
  'ceiling',
  'agent_types',
  'delegates',
  'stages',
  'name',
  'allowed_tools',
  'side_effect_level',
  'max_iterations',
  'on_exit',
  'on_complete',
  'on_failure',
  'reads',
  'switches',
  'label',
  'from',
  'path',
  'unknown_tools',
  'on_pass',
  ...LEVELS,
]);
