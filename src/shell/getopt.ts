import type { Word } from './syntax/word';

/**
 * One option parser for every program the registry knows, with getopt_long's semantics:
 * clusters of short options (`-abc`), a value attached (`-ofile`, `--out=file`) or in the next word
 * (`-o file`, `--out file`), optional values only attached (`-dVALUE`, `--color=auto`), any
 * unambiguous prefix of a long option (`--in-pl` is `--in-place`), `--` ending the options,
 * `-` an operand, and options after operands (GNU's permutation) unless the program stops at its
 * first operand. An option the spec does not list is reported, never guessed.
 */

export type Arity = 'none' | 'required' | 'optional';

/** An option as the parser needs it: its names and whether it takes a value. */
export interface GetoptOption<T = unknown> {
  /** `-o`, `--output`; a name of one dash and more than one letter (`-cols`, `-name`) is matched whole. */
  names: readonly string[];
  arg?: Arity;
  /** What the spec says of the option, handed back with each use. */
  data?: T;
}

export interface GetoptSpec<T = unknown> {
  options: readonly GetoptOption<T>[];
  /** Options end at the first operand (POSIX, and programs that take a command or a subcommand after their options). */
  stopAtOperand?: boolean;
  /** `-NUM` is an option of its own (`head -5`, `nice -10`, `kill -9`). */
  numeric?: boolean;
  /** A word this matches whole is an option of its own, named `-WORD`, its text after the dash the value (`kill -HUP`). */
  wordOptions?: RegExp;
  /** Long options may be written with one dash too (`-output`, as X11 and Go programs take them). */
  singleDashLong?: boolean;
  /** Long options only written whole: an abbreviation (`--pres` for `--preserve-env`) is reported as unknown, not guessed. */
  exactLong?: boolean;
  /**
   * A short option's value is never attached: each option of a cluster that takes one takes the
   * next word not yet taken, in order, and the cluster's other letters stay options (tree's own
   * parser: `tree -oa x` writes x, `tree -Lo 1 out` writes out).
   */
  valuesFollow?: boolean;
}

export interface UsedOption<T = unknown> {
  option: GetoptOption<T>;
  /** The name as the option is known (the full long name, even when abbreviated). */
  name: string;
  /** The value, attached or the next word; undefined when none was given. */
  value?: Word;
  /** The index of the word the option was read from. */
  at: number;
}

export interface Parsed<T = unknown> {
  used: UsedOption<T>[];
  operands: Word[];
  /** Indices of the operands in the words, in order. */
  operandAt: number[];
  /** Options the spec does not list, as written (`-Z`, `--frob`), with where they stood. */
  unknown: { text: string; at: number }[];
  /** Long options that are the prefix of more than one (an error to getopt). */
  ambiguous: string[];
  /** An option that needs a value and was the last word. */
  missingValue: string[];
  /** The index of the first word after the options when they stop at an operand (or after `--`); the number of words otherwise. */
  end: number;
  /** A word `--` ended the options. */
  dashdash: boolean;
}

const slice = (w: Word, from: number): Word => ({
  ...w,
  text: w.text.slice(from),
  quotedAt: w.quotedAt === undefined || w.quotedAt < 0 ? -1 : Math.max(0, w.quotedAt - from),
});

interface Tables<T> {
  short: Map<string, GetoptOption<T>>;
  long: Map<string, GetoptOption<T>>;
  /** One-dash names of more than one letter, matched whole. */
  whole: Map<string, GetoptOption<T>>;
}

const tables = new WeakMap<GetoptSpec<any>, Tables<any>>();

function tablesOf<T>(spec: GetoptSpec<T>): Tables<T> {
  let t = tables.get(spec) as Tables<T> | undefined;
  if (t) return t;
  t = { short: new Map(), long: new Map(), whole: new Map() };
  for (const o of spec.options) {
    for (const n of o.names) {
      if (n.startsWith('--')) t.long.set(n.slice(2), o);
      else if (n.length === 2 && n.startsWith('-')) t.short.set(n[1]!, o);
      else if (n.startsWith('-')) t.whole.set(n, o);
      else if (n.startsWith('+')) t.whole.set(n, o);
    }
  }
  tables.set(spec, t);
  return t;
}

/** The long option a name spells: exact, else the one option it is an unambiguous prefix of. */
function longOption<T>(t: Tables<T>, name: string): { option: GetoptOption<T>; full: string } | 'ambiguous' | null {
  const exact = t.long.get(name);
  if (exact) return { option: exact, full: name };
  let found: { option: GetoptOption<T>; full: string } | null = null;
  for (const [full, option] of t.long) {
    if (!full.startsWith(name)) continue;
    if (found && found.option !== option) return 'ambiguous';
    found = { option, full };
  }
  return found;
}

export function getopt<T>(words: readonly Word[], spec: GetoptSpec<T>, from = 0): Parsed<T> {
  const t = tablesOf(spec);
  const out: Parsed<T> = {
    used: [],
    operands: [],
    operandAt: [],
    unknown: [],
    ambiguous: [],
    missingValue: [],
    end: words.length,
    dashdash: false,
  };
  let k = from;
  const operand = (at: number) => {
    out.operands.push(words[at]!);
    out.operandAt.push(at);
  };
  for (; k < words.length; k++) {
    const w = words[k]!;
    const text = w.text;
    if (text === '--') {
      out.dashdash = true;
      out.end = k + 1;
      for (let j = k + 1; j < words.length; j++) operand(j);
      return out;
    }
    if (text.length < 2 || (text[0] !== '-' && !(text[0] === '+' && t.whole.has(text)))) {
      if (spec.stopAtOperand) {
        out.end = k;
        for (let j = k; j < words.length; j++) operand(j);
        return out;
      }
      operand(k);
      continue;
    }
    // a one-dash name matched whole (`-cols 8`, `-name x`), or `+o`
    const wholeName = text.includes('=') ? text.slice(0, text.indexOf('=')) : text;
    const whole = t.whole.get(wholeName);
    if (whole && !text.startsWith('--')) {
      const arg = whole.arg ?? 'none';
      const eq = text.indexOf('=');
      if (eq !== -1 && arg !== 'none') out.used.push({ option: whole, name: wholeName, value: slice(w, eq + 1), at: k });
      else if (arg === 'required') {
        if (k + 1 < words.length) out.used.push({ option: whole, name: wholeName, value: words[++k]!, at: k - 1 });
        else {
          out.missingValue.push(wholeName);
          out.used.push({ option: whole, name: wholeName, at: k });
        }
      } else out.used.push({ option: whole, name: wholeName, at: k });
      continue;
    }
    if (text.startsWith('--') || (spec.singleDashLong && text.length > 2 && !t.short.has(text[1]!))) {
      const body = text.slice(text.startsWith('--') ? 2 : 1);
      const eq = body.indexOf('=');
      const name = eq === -1 ? body : body.slice(0, eq);
      const found = spec.exactLong ? (t.long.has(name) ? { option: t.long.get(name)!, full: name } : null) : longOption(t, name);
      if (found === 'ambiguous') {
        out.ambiguous.push(`--${name}`);
        out.unknown.push({ text, at: k });
        continue;
      }
      if (found === null) {
        out.unknown.push({ text, at: k });
        continue;
      }
      const arg = found.option.arg ?? 'none';
      const full = `--${found.full}`;
      if (eq !== -1) {
        if (arg === 'none') out.unknown.push({ text, at: k });
        else out.used.push({ option: found.option, name: full, value: slice(w, text.indexOf('=') + 1), at: k });
      } else if (arg === 'required') {
        if (k + 1 < words.length) {
          out.used.push({ option: found.option, name: full, value: words[k + 1]!, at: k });
          k++;
        } else {
          out.missingValue.push(full);
          out.used.push({ option: found.option, name: full, at: k });
        }
      } else out.used.push({ option: found.option, name: full, at: k });
      continue;
    }
    if (spec.wordOptions?.test(text) === true && !text.startsWith('--')) {
      out.used.push({ option: { names: ['-WORD'] }, name: '-WORD', value: slice(w, 1), at: k });
      continue;
    }
    if (spec.numeric && /^-\d+$/.test(text)) {
      out.used.push({ option: { names: ['-NUM'] }, name: '-NUM', value: slice(w, 1), at: k });
      continue;
    }
    // a cluster of short options
    if (spec.valuesFollow) {
      let next = k + 1;
      for (let c = 1; c < text.length; c++) {
        const letter = text[c]!;
        const option = t.short.get(letter);
        if (!option) out.unknown.push({ text: `-${letter}`, at: k });
        else if (option.arg !== 'required') out.used.push({ option, name: `-${letter}`, at: k });
        else if (next < words.length) out.used.push({ option, name: `-${letter}`, value: words[next++]!, at: k });
        else {
          out.missingValue.push(`-${letter}`);
          out.used.push({ option, name: `-${letter}`, at: k });
        }
      }
      k = next - 1;
      continue;
    }
    for (let c = 1; c < text.length; c++) {
      const letter = text[c]!;
      const option = t.short.get(letter);
      if (!option) {
        out.unknown.push({ text: `-${letter}`, at: k });
        continue;
      }
      const arg = option.arg ?? 'none';
      if (arg === 'none') {
        out.used.push({ option, name: `-${letter}`, at: k });
        continue;
      }
      if (c + 1 < text.length) {
        out.used.push({ option, name: `-${letter}`, value: slice(w, c + 1), at: k });
      } else if (arg === 'required') {
        if (k + 1 < words.length) {
          out.used.push({ option, name: `-${letter}`, value: words[k + 1]!, at: k });
          k++;
        } else {
          out.missingValue.push(`-${letter}`);
          out.used.push({ option, name: `-${letter}`, at: k });
        }
      } else out.used.push({ option, name: `-${letter}`, at: k });
      break;
    }
  }
  return out;
}

/** The uses of the options whose data satisfy `test`. */
export function usesWhere<T>(parsed: Parsed<T>, test: (data: T | undefined, name: string) => boolean): UsedOption<T>[] {
  return parsed.used.filter((u) => test(u.option.data, u.name));
}

/** Whether an option of one of these names was used. */
export function hasOption(parsed: Parsed<unknown>, ...names: string[]): boolean {
  return parsed.used.some((u) => u.option.names.some((n) => names.includes(n)));
}

/** The values given to the option of one of these names. */
export function valuesOf(parsed: Parsed<unknown>, ...names: string[]): Word[] {
  return parsed.used.filter((u) => u.value !== undefined && u.option.names.some((n) => names.includes(n))).map((u) => u.value!);
}
