import type { Classified, Effect, NamedReader, ReaderContext } from '../../read/classify';
import type { Word } from '../../syntax/word';
import { modeUsed, parentOf, reads, word } from '../readers';

/**
 * What the data cannot say of macOS's own programs: forms chosen by an option (`pmset -g`), by an
 * operand's spelling (`sysctl name=value`), and files written next to the input (`textutil -convert`).
 */

const valueOfMode = (ctx: ReaderContext, mode: string): Word | undefined =>
  ctx.parsed.used.find((u) => u.option.data?.mode === mode && u.value !== undefined)?.value;

const changesSystem = (ctx: ReaderContext): Classified => ({ ...ctx.base, level: 'process_exec', kind: 'exec', effects: [] });

/** Writes these paths (on top of what the options already wrote). */
function writes(ctx: ReaderContext, more: Effect[]): Classified {
  const effects = [...ctx.base.effects, ...more];
  if (effects.length === 0) return ctx.base;
  return {
    ...ctx.base,
    level: ctx.base.level === 'read_only' || ctx.base.level === 'none' ? 'workspace_write' : ctx.base.level,
    kind: 'writer',
    effects,
  };
}

/** `-` and the like: the standard output, not a file. */
const isStdout = (w: Word | undefined) => w !== undefined && !w.dynamic && /^(-|:-|\/dev\/stdout|stdout|stdout-xml)$/.test(w.text);

/**
 * A program that changes the system unless an option of mode `reads` says it only prints
 * (`pmset -g`, `mdimport -L`): its spec's level is the changing one.
 */
const readsByOption: NamedReader = (ctx) => {
  if (ctx.base.effects.length > 0 || !modeUsed(ctx, 'reads')) return ctx.base;
  if (ctx.parsed.used.some((u) => u.option.data?.level !== undefined)) return ctx.base;
  return reads(ctx);
};

/** sysctl: an operand `name=value` sets a kernel variable. */
const sysctl: NamedReader = (ctx) => (ctx.parsed.operands.some((w) => w.text.includes('=') || w.dynamic) ? changesSystem(ctx) : ctx.base);

/** dscl, scutil: a command given as an option (`-read`, `--get`); without one they take commands at a terminal. */
const commandsByOption: NamedReader = (ctx) => {
  if (ctx.parsed.used.some((u) => u.option.data?.mode === 'reads' || u.option.data?.level !== undefined)) return ctx.base;
  // dscl takes its command without the dash too, after the data source (`dscl . read /Users/x`)
  const command = ctx.name === 'dscl' ? ctx.parsed.operands[1] : undefined;
  if (command && !command.dynamic && !command.pattern) {
    if (DSCL_READS.has(command.text.toLowerCase())) return ctx.base;
    if (DSCL_CHANGES.has(command.text.toLowerCase())) return changesSystem(ctx);
  }
  return { ...changesSystem(ctx), opaque: { id: 'takes_commands_at_terminal', subject: ctx.name } };
};

const DSCL_READS = new Set(['read', 'readall', 'readpl', 'readpli', 'list', 'search', 'diff', 'cat', 'ls']);
const DSCL_CHANGES = new Set(
  'create createpl createpli append appendpl appendpli merge mergepl mergepli delete deletepl deletepli change changei passwd'.split(' '),
);

/**
 * plutil: `-convert`, `-insert`, `-replace`, `-remove`, `-extract` and `-create` (mode `edits`)
 * rewrite each file operand in place, unless `-o` names another file (or `-`, standard output); with `-e`
 * the output is the operand with another extension, beside it.
 */
const plutil: NamedReader = (ctx) => {
  if (!modeUsed(ctx, 'edits')) return ctx.base;
  const out = valueOfMode(ctx, 'output');
  if (out !== undefined) return isStdout(out) ? ctx.base : writes(ctx, [{ path: out, effect: 'write' }]);
  // the edit's own words (a key path, a format, a value) stand among the files: each may be one
  const files = ctx.parsed.operands;
  if (modeUsed(ctx, 'extension'))
    return writes(
      ctx,
      files.map((p) => ({ path: word(parentOf(p.text), p), effect: 'into' })),
    );
  return writes(
    ctx,
    files.map((path) => ({ path, effect: 'destroy' })),
  );
};

/** xattr: `-w NAME VALUE FILE…`, `-d NAME FILE…` and `-c FILE…` change the files' attributes. */
const xattr: NamedReader = (ctx) => {
  const ops = ctx.parsed.operands;
  let changed: Word[] = [];
  if (modeUsed(ctx, 'write')) changed = ops.slice(2);
  else if (modeUsed(ctx, 'delete')) changed = ops.slice(1);
  else if (modeUsed(ctx, 'clear')) changed = ops;
  else return ctx.base;
  return writes(
    ctx,
    (changed.length > 0 ? changed : ops).map((path) => ({ path, effect: 'destroy' })),
  );
};

/** sips: an option of mode `edits` rewrites each image in place, unless `--out` names where it goes. */
const sips: NamedReader = (ctx) => {
  if (!modeUsed(ctx, 'edits') || ctx.base.effects.some((e) => e.effect === 'write')) return ctx.base;
  // the operands include the edits' values (`-Z 640 a.png`): each may be an image it rewrites
  return writes(
    ctx,
    ctx.parsed.operands.map((path) => ({ path, effect: 'destroy' })),
  );
};

/**
 * textutil: `-info` reads; `-convert FMT` and `-cat FMT` write `-output FILE`, or standard output
 * with `-stdout`, or else a file beside each input (`a.rtf` → `a.html`; `-cat`: `out.FMT` here).
 */
const textutil: NamedReader = (ctx) => {
  if (!modeUsed(ctx, 'converts') && !modeUsed(ctx, 'concatenates')) return ctx.base;
  if (modeUsed(ctx, 'stdout')) return ctx.base;
  if (ctx.base.effects.length > 0) return ctx.base;
  // -cat writes one file, out.FMT, in the working directory
  if (modeUsed(ctx, 'concatenates')) return writes(ctx, [{ path: word('.'), effect: 'into' }]);
  return writes(
    ctx,
    ctx.parsed.operands.map((p) => ({ path: word(parentOf(p.text), p), effect: 'into' })),
  );
};

/**
 * codesign: signing (`-s`) and `--remove-signature` rewrite each operand (or write the detached
 * signature `-D` names); in display mode `--entitlements FILE`, `-r FILE` and
 * `--extract-certificates` write files (`-`, `:-` are standard output), while signing reads
 * `--entitlements` and `-r` as input.
 */
const codesign: NamedReader = (ctx) => {
  const ops = ctx.parsed.operands;
  const detached = valueOfMode(ctx, 'detached');
  if (modeUsed(ctx, 'signs')) {
    // a detached signature goes to the file -D names; otherwise each operand is rewritten
    if (detached !== undefined) return writes(ctx, [{ path: detached, effect: 'write' }]);
    return writes(
      ctx,
      ops.map((path) => ({ path, effect: 'destroy' })),
    );
  }
  const more: Effect[] = [];
  for (const value of [valueOfMode(ctx, 'entitlements'), valueOfMode(ctx, 'requirements')])
    if (value !== undefined && !isStdout(value)) more.push({ path: value, effect: 'write' });
  if (modeUsed(ctx, 'certificates')) more.push({ path: word('.'), effect: 'into' });
  return writes(ctx, more);
};

/** profiles: `-o`/`-output` writes a file unless it is `stdout` or `stdout-xml`. */
const profiles: NamedReader = (ctx) => {
  const out = valueOfMode(ctx, 'output');
  if (out === undefined || isStdout(out)) return ctx.base;
  return writes(ctx, [{ path: out, effect: 'write' }]);
};

/** pkgutil: `--expand PKG DIR` writes the directory; `--flatten DIR PKG` writes the package. */
const pkgutil: NamedReader = (ctx) => {
  const second = ctx.parsed.operands[1];
  if (modeUsed(ctx, 'bom')) return writes(ctx, [{ path: word('/tmp'), effect: 'into' }]);
  if (modeUsed(ctx, 'expands')) return second ? writes(ctx, [{ path: second, effect: 'into' }]) : changesSystem(ctx);
  if (modeUsed(ctx, 'flattens')) return second ? writes(ctx, [{ path: second, effect: 'write' }]) : changesSystem(ctx);
  return ctx.base;
};

/** defaults export DOMAIN PATH: the path is written, unless it is `-`. */
const defaultsExport: NamedReader = (ctx) => {
  const path = ctx.parsed.operands[1];
  if (path === undefined || isStdout(path)) return ctx.base;
  return writes(ctx, [{ path, effect: 'write' }]);
};

/** sample: its report goes to the file `-file` names, else to a file of its naming in /tmp. */
const sample: NamedReader = (ctx) =>
  ctx.base.effects.length > 0 || ctx.parsed.operands.length === 0 ? ctx.base : writes(ctx, [{ path: word('/tmp'), effect: 'into' }]);

export const MACOS_READERS: Readonly<Record<string, NamedReader>> = {
  __proto__: null as never,
  'reads-by-option': readsByOption,
  sysctl,
  'commands-by-option': commandsByOption,
  plutil,
  xattr,
  sips,
  textutil,
  codesign,
  profiles,
  pkgutil,
  'defaults-export': defaultsExport,
  sample,
};
