import { exceeds, levelRank } from './levels';
import type { Policy } from '../policy/schema';
import { familyOfKey } from './policy-index';

/**
 * SPEC §9.8, the residue stated: a persona whose reach includes code persona-gate cannot read —
 * the `shell` family, a ceiling of `process_exec` or more, and not `"shell": "strict"` — can still
 * reach a catalogued shell command through code it writes in a form no static reader sees. These
 * are the catalogued commands with a `bash` form that such a persona may not run itself.
 */
export interface OpaqueReach {
  persona: string;
  commands: { key: string; bash: string; why: 'owner' | 'family' | 'ceiling' | 'blocked' }[];
}

export function runsOpaqueCode(persona: Policy['personas'][string]): boolean {
  return persona.families.includes('shell') && levelRank(persona.ceiling) >= levelRank('process_exec') && persona.shell !== 'strict';
}

export function opaqueReach(policy: Policy, personaName: string): OpaqueReach | null {
  const persona = policy.personas[personaName];
  if (!persona || !runsOpaqueCode(persona)) return null;
  const commands: OpaqueReach['commands'] = [];
  for (const [key, def] of Object.entries(policy.catalog.commands)) {
    if (def.bash.length === 0) continue;
    const family = familyOfKey(key);
    const level = def.level ?? policy.catalog.families[family]?.level ?? 'network';
    let why: OpaqueReach['commands'][number]['why'] | null = null;
    if (def.owner !== undefined && def.owner !== personaName) why = 'owner';
    else if (!persona.families.includes(family)) why = 'family';
    else if (exceeds(level, persona.ceiling)) why = 'ceiling';
    else if (def.confirm === 'block') why = 'blocked';
    if (why) commands.push({ key, bash: def.bash[0]!, why });
  }
  return commands.length > 0 ? { persona: personaName, commands } : null;
}

export function opaqueReachAll(policy: Policy): OpaqueReach[] {
  return Object.keys(policy.personas)
    .map((name) => opaqueReach(policy, name))
    .filter((r): r is OpaqueReach => r !== null);
}
