import { accessSync, constants, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * The programs tests run for real (test/programs.txt), and the one rule for them: each is
 * installed by .ci/run; where one is absent outside CI, a real run that needs it is skipped with
 * its reason (the verdict is still asserted); a real run that needs a program the list does not
 * name fails, naming it.
 */

const MANIFEST = join(__dirname, '..', 'programs.txt');

/** program → the Debian package that provides it ('-': none). */
export const PROGRAMS: ReadonlyMap<string, string> = new Map(
  readFileSync(MANIFEST, 'utf8')
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter(Boolean)
    .map((line) => {
      const [program, pkg] = line.split(/\s+/);
      if (!program || !pkg) throw new Error(`test/programs.txt: a line needs a program and a package: ${JSON.stringify(line)}`);
      return [program, pkg] as const;
    }),
);

/** Where a program is looked for: the test process's PATH and the system's directories. */
const SEARCH = [
  ...new Set([...(process.env.PATH ?? '').split(delimiter), '/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin']),
].filter(Boolean);

const found = new Map<string, boolean>();
/** Whether `program` is installed here. */
export function installed(program: string): boolean {
  let known = found.get(program);
  if (known === undefined) {
    known = SEARCH.some((dir) => {
      try {
        accessSync(join(dir, program), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
    found.set(program, known);
  }
  return known;
}

/** The listed programs that are not installed here, with their packages. */
export function missingPrograms(): { program: string; pkg: string }[] {
  return [...PROGRAMS].filter(([program]) => !installed(program)).map(([program, pkg]) => ({ program, pkg }));
}

/** Programs a shell, env or xargs said it could not find, from a run's stderr. */
export function notFound(stderr: string): string[] {
  const names = new Set<string>();
  for (const m of stderr.matchAll(/(?:^|: )([^\s:'"]+): (?:command )?not found$/gm)) names.add(m[1]!);
  for (const m of stderr.matchAll(/^(?:env|xargs|nohup|nice|timeout|sudo|strace): '?([^\s:']+)'?: No such file or directory$/gm))
    names.add(m[1]!);
  return [...names];
}

/** A real run that could not happen here: the reason, already reported. */
export interface Skipped {
  skipped: string;
}

export const isSkipped = (r: unknown): r is Skipped => typeof r === 'object' && r !== null && 'skipped' in r;

/**
 * Judges a real run by what its stderr says was not found: null when nothing it needs is missing;
 * a skip (reported on stderr) when a listed program is absent here; an error naming the program
 * when the run needs one the list does not name. Names of programs that exist nowhere on this
 * machine and look like no program (a planted `./x`, a word with a `#`) are the line's own business.
 */
export function judgeRun(
  line: string,
  stderr: string,
  needs: readonly string[] = [],
  here: { listed: ReadonlyMap<string, string>; installed: (program: string) => boolean } = { listed: PROGRAMS, installed },
): Skipped | null {
  const absent = [...needs.filter((p) => !here.installed(p)), ...notFound(stderr).filter((p) => !here.installed(p))];
  for (const program of absent) {
    if (here.listed.has(program)) {
      const pkg = here.listed.get(program)!;
      const skipped = `${program} is not installed (${pkg === '-' ? 'no Debian package provides it' : `apt-get install ${pkg}`})`;
      process.stderr.write(`real run skipped, ${skipped}: ${JSON.stringify(line)}\n`);
      return { skipped };
    }
    if (needs.includes(program) || /^[a-z][a-z0-9+_.-]*$/.test(program)) {
      throw new Error(
        `the real run of ${JSON.stringify(line)} needs ${program}, which is not installed here and not listed in test/programs.txt: add it there with its Debian package, so that .ci/run installs it`,
      );
    }
  }
  return null;
}
