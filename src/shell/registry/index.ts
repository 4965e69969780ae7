import type { Family } from './define';
import { BUILTINS } from './programs/builtins';
import { FILES } from './programs/files';
import { GIT } from './programs/git';
import { PACKAGES } from './programs/packages';
import { NETWORK } from './programs/network';
import { READERS } from './programs/readers';
import type { ProgramSpec } from './types';

/**
 * The program registry: every program the shell reader knows, by name. Each family is a table of
 * functions, so that a program's spec is built only when a line names it.
 */
const FAMILIES: readonly Family[] = [BUILTINS, READERS, FILES, NETWORK, GIT, PACKAGES];

const built = new Map<string, ProgramSpec | null>();

/** The spec of the program `name` (in lower case for PowerShell's names), or null when the registry does not know it. */
export function programSpec(name: string): ProgramSpec | null {
  let spec = built.get(name);
  if (spec !== undefined) return spec;
  spec = null;
  // later families take precedence: a name in the files family (sort) over the builtins (PowerShell's sort)
  for (let i = FAMILIES.length - 1; i >= 0; i--) {
    const family = FAMILIES[i]!;
    // own members only: no program is found by a name every object inherits (`toString`, `constructor`)
    const make = Object.prototype.hasOwnProperty.call(family, name) ? family[name] : undefined;
    if (make) {
      spec = { name, ...make() };
      break;
    }
  }
  built.set(name, spec);
  return spec;
}

/** Every name the registry knows, sorted. */
export function programNames(): string[] {
  return [...new Set(FAMILIES.flatMap((f) => Object.keys(f)))].sort();
}
