import type { OptionSpec, ProgramSpec } from './types';

/**
 * A compact way to write option tables: each string lists the names of one option, separated by
 * spaces; a name ending in `=` takes a value (`-o= --output=`), in `[=]` an optional one
 * (`--color[=]`, `-i[=]` for an attached one). The object that may follow a string gives what
 * the option does (its role, level, reason id).
 */
export type OptionLine = string | [string, Omit<OptionSpec, 'names' | 'arg'>];

export function options(...lines: OptionLine[]): OptionSpec[] {
  const out: OptionSpec[] = [];
  for (const line of lines) {
    const [text, extra] = typeof line === 'string' ? [line, {}] : line;
    const names: string[] = [];
    let arg: OptionSpec['arg'] = 'none';
    for (const raw of text.split(' ').filter(Boolean)) {
      if (raw.endsWith('[=]')) {
        arg = 'optional';
        names.push(raw.slice(0, -3));
      } else if (raw.endsWith('=')) {
        arg = 'required';
        names.push(raw.slice(0, -1));
      } else names.push(raw);
    }
    out.push({ names, arg, ...extra });
  }
  return out;
}

/** The usual `--help` and `--version`. */
export const HELP = options(['--help', { help: true }], ['--version', { help: true }]);

/** A family of programs: each entry made on first use (the registry is built per name, when a line names the program). */
export type Family = Record<string, () => Omit<ProgramSpec, 'name'>>;

/** Programs that share one spec (every name a plain builtin, every name a plain reader). */
export function same(names: readonly string[], spec: () => Omit<ProgramSpec, 'name'>): Family {
  const family: Family = Object.create(null);
  for (const n of names) family[n] = spec;
  return family;
}

/** The prefixes of `name` of at least `shortest` characters, the whole name last (`sh`, `sho`, `show`). */
export function prefixes(name: string, shortest: number): string[] {
  const out: string[] = [];
  for (let n = shortest; n <= name.length; n++) out.push(name.slice(0, n));
  return out;
}
