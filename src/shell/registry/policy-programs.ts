import type { PolicyIndex } from '../../core/policy-index';
import type { ProgramCommandInput, ProgramDef } from '../../policy/schema';
import { programSpec } from './index';
import type { CommandSpec, OptionSpec, ProgramSpec } from './types';

/**
 * The programs a policy declares (`catalog.programs`, SPEC §2), as registry specs: what the policy
 * gives replaces the registry's (its options, its subcommands, its level), and a program the
 * registry does not know starts from nothing known (`process_exec`, opaque).
 */

type PolicyOption = NonNullable<ProgramDef['options']>[number];

function option(o: PolicyOption): OptionSpec {
  return {
    names: o.names,
    arg: o.arg ?? 'none',
    ...(o.role === 'runs' ? { role: 'runs' as const, opaque: 'runs_named_program' } : o.role ? { role: o.role } : {}),
    ...(o.level ? { level: o.level } : {}),
  };
}

/** A command of the policy's program; one without a level of its own has its parent's, and is opaque where its parent is. */
function command(def: ProgramCommandInput, inherited: CommandSpec): CommandSpec {
  const level = def.level ?? inherited.level;
  const opaque = def.level === undefined ? inherited.opaque : undefined;
  const spec: CommandSpec = {
    summary: def.description ?? inherited.summary ?? '',
    level,
    ...(opaque ? { opaque } : {}),
    ...(def.options ? { options: def.options.map(option) } : {}),
    ...(def.operands ? { operands: def.operands } : {}),
  };
  if (def.subcommands) {
    const subs: Record<string, CommandSpec> = Object.create(null);
    for (const [name, sub] of Object.entries(def.subcommands))
      subs[name] = command(sub, { level, summary: '', ...(opaque ? { opaque } : {}) });
    spec.subcommands = subs;
    spec.unknownSubcommand = { level: 'process_exec', opaque: 'unknown_subcommand' };
  }
  return spec;
}

const made = new WeakMap<PolicyIndex, Map<string, ProgramSpec | null>>();

/** The spec a line's program is read with: the policy's declaration over the registry's. */
export function programFor(index: PolicyIndex, name: string, powershell = false): ProgramSpec | null {
  const declared = powershell
    ? undefined
    : Object.prototype.hasOwnProperty.call(index.settings.programs ?? {}, name)
      ? index.settings.programs[name]
      : undefined;
  if (!declared) return programSpec(name, powershell);
  let cache = made.get(index);
  if (!cache) made.set(index, (cache = new Map()));
  let spec = cache.get(name);
  if (spec !== undefined) return spec;
  const builtin = programSpec(name);
  const replaces = declared.options !== undefined || declared.subcommands !== undefined || declared.level !== undefined;
  if (!replaces && builtin) spec = builtin;
  else {
    const base: ProgramSpec =
      builtin && !replaces
        ? builtin
        : {
            name,
            summary: declared.description ?? '',
            level: declared.level ?? 'process_exec',
            ...(declared.level === undefined ? { opaque: 'unknown_program' } : {}),
          };
    spec = { ...base, ...command(declared, base), name, ...(declared.persistent !== undefined ? { persistent: declared.persistent } : {}) };
  }
  cache.set(name, spec);
  return spec;
}

/** Whether the policy declares the program closed: an invocation that matches none of its catalogued commands is refused. */
export function isClosed(index: PolicyIndex, name: string): boolean {
  const declared = Object.prototype.hasOwnProperty.call(index.settings.programs ?? {}, name) ? index.settings.programs[name] : undefined;
  return declared?.closed === true;
}
