import type { Family } from './define';
import { BUILTINS, POWERSHELL_BUILTINS } from './programs/builtins';
import { FILES, POWERSHELL_FILES } from './programs/files';
import { GIT } from './programs/git';
import { PACKAGES } from './programs/packages';
import { NETWORK, POWERSHELL_NETWORK } from './programs/network';
import { POWERSHELL_READERS, READERS } from './programs/readers';
import { HELM, REMOTE, TERRAFORM } from './programs/remote';
import { WRAPPERS } from './programs/wrappers';
import { MACOS } from './programs/macos';
import { TOOLS } from './programs/tools';
import type { ProgramSpec } from './types';

/**
 * The program registry: every program the shell reader knows, by name. Each family is a table of
 * functions, so that a program's spec is built only when a line names it.
 */
const FAMILIES: readonly Family[] = [BUILTINS, READERS, FILES, NETWORK, GIT, PACKAGES, REMOTE, HELM, TERRAFORM, WRAPPERS, MACOS, TOOLS];
/** PowerShell's own cmdlets and aliases, which it finds before programs of the same names (`rm`, `ls`, `curl`). */
const POWERSHELL: readonly Family[] = [POWERSHELL_BUILTINS, POWERSHELL_READERS, POWERSHELL_FILES, POWERSHELL_NETWORK];

const built = new Map<string, ProgramSpec | null>();

/**
 * The spec of the program `name`, or null when the registry does not know it. For a PowerShell
 * line, `name` is in lower case and its own cmdlets and aliases come first.
 */
export function programSpec(name: string, powershell = false): ProgramSpec | null {
  const key = powershell ? `ps:${name}` : name;
  let spec = built.get(key);
  if (spec !== undefined) return spec;
  spec = null;
  const families = powershell ? [...FAMILIES, ...POWERSHELL] : FAMILIES;
  // later families take precedence: PowerShell's own over programs of the same names
  for (let i = families.length - 1; i >= 0; i--) {
    const family = families[i]!;
    // own members only: no program is found by a name every object inherits (`toString`, `constructor`)
    const make = Object.prototype.hasOwnProperty.call(family, name) ? family[name] : undefined;
    if (make) {
      spec = { name, ...make() };
      break;
    }
  }
  built.set(key, spec);
  return spec;
}

/** Every name the registry knows, sorted (PowerShell's own names when `powershell`). */
export function programNames(powershell = false): string[] {
  return [...new Set((powershell ? POWERSHELL : FAMILIES).flatMap((f) => Object.keys(f)))].sort();
}
