import { hasOption, valuesOf } from '../getopt';
import type { Classified, Effect, NamedReader, ReaderContext } from '../read/classify';
import type { Word } from '../syntax/word';
import { awkReader } from './readers/awk';
import { findReader } from './readers/find';
import { bindRuns } from './readers/fzf';
import { gitReader } from './readers/git';
import { mailReader } from './readers/mail';
import { MACOS_READERS } from './readers/macos';
import { sedReader } from './readers/sed';

/**
 * The code of the registry: what data cannot say about a program, given its parsed arguments.
 * Each reader starts from what the data alone says (`ctx.base`) and returns the classification.
 */

export const word = (text: string, like?: Word): Word => ({
  text,
  dynamic: like?.dynamic ?? false,
  pattern: like?.pattern ?? false,
  quoted: like?.quoted ?? false,
  ansi: false,
});

export function baseName(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? path : path.slice(slash + 1);
}

export function joinPath(dir: string, name: string): string {
  if (name === '' || name === '.') return dir;
  return dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`;
}

export function parentOf(path: string): string {
  const slash = path.replace(/\/+$/, '').lastIndexOf('/');
  if (slash === -1) return '.';
  return slash === 0 ? '/' : path.slice(0, slash);
}

/** The name a copy of `source` gets inside a directory: '' for "its contents" (`src/`, `src/.`). */
function copiedName(source: string): string {
  if (source.endsWith('/') || source.endsWith('/.') || source === '.') return '';
  return baseName(source);
}

const isAbsoluteOrHome = (p: string) => p.startsWith('/') || p === '~' || p.startsWith('~/');

/** The invocation only reads: read_only, writing nothing. */
export const reads = (ctx: ReaderContext): Classified => ({ ...ctx.base, level: 'read_only', kind: 'reader', effects: [] });

export function writer(ctx: ReaderContext, effects: Effect[], readsWithout = false): Classified {
  if (effects.length === 0 && readsWithout) return reads(ctx);
  return {
    ...ctx.base,
    level: ctx.base.level === 'network' ? 'network' : 'workspace_write',
    kind: ctx.base.kind === 'network' ? 'network' : 'writer',
    effects,
  };
}

/** Whether an option of this mode (the spec's `data.mode`) is given. */
export const modeUsed = (ctx: ReaderContext, mode: string): boolean => ctx.parsed.used.some((u) => u.option.data?.mode === mode);

export const opaque = (ctx: ReaderContext, id: NonNullable<Classified['opaque']>['id'], subject = ctx.name): Classified => ({
  ...ctx.base,
  level: ctx.base.level === 'network' ? 'network' : 'process_exec',
  kind: ctx.base.level === 'network' ? 'network' : 'exec',
  opaque: { id, subject },
  effects: [],
});

/** cp, mv, ln and install: the last operand (or `-t DIR`) receives the others. */
function transfer(rule: 'copy' | 'move' | 'link'): NamedReader {
  return (ctx) => {
    const { parsed } = ctx;
    const effects: Effect[] = [];
    const targetDir = parsed.used.find((u) => u.option.data?.role === 'target' && u.value)?.value;
    const suffixes = valuesOf(parsed, '-S', '--suffix');
    const backupSuffix = hasOption(parsed, '-b', '--backup') || suffixes.length > 0 ? (suffixes[0]?.text ?? '~') : null;
    // cp -l / -s makes links to its sources, which a later command in the line may write through
    const linksSources = rule === 'copy' && hasOption(parsed, '-l', '-s', '--link', '--symbolic-link');
    const symbolic = rule === 'link' && hasOption(parsed, '-s', '--symbolic');
    if (ctx.name === 'install' && hasOption(parsed, '-d', '--directory'))
      return writer(
        ctx,
        parsed.operands.map((path) => ({ path, effect: 'write' })),
      );
    const ops = parsed.operands;
    let sources: Word[];
    let dest: Word | undefined;
    if (targetDir) {
      sources = ops;
      dest = targetDir;
    } else if (ops.length >= 2) {
      sources = ops.slice(0, -1);
      dest = ops[ops.length - 1];
    } else if (rule === 'link' && ops.length === 1) {
      sources = ops;
      dest = word('.');
    } else {
      sources = ops;
      dest = undefined;
    }
    if (dest) {
      effects.push({ path: dest, effect: 'write' }, { path: dest, effect: 'into' });
      // a directory's contents copied (`templates/.`) land beneath the destination under names the line does not give
      for (const source of sources)
        effects.push({
          path: word(joinPath(dest.text, copiedName(source.text)), dest),
          effect: contentsOf(source.text) ? 'beneath' : 'destroy',
        });
      // a backup of what is replaced lands beside it, under the suffix given (`-b -S .json`)
      if (backupSuffix !== null) {
        effects.push({ path: word(`${dest.text}${backupSuffix}`, dest), effect: 'write' });
        for (const source of sources)
          effects.push({ path: word(`${joinPath(dest.text, copiedName(source.text))}${backupSuffix}`, dest), effect: 'write' });
      }
    }
    for (const source of sources) {
      if (rule === 'move') effects.push({ path: source, effect: 'destroy' });
      if (linksSources) effects.push({ path: source, effect: 'link' });
      if (rule === 'link') {
        // a symbolic link's target is relative to the link's directory; a hard link's to the cwd
        const linkDir = dest && !targetDir && sources.length === 1 && !dest.text.endsWith('/') ? parentOf(dest.text) : (dest?.text ?? '.');
        const target = symbolic && !isAbsoluteOrHome(source.text) ? joinPath(linkDir, source.text) : source.text;
        effects.push({ path: word(target, source), effect: 'link' });
      }
    }
    return writer(ctx, effects);
  };
}

/** A chmod mode written as an option (`chmod -w f`, `chmod -R -x,u+r f`). */
const MODE_OPTION = /^-[rwxXstugoa0-7]+([,+=-][rwxXstugoa0-7]*)*$/;

/** chmod, chown, chgrp: the first operand is the mode or owner (unless given by --reference or as an option); the rest are changed. */
const mode: NamedReader = (ctx) => {
  const { parsed } = ctx;
  const modeGiven =
    parsed.used.some((u) => u.option.data?.mode === 'reference') ||
    (ctx.name === 'chmod' && parsed.unknown.some((u) => MODE_OPTION.test(u.text)));
  const changed = modeGiven ? parsed.operands : parsed.operands.slice(1);
  return writer(
    ctx,
    changed.map((path) => ({ path, effect: 'destroy' })),
  );
};

/** chattr: `+i`/`-i` modes stand among the operands; every operand may be a file it changes. */
const attributes: NamedReader = (ctx) =>
  writer(
    ctx,
    ctx.parsed.operands.map((path) => ({ path, effect: 'destroy' })),
  );

/** dd writes `of=FILE`; without one it writes its standard output, unless an operand known only at run time may be one. */
const dd: NamedReader = (ctx) => {
  const ops = ctx.parsed.operands;
  const outputs = ops.filter((w) => w.text.startsWith('of='));
  const mayBeOutput = ops.some((w) => (w.dynamic || w.pattern) && !/^(if|bs|ibs|obs|cbs|count|skip|iseek|conv|iflag|status)=/.test(w.text));
  if (outputs.length === 0 && !mayBeOutput) return reads(ctx);
  return writer(
    ctx,
    outputs.map((w) => ({ path: word(w.text.slice(3), w), effect: 'write' })),
  );
};

/** Signal 0, by number or name: it tests that the process exists and sends nothing. */
const SIGNAL_ZERO = /^(0|SIG0|ZERO)$/i;

/** A signal sender: its options that list the signals, and those whose value is a signal. Signal 0 tests a process; any other stops or changes one. */
const signals =
  (lists: readonly string[], signalOptions: readonly string[]): NamedReader =>
  (ctx) => {
    const p = ctx.parsed;
    if (hasOption(p, ...lists)) return { ...ctx.base, level: 'none', kind: 'builtin' };
    const given = [...valuesOf(p, ...signalOptions), ...valuesOf(p, '-NUM', '-WORD')];
    const named = p.unknown.map((u) => u.text.slice(1));
    const all = [...given.map((w) => (w.dynamic ? '?' : w.text)), ...named];
    if (all.length > 0 && all.every((s) => SIGNAL_ZERO.test(s))) return reads(ctx);
    return { ...ctx.base, level: 'process_exec', kind: 'exec', reason: { id: 'signals_processes', subject: ctx.name } };
  };

/** kill: -l and --table list the signals. */
const kill = signals(['-l', '--list', '-L', '--table'], ['-s', '-n', '--signal']);
/** killall: -l lists them; its -n is a namespace. */
const killall = signals(['-l', '--list'], ['-s', '--signal']);
/** pkill: it lists none; its -s is a session. */
const pkill = signals([], ['--signal']);

/** GNU tar's short options that take a value, in the old style (`tar cf a.tar`) as well. */
const TAR_VALUE_LETTERS = 'bCfFgHIKLNTVX';

/** tar: its mode (create, extract, list), where it writes, and what it runs. */
const tar: NamedReader = (ctx) => {
  const words = tarWords(ctx);
  const mode = new Set<string>();
  const dirs: Word[] = [];
  const archives: Word[] = [];
  let runs = false;
  let removeFiles = false;
  let filesFrom = false;
  let absolute = false;
  const ops: Word[] = [];
  for (let k = 0; k < words.length; k++) {
    const t = words[k]!.text;
    if (t === '--') {
      ops.push(...words.slice(k + 1));
      break;
    }
    if (t.startsWith('--')) {
      const eq = t.indexOf('=');
      const name = eq === -1 ? t : t.slice(0, eq);
      const value = eq === -1 ? undefined : word(t.slice(eq + 1), words[k]);
      const is = (...full: string[]) => full.some((f) => f.startsWith(name) && name.length > 2);
      const takeValue = () => value ?? words[++k];
      if (is('--extract', '--get')) mode.add('x');
      else if (is('--create', '--append', '--update', '--concatenate', '--delete')) mode.add('c');
      else if (is('--list', '--diff', '--compare')) mode.add('t');
      if (is('--to-command', '--use-compress-program', '--checkpoint-action', '--info-script', '--new-volume-script', '--rsh-command'))
        runs = true;
      else if (is('--absolute-names')) absolute = true;
      else if (is('--remove-files')) removeFiles = true;
      else if (is('--files-from')) {
        filesFrom = true;
        takeValue();
      } else if (is('--directory')) {
        const v = takeValue();
        if (v) dirs.push(v);
      } else if (is('--file', '--index-file', '--volno-file')) {
        const v = takeValue();
        if (v) archives.push(v);
        if (is('--index-file')) mode.add('c');
      }
      continue;
    }
    if (t.startsWith('-') && t.length > 1) {
      for (let c = 1; c < t.length; c++) {
        const letter = t[c]!;
        mode.add(letter);
        if (!TAR_VALUE_LETTERS.includes(letter)) continue;
        const value = c + 1 < t.length ? word(t.slice(c + 1), words[k]) : words[++k];
        if (letter === 'f' && value) archives.push(value);
        if (letter === 'C' && value) dirs.push(value);
        if (letter === 'I' || letter === 'F') runs = true;
        if (letter === 'T') filesFrom = true;
        break;
      }
      continue;
    }
    ops.push(words[k]!);
  }
  if (runs) return opaque(ctx, 'tar_runs_program');
  if (mode.has('x')) {
    // -P keeps the members' absolute and ../ names: they are written wherever they point
    if (mode.has('P') || absolute) return opaque(ctx, 'tar_absolute_names');
    return writer(
      ctx,
      (dirs.length > 0 ? dirs : [word('.')]).map((path) => ({ path, effect: 'beneath' })),
    );
  }
  if (mode.has('c') || mode.has('r') || mode.has('u') || mode.has('A')) {
    const effects: Effect[] = archives.map((path) => ({ path, effect: 'write' }));
    if (removeFiles) {
      // the files archived are removed; names read from a list, or relative to -C, are not in the line
      if (dirs.length > 0 || filesFrom) return opaque(ctx, 'tar_removes_listed');
      for (const p of ops) effects.push({ path: p, effect: 'destroy' });
    }
    return writer(ctx, effects);
  }
  return reads(ctx);
};

/** A source that names a directory's contents, not the directory: `dir/.`, `dir/./`. */
function contentsOf(source: string): boolean {
  return /(^|\/)\.\/*$/.test(source);
}

/** tar's words with an old-style first word (`tar cvfC a.tar dir`) written out as options. */
function tarWords(ctx: ReaderContext): readonly Word[] {
  const words = originalWords(ctx);
  const first = words[0];
  if (!first || first.text.startsWith('-') || first.text === '') return words;
  const out: Word[] = [];
  let next = 1;
  for (const letter of first.text) {
    out.push(word(`-${letter}`, first));
    if (TAR_VALUE_LETTERS.includes(letter) && words[next]) out.push(words[next++]!);
  }
  return [...out, ...words.slice(next)];
}

/** The words the command was given after its subcommands, in order (for programs with a grammar of their own). */
export function originalWords(ctx: ReaderContext): readonly Word[] {
  return ctx.words;
}

/** unzip: a listing or members to standard output, or an extraction into the current directory (or -d DIR). */
const unzip: NamedReader = (ctx) => {
  const words = originalWords(ctx);
  const xAt = words.findIndex((w) => w.text === '-x');
  const options = (xAt === -1 ? words : words.slice(0, xAt)).filter((w) => w.text.startsWith('-') && w.text.length > 1);
  // listing, testing, the comment or members to standard output (c, p; -d is then ignored): a flag
  // cluster with l, v, t, Z, z, c or p, not a -d or -P with its value attached (`-ddist`)
  // (a `-` before a letter inside an option negates it, `--c` turning -c off: then it may extract after all)
  const negates = options.some((w) => w.text.indexOf('-', 1) !== -1);
  if (!negates && options.some((w) => /^-[a-zA-Z]+$/.test(w.text) && !/^-[dP]/.test(w.text) && /[lvtZzcp]/.test(w.text))) return reads(ctx);
  // -: keeps the members' ../ names: they are written wherever they point
  if (options.some((w) => /^-[^-]*:/.test(w.text))) return opaque(ctx, 'unzip_parent_names');
  const into: Word[] = [];
  for (let k = 0; k < words.length; k++) {
    const t = words[k]!.text;
    if (t === '-d' && words[k + 1]) into.push(words[k + 1]!);
    else if (t.startsWith('-d') && t.length > 2 && !t.startsWith('--')) into.push(word(t.slice(2), words[k]));
  }
  return writer(
    ctx,
    (into.length > 0 ? into : [word('.')]).map((path) => ({ path, effect: 'beneath' })),
  );
};

/** 7z's commands that only read: list, test, hash, info, benchmark. */
const SEVEN_ZIP_READS = new Set(['l', 't', 'h', 'i', 'b']);
/** 7z's commands that make or change the archive: add, update, delete, rename. */
const SEVEN_ZIP_CHANGES = new Set(['a', 'u', 'd', 'rn']);

/**
 * 7z: its command is the first word that is not a switch. `l`, `t`, `h`, `i` and `b` read (as
 * does no command: the help); `x` and `e` extract into the current directory, or into -oDIR, or
 * with -so to standard output; `a`, `u`, `d` and `rn` write the archive (to which 7z may add `.7z`,
 * `.001` for volumes, and a temporary file beside it or in -wDIR), or with -so only standard
 * output; `a -sdel` removes the files it added. -spf keeps absolute names.
 */
const sevenZip: NamedReader = (ctx) => {
  const words = originalWords(ctx);
  if (words.some((w) => w.text.startsWith('-spf'))) return opaque(ctx, 'sevenzip_absolute_names');
  const at = words.findIndex((w) => !w.text.startsWith('-'));
  if (words.some((w, k) => (w.dynamic || w.pattern) && (k <= at || at === -1) && !w.text.startsWith('-')))
    return opaque(ctx, 'subcommand_at_run_time');
  const readsOnly: Classified = {
    ...ctx.base,
    level: 'read_only',
    kind: 'reader',
    effects: [],
    reason: { id: 'reads', subject: ctx.name },
  };
  if (words.some((w) => w.text === '--') && (at === -1 || words.findIndex((w) => w.text === '--') < at))
    return opaque(ctx, 'unknown_subcommand');
  if (at === -1) return readsOnly;
  const command = words[at]!.text.toLowerCase();
  const switches = words.filter((w) => w.text.startsWith('-') && w.text.length > 1);
  const operands = words.slice(at + 1).filter((w) => !w.text.startsWith('-') || w.text === '-');
  const toStdout = switches.some((w) => w.text === '-so');
  if (SEVEN_ZIP_READS.has(command)) return readsOnly;
  if (command === 'x' || command === 'e') {
    if (toStdout) return readsOnly;
    // `-o*` names a directory after the archive (`-o/srv/*`: /srv/a for a.7z): beneath the directory that holds it
    const into = switches
      .filter((w) => w.text.startsWith('-o') && w.text.length > 2)
      .map((w) => word(w.text.includes('*') ? parentOf(w.text.slice(2)) : w.text.slice(2), w));
    return writer(
      ctx,
      (into.length > 0 ? into : [word('.')]).map((path) => ({ path, effect: 'beneath' })),
    );
  }
  if (SEVEN_ZIP_CHANGES.has(command)) {
    const effects: Effect[] = [];
    const archive = operands[0];
    if (archive && !toStdout)
      effects.push({ path: archive, effect: 'write' }, { path: word(`${archive.text}*`, { ...archive, pattern: true }), effect: 'write' });
    for (const w of switches)
      if (w.text.startsWith('-w') && w.text.length > 2) effects.push({ path: word(w.text.slice(2), w), effect: 'into' });
    if (command === 'a' && switches.some((w) => w.text === '-sdel'))
      for (const path of operands.slice(1)) effects.push({ path, effect: 'destroy' });
    if (!archive && !toStdout) return opaque(ctx, 'unknown_subcommand');
    return effects.length === 0 ? readsOnly : writer(ctx, effects);
  }
  return { ...opaque(ctx, 'unknown_subcommand'), opaque: { id: 'unknown_subcommand', subject: ctx.name, detail: words[at]!.text } };
};

/** patch: the file it patches (or -o FILE), its reject file and backups, or every file under -d DIR. */
const patch: NamedReader = (ctx) => {
  const { parsed } = ctx;
  if (hasOption(parsed, '--dry-run')) return reads(ctx);
  const ops = parsed.operands;
  const out = valuesOf(parsed, '-o', '--output');
  const own: Effect[] = valuesOf(parsed, '-r', '--reject-file').map((path) => ({ path, effect: 'write' }));
  const named = ops[0] && valuesOf(parsed, '-i', '--input').length === 0 ? ops[0] : undefined;
  if (named) {
    for (const suffix of valuesOf(parsed, '-z', '--suffix'))
      own.push({ path: word(`${named.text}${suffix.text}`, named), effect: 'write' });
    for (const prefix of valuesOf(parsed, '-B', '--prefix'))
      own.push({ path: word(`${prefix.text}${named.text}`, named), effect: 'write' });
    for (const prefix of valuesOf(parsed, '-Y', '--basename-prefix'))
      own.push({ path: word(joinPath(parentOf(named.text), `${prefix.text}${baseName(named.text)}`), named), effect: 'write' });
  }
  const dirs = [...valuesOf(parsed, '-d', '--directory'), word('.')];
  if (out.length > 0) return writer(ctx, [...out.map((path) => ({ path, effect: 'write' as const })), ...own]);
  if (named) return writer(ctx, [{ path: named, effect: 'write' }, ...own]);
  return writer(ctx, [...own, ...dirs.map((path) => ({ path, effect: 'beneath' as const }))]);
};

/** Suffixes the compressors add and take off. */
const SUFFIXES = ['.gz', '.z', '.Z', '.xz', '.bz2', '.zst', '.lz', '.lzma', '.tgz', '.txz', '.tbz2'];

/** gzip, bzip2, xz, zstd and their decompressors: each file replaced by one with a suffix added or taken off. */
const pack: NamedReader = (ctx) => {
  const { parsed } = ctx;
  if (hasOption(parsed, '--files', '--files0', '--filelist')) return opaque(ctx, 'reads_names_from_file');
  // zstd -o FILE writes FILE even with -c; --output-dir-* put the outputs in a directory
  const outputs: Effect[] =
    ctx.name === 'zstd'
      ? [
          ...valuesOf(parsed, '-o').map((path) => ({ path, effect: 'write' as const })),
          ...valuesOf(parsed, '--output-dir-flat', '--output-dir-mirror').map((path) => ({ path, effect: 'destroy' as const })),
        ]
      : [];
  // -N restores the name stored in the archive, in the operand's directory
  if (hasOption(parsed, '-N', '--name'))
    for (const path of parsed.operands) outputs.push({ path: word(parentOf(path.text), path), effect: 'destroy' });
  // with no file (or `-`) it reads its standard input and writes its standard output, as -c does
  const toStdout =
    hasOption(parsed, '-c', '--stdout', '--to-stdout', '-l', '--list', '-t', '--test') ||
    parsed.operands.every((o) => o.text === '-' && !o.dynamic && !o.pattern);
  if (outputs.length === 0 && toStdout) return reads(ctx);
  const suffixes = [...valuesOf(parsed, '-S', '--suffix').map((w) => w.text), ...SUFFIXES];
  const effects = outputs;
  for (const path of parsed.operands) {
    effects.push({ path, effect: 'destroy' });
    for (const suffix of suffixes) {
      effects.push({ path: word(`${path.text}${suffix}`, path), effect: 'write' });
      if (suffix !== '' && path.text.endsWith(suffix))
        effects.push({ path: word(path.text.slice(0, -suffix.length), path), effect: 'write' });
    }
  }
  return writer(ctx, effects);
};

/** split and csplit: pieces named by a prefix. */
const split: NamedReader = (ctx) => {
  const { parsed } = ctx;
  if (hasOption(parsed, '--filter')) return opaque(ctx, 'split_filter');
  const prefix = ctx.name === 'csplit' ? valuesOf(parsed, '-f', '--prefix')[0] : parsed.operands[1];
  return writer(ctx, [{ path: word(`${prefix?.text ?? 'x'}*`, { ...(prefix ?? word('')), pattern: true }), effect: 'write' }]);
};

/** The last part of a URL's path: the name `curl -O` and wget give the file. */
function urlName(url: string): string {
  const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').replace(/[?#].*$/, '');
  return baseName(path);
}

const isUrl = (w: Word) => /^[a-z]+:\/\//i.test(w.text);

/** curl: the files its options name, and with -O the names the URLs give, in --output-dir. */
const curl: NamedReader = (ctx) => {
  const effects = ctx.base.effects.filter((e) => e.path.text !== '-');
  if (modeUsed(ctx, 'remote-name')) {
    const dir = valuesOf(ctx.parsed, '--output-dir')[0] ?? word('.');
    effects.push({ path: dir, effect: 'into' });
    for (const url of ctx.parsed.operands)
      if (isUrl(url)) effects.push({ path: word(joinPath(dir.text, urlName(url.text)), url), effect: 'write' });
  }
  return { ...ctx.base, effects };
};

const DEFAULT_PORTS: Readonly<Record<string, string>> = { __proto__: null as never, http: '80', https: '443', ftp: '21' };

/**
 * The directory wget names after a URL's host when it keeps the site's directories (`-r`, `-m`,
 * `-p`, `-x`): the host in lower case, with its port unless it is the scheme's own
 * (`localhost:8080`); null when the line does not say it plainly (a word computed at run time, an
 * unusual host or scheme).
 */
function hostDirectory(url: Word): string | null {
  if (url.dynamic || url.pattern) return null;
  const m = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(?:[^/@?#]*@)?([^/?#:@]+)(?::(\d+))?(?:[/?#]|$)/i.exec(url.text);
  if (!m) return null;
  const scheme = (m[1] ?? 'http').toLowerCase();
  const defaultPort = DEFAULT_PORTS[scheme];
  const host = m[2]!.toLowerCase();
  if (defaultPort === undefined || !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(host)) return null;
  const port = m[3];
  return port === undefined || port === defaultPort ? host : `${host}:${port}`;
}

/**
 * wget: the document and logs it writes, or the files the URLs give in -P DIR. With -r, -m, -p or
 * -x it keeps the site's directories, under DIR/HOST for each URL; what names the directories
 * otherwise (-nd, -nH, -H's other hosts, --protocol-directories, --restrict-file-names, the URLs
 * of -i) makes it the whole of DIR.
 */
const wget: NamedReader = (ctx) => {
  const { parsed } = ctx;
  const effects = ctx.base.effects.filter((e) => e.path.text !== '-');
  if (valuesOf(parsed, '-O', '--output-document').length > 0) return { ...ctx.base, effects };
  const dir = valuesOf(parsed, '-P', '--directory-prefix')[0] ?? word('.');
  const urls = parsed.operands;
  if (modeUsed(ctx, 'tree') || modeUsed(ctx, 'host-directories')) {
    const other =
      modeUsed(ctx, 'names-directories') ||
      valuesOf(parsed, '-n').some((v) => v.dynamic || /[dH]/.test(v.text)) ||
      urls.length === 0 ||
      urls.some((u) => hostDirectory(u) === null);
    if (other) effects.push({ path: dir, effect: 'destroy' });
    else
      for (const url of urls)
        effects.push({ path: word(joinPath(dir.text, hostDirectory(url)!), { ...url, dynamic: dir.dynamic }), effect: 'destroy' });
    return { ...ctx.base, effects };
  }
  effects.push({ path: dir, effect: 'into' });
  for (const url of urls) if (isUrl(url)) effects.push({ path: word(joinPath(dir.text, urlName(url.text)), url), effect: 'write' });
  return { ...ctx.base, effects };
};

/** A program that makes each operand a directory and puts files of its own in it (`cargo new DIR`). */
const creates: NamedReader = (ctx) =>
  writer(ctx, [...ctx.base.effects, ...ctx.parsed.operands.map((path) => ({ path, effect: 'into' as const }))]);

/** tree: -R with -L runs tree again at each directory the level reaches, writing 00Tree.html there: below each root. */
const tree: NamedReader = (ctx) => {
  if (!modeUsed(ctx, 'rerun') || !hasOption(ctx.parsed, '-L')) return ctx.base;
  const roots = ctx.parsed.operands.length > 0 ? ctx.parsed.operands : [word('.')];
  return writer(ctx, [...ctx.base.effects, ...roots.map((path) => ({ path, effect: 'beneath' as const }))]);
};

/** scp and rsync: a local destination receives the sources; --remove-source-files removes them. */
const remoteCopy: NamedReader = (ctx) => {
  const ops = ctx.parsed.operands;
  const effects = [...ctx.base.effects];
  if (ops.length >= 2) {
    const dest = ops[ops.length - 1]!;
    if (!/^[^/]*:/.test(dest.text)) {
      effects.push({ path: dest, effect: 'write' }, { path: dest, effect: 'into' });
      for (const source of ops.slice(0, -1))
        effects.push({ path: word(joinPath(dest.text, copiedName(source.text)), dest), effect: 'destroy' });
    }
    if (modeUsed(ctx, 'remove-sources')) for (const source of ops.slice(0, -1)) effects.push({ path: source, effect: 'destroy' });
  }
  return { ...ctx.base, effects };
};

/** arch: with an operand or an option it runs a command (macOS), which the reader does not read through. */
const arch: NamedReader = (ctx) =>
  ctx.parsed.operands.length > 0 || ctx.parsed.used.length > 0 || ctx.parsed.unknown.length > 0
    ? opaque(ctx, 'runs_named_program')
    : ctx.base;

/** ifconfig shows an interface it is given alone; anything more after the name changes it (`ifconfig eth0 down`). */
const interfaceConfig: NamedReader = (ctx) =>
  ctx.parsed.operands.length <= 1 ? ctx.base : { ...ctx.base, level: 'process_exec', kind: 'exec' };

/** A value that turns a boolean option off (`-write=false`). */
const isOff = (value: Word | undefined) => value !== undefined && /^(false|0|f)$/i.test(value.text);

/**
 * A formatter: it rewrites its operands in place (a directory: the files beneath it; none: those
 * beneath the current directory), unless an option of mode `check` is on (`ruff format --check`,
 * `terraform fmt -check`) or one of mode `write` is off (`terraform fmt -write=false`).
 */
const formats: NamedReader = (ctx) => {
  const used = ctx.parsed.used;
  const reports =
    used.some((u) => u.option.data?.mode === 'check' && !isOff(u.value)) ||
    used.some((u) => u.option.data?.mode === 'write' && isOff(u.value));
  if (reports) return reads(ctx);
  const ops = ctx.parsed.operands;
  // rustfmt formats the modules a file names too, beside it
  const beside = ctx.name === 'rustfmt';
  return writer(
    ctx,
    (ops.length > 0 ? ops : [word('.')]).map((path) => ({ path: beside ? word(parentOf(path.text), path) : path, effect: 'beneath' })),
  );
};

/** The files ruff takes for Python, where no configuration says more. */
const RUFF_DEFAULT_INCLUDE = ['*.py', '*.pyi', '*.ipynb'];

/**
 * ruff format, and ruff check with --fix, --fix-only or --add-noqa (not --diff, nor format's
 * --check): each file named is rewritten whatever its name, and beneath each directory (none: the
 * current one) the files the configuration includes. That is *.py, *.pyi and *.ipynb only under
 * --isolated without --config; otherwise the project's pyproject.toml, ruff.toml or .ruff.toml (or
 * --config) may include any name (`extend-include = ["*.json"]` reformats JSON as Python): the
 * whole of each directory.
 */
const ruff: NamedReader = (ctx) => {
  const fixes = (ctx.path[0] === 'format' || modeUsed(ctx, 'fix')) && !modeUsed(ctx, 'check');
  if (!fixes) return ctx.base.effects.length > 0 ? writer(ctx, ctx.base.effects) : reads(ctx);
  const ops = ctx.parsed.operands.length > 0 ? ctx.parsed.operands : [word('.')];
  const defaults = modeUsed(ctx, 'isolated') && !hasOption(ctx.parsed, '--config');
  const effects: Effect[] = defaults
    ? ops.flatMap((p) => [
        { path: p, effect: 'write' as const },
        ...RUFF_DEFAULT_INCLUDE.map((name) => ({
          path: word(joinPath(joinPath(p.text, '**'), name), { ...p, pattern: true }),
          effect: 'write' as const,
        })),
      ])
    : ops.map((path) => ({ path, effect: 'beneath' as const }));
  return writer(ctx, [...ctx.base.effects, ...effects]);
};

/** yq's words before its expression (`yq eval EXPR FILE`). */
const YQ_COMMANDS = new Set(['eval', 'e', 'eval-all', 'ea']);

/**
 * A program that prints its result unless an option of mode `in-place` is on (`gofmt -w`,
 * `clang-format -i`, `yq -i`): then it rewrites its operands (a directory: the files beneath it).
 * yq's and jaq's first operand is their expression, unless one of mode `script` gives it.
 */
const rewrites: NamedReader = (ctx) => {
  if (!ctx.parsed.used.some((u) => u.option.data?.mode === 'in-place' && !isOff(u.value))) return ctx.base;
  let ops = ctx.parsed.operands;
  if (ctx.name === 'yq' && ops[0] && YQ_COMMANDS.has(ops[0].text)) ops = ops.slice(1);
  if ((ctx.name === 'yq' || ctx.name === 'jaq') && !modeUsed(ctx, 'script')) ops = ops.slice(1);
  return writer(
    ctx,
    ops.map((path) => ({ path, effect: 'beneath' })),
  );
};

/** The client's own commands, which run programs here or write files: psql's backslash commands, mysql's system, tee, pager, source. */
const CLIENT_COMMAND = /\\|\b(system|source|tee|pager|edit|nopager|notee)\b/i;

/**
 * psql and mysql: a client of a database server, network. Read only through command texts given
 * on the line (`-c`, `-e`, options of mode `sql`) free of the client's own commands; a script
 * (mode `script`), standard input or the terminal may hold any: opaque. A listing (mode `list`) reads.
 */
const sqlClient: NamedReader = (ctx) => {
  const used = ctx.parsed.used;
  if (used.some((u) => u.option.data?.mode === 'script')) return opaque(ctx, 'sql_client_commands');
  const texts = used.filter((u) => u.option.data?.mode === 'sql').map((u) => u.value);
  if (texts.length === 0) return used.some((u) => u.option.data?.mode === 'list') ? ctx.base : opaque(ctx, 'sql_client_commands');
  if (texts.some((t) => !t || t.dynamic || t.pattern || CLIENT_COMMAND.test(t.text))) return opaque(ctx, 'sql_client_commands');
  return ctx.base;
};

/**
 * Reads when an option of mode `reads` is given (`cargo metadata --no-deps`, `brew cleanup -n`);
 * otherwise it is opaque, for this reason.
 */
const readsWith =
  (reason: 'downloads_and_runs_scripts' | 'runs_project_scripts'): NamedReader =>
  (ctx) =>
    modeUsed(ctx, 'reads') ? { ...ctx.base, level: 'read_only', kind: 'reader' } : opaque(ctx, reason, [ctx.name, ...ctx.path].join(' '));

/** parallel read by its own spec (read/parallel.ts hands it over): --dry-run and the like only print. */
const parallel: NamedReader = (ctx) =>
  modeUsed(ctx, 'prints')
    ? { ...ctx.base, level: 'read_only', kind: 'reader', effects: [], reason: { id: 'prints_commands', subject: ctx.name } }
    : ctx.base;

/** cargo fmt: rewrites the package's sources, unless --check is given to it or, after `--`, to rustfmt. */
const cargoFmt: NamedReader = (ctx) =>
  modeUsed(ctx, 'check') || ctx.parsed.operands.some((o) => o.text === '--check')
    ? reads(ctx)
    : writer(ctx, [{ path: word('.'), effect: 'beneath' }]);

/**
 * poetry: a command that loads the project installs the plugins its pyproject.toml requires
 * (`[tool.poetry.requires-plugins]`) into .poetry/plugins and runs them, as it does any found
 * there: it reads only under --no-plugins, before or after the subcommand.
 */
const poetry: NamedReader = (ctx) =>
  [ctx.parsed, ...ctx.globals].some((p) => p.used.some((u) => u.option.data?.mode === 'no-plugins'))
    ? ctx.base
    : { ...opaque(ctx, 'downloads_and_runs_scripts', [ctx.name, ...ctx.path].join(' ')), level: 'network', kind: 'network' };

/** sqlite3's dot commands that only print the schema, the settings or help, or change how results print. */
const SQLITE_DOT_READS = new Set(
  'schema fullschema tables indexes indices databases dbinfo dump help show headers header mode width nullvalue separator print echo bail timer changes version stats eqp explain'.split(
    ' ',
  ),
);
/** Pragmas that only report; those in SQLITE_PRAGMA_ARG take the name of what they report on. */
const SQLITE_PRAGMA_READS = new Set(
  'table_info table_xinfo index_list index_info index_xinfo foreign_key_list foreign_key_check integrity_check quick_check database_list table_list compile_options collation_list function_list module_list pragma_list page_count page_size freelist_count user_version application_id schema_version data_version encoding journal_mode auto_vacuum'.split(
    ' ',
  ),
);
const SQLITE_PRAGMA_ARG = new Set(
  'table_info table_xinfo index_list index_info index_xinfo foreign_key_list foreign_key_check integrity_check quick_check'.split(' '),
);
/** Words that write (statements, ATTACH, VACUUM INTO) or that name the shell's functions over files and programs. */
const SQLITE_WRITES =
  /\b(insert|update|delete|create|drop|alter|attach|detach|vacuum|reindex|analyze|savepoint|release|edit|writefile|readfile|fsdir|zipfile|sqlar_\w*|load_extension|fts3_tokenizer)\b|\breplace\s+into\b/i;

/** A statement that only reports: an informational pragma, or (with `safe`, where views cannot run programs) a query. */
function sqliteStatementReads(statement: string, safe: boolean): boolean {
  const pragma = /^pragma\s+(?:\w+\.)?(\w+)\s*(\(\s*[\w'"]+\s*\))?$/i.exec(statement);
  if (pragma) return SQLITE_PRAGMA_READS.has(pragma[1]!.toLowerCase()) && (!pragma[2] || SQLITE_PRAGMA_ARG.has(pragma[1]!.toLowerCase()));
  if (/^pragma\b/i.test(statement)) return false;
  return /^(select|with|explain|values)\b/i.test(statement) && (safe || !/\bfrom\b/i.test(statement));
}

/**
 * sqlite3 FILE [COMMAND …]: each operand after the file is a dot command or SQL, run in order;
 * without one it reads standard input or the terminal (opaque). It reads when every command only
 * reports: a dot command that prints the schema or a setting, an informational pragma, or a
 * query. A query reaches the database's views, which can call edit() and so run a program, so it
 * reads only under -safe (which refuses edit(), writefile(), ATTACH and the dot commands that run
 * programs) or when it names no table (`SELECT sqlite_version()`). Opening a file that does not
 * exist creates it empty.
 */
const sqlite: NamedReader = (ctx) => {
  const used = ctx.parsed.used;
  if (used.some((u) => u.option.data?.mode === 'script')) return opaque(ctx, 'sql_client_commands');
  const ops = ctx.parsed.operands;
  if (ops.length < 2) return opaque(ctx, 'sql_client_commands');
  const safe = used.some((u) => u.option.data?.mode === 'safe');
  const commands = [...used.filter((u) => u.option.data?.mode === 'sql').map((u) => u.value), ...ops.slice(1)];
  for (const command of commands) {
    const read = sqlCommand(command, SQLITE_WRITES);
    if (read === 'dot') return opaque(ctx, 'sql_client_commands');
    if (read === 'sql' || !read.every((t) => sqliteStatementReads(t, safe))) return opaque(ctx, 'sqlite_query_may_run');
  }
  return { ...ctx.base, level: 'read_only', kind: 'reader' };
};

/**
 * One command given to a SQL client (sqlite3, duckdb): the statements of its SQL, none for a dot
 * command that only prints; `dot` for any other dot command, `sql` for SQL known only at run time,
 * that writes, or that has no statement.
 */
function sqlCommand(command: Word | undefined, writes: RegExp): string[] | 'dot' | 'sql' {
  if (!command || command.dynamic || command.pattern) return 'sql';
  const text = command.text.trim();
  if (text.startsWith('.')) return /[\n\r]/.test(text) || !SQLITE_DOT_READS.has(text.slice(1).split(/\s/)[0]!.toLowerCase()) ? 'dot' : [];
  if (writes.test(text)) return 'sql';
  const statements = text
    .split(';')
    .map((t) => t.trim())
    .filter(Boolean);
  return statements.length === 0 ? 'sql' : statements;
}

/** DuckDB's statements that write the database or files, install or load extensions, or change settings. */
const DUCKDB_WRITES =
  /\b(insert|update|delete|create|drop|alter|attach|detach|vacuum|copy|export|import|install|load|checkpoint|force|set|reset|use|truncate|merge|call)\b|\breplace\s+into\b/i;
const DUCKDB_PRAGMA_READS = new Set(
  'table_info show_tables show_tables_expanded database_size database_list version platform storage_info show functions collations'.split(
    ' ',
  ),
);

/** A DuckDB statement that only reports: a query, DESCRIBE, SHOW, SUMMARIZE, or an informational pragma. */
function duckdbStatementReads(statement: string): boolean {
  const pragma = /^pragma\s+(\w+)\s*(\(\s*[\w'"]+\s*\))?$/i.exec(statement);
  if (pragma) return DUCKDB_PRAGMA_READS.has(pragma[1]!.toLowerCase());
  return /^(select|with|explain|values|describe|show|summarize|from)\b/i.test(statement);
}

/**
 * duckdb FILE [COMMAND …], -c/-s COMMAND: read like sqlite3. A query can read any file or URL its
 * SQL or a view of the database names (read_csv, 's3://…'), loading the extensions that reads
 * need from DuckDB's repository: network, unless -safe (no access outside the database) makes it
 * read only.
 */
const duckdb: NamedReader = (ctx) => {
  const used = ctx.parsed.used;
  if (used.some((u) => u.option.data?.mode === 'script')) return opaque(ctx, 'sql_client_commands');
  const ops = ctx.parsed.operands;
  const given = used.filter((u) => u.option.data?.mode === 'run').map((u) => u.value);
  if (ops.length < 2 && given.length === 0) return opaque(ctx, 'sql_client_commands');
  const safe = used.some((u) => u.option.data?.mode === 'safe');
  const commands = [
    ...used.filter((u) => u.option.data?.mode === 'sql' || u.option.data?.mode === 'run').map((u) => u.value),
    ...ops.slice(1),
  ];
  let queries = false;
  for (const command of commands) {
    const statements = sqlCommand(command, DUCKDB_WRITES);
    if (typeof statements === 'string' || !statements.every(duckdbStatementReads)) return opaque(ctx, 'sql_client_commands');
    if (statements.some((t) => !/^pragma\b/i.test(t))) queries = true;
  }
  return queries && !safe ? { ...ctx.base, level: 'network', kind: 'network' } : { ...ctx.base, level: 'read_only', kind: 'reader' };
};

/** fzf: a binding whose actions run a command (`execute(…)`, `reload(…)`) makes it opaque; its preview is read by commands.ts. */
const fzf: NamedReader = (ctx) => {
  const binding = ctx.parsed.used.find((u) => u.option.data?.mode === 'bind' && (u.value === undefined || bindRuns(u.value)));
  if (binding)
    return { ...opaque(ctx, 'fzf_binding_runs'), opaque: { id: 'fzf_binding_runs', subject: ctx.name, detail: binding.value?.text ?? '' } };
  return ctx.base;
};

/** An option of mode `dry-run` (`mktemp -u`) makes the program print what it would do, and change nothing. */
const dryRun: NamedReader = (ctx) =>
  modeUsed(ctx, 'dry-run')
    ? { ...ctx.base, level: 'read_only', kind: 'reader', effects: [], reason: { id: 'reads', subject: ctx.name } }
    : ctx.base;

/** dasel put and delete write the file -f names (as well as -o's, when given); select and validate read. */
const dasel: NamedReader = (ctx) => {
  const command = ctx.parsed.operands[0]?.text;
  if (command !== 'put' && command !== 'delete') return ctx.base;
  const files = ctx.parsed.used.filter((u) => u.option.data?.mode === 'file' && u.value).map((u) => u.value!);
  return writer(ctx, [...ctx.base.effects, ...files.map((path) => ({ path, effect: 'write' as const }))]);
};

export const READERS_BY_NAME: Readonly<Record<string, NamedReader>> = {
  __proto__: null as never,
  copy: transfer('copy'),
  move: transfer('move'),
  link: transfer('link'),
  mode,
  attributes,
  dd,
  kill,
  killall,
  pkill,
  sed: sedReader,
  tar,
  unzip,
  '7z': sevenZip,
  fzf,
  'dry-run': dryRun,
  rewrites,
  dasel,
  patch,
  pack,
  split,
  find: findReader,
  curl,
  wget,
  tree,
  creates,
  'remote-copy': remoteCopy,
  git: gitReader,
  awk: awkReader,
  mail: mailReader,
  arch,
  'interface-config': interfaceConfig,
  formats,
  ruff,
  'sql-client': sqlClient,
  sqlite,
  duckdb,
  'reads-with': readsWith('downloads_and_runs_scripts'),
  'reads-with-or-runs': readsWith('runs_project_scripts'),
  'cargo-fmt': cargoFmt,
  parallel,
  poetry,
  ...MACOS_READERS,
};
