import { exceeds } from '../core/levels';
import { isDotted } from '../core/chars';
import { builtinToolsOf, familyLevelsOf, familyOfKey, globToRegExp } from '../core/policy-index';
import { own } from '../core/own';
import type { Policy } from './schema';
import type { RuleMessages } from './rule-messages';

export interface PolicyProblem {
  path: string;
  message: string;
}

/** `a.b[0]["x.y"]`: keys that are not plain identifiers are quoted. */
export function jsonPath(segments: readonly (string | number)[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out === '' ? '(root)' : out;
}

type Rule = (policy: Policy, t: RuleMessages) => PolicyProblem[];

function problem(segments: (string | number)[], message: string): PolicyProblem {
  return { path: jsonPath(segments), message };
}

/** Declared and included families with their levels: the same table the decision uses. */
const catalogFamilies = familyLevelsOf;

function builtinTools(policy: Policy) {
  return builtinToolsOf(policy.catalog.include).tools;
}

const commandKeysAreDotted: Rule = (policy, t) =>
  Object.keys(policy.catalog.commands)
    .filter((key) => !isDotted(key))
    .map((key) => problem(['catalog', 'commands', key], t.notDotted(key)));

const commandFamiliesExist: Rule = (policy, t) => {
  const families = catalogFamilies(policy);
  return Object.keys(policy.catalog.commands)
    .filter((key) => key.includes('.') && !families.has(familyOfKey(key)))
    .map((key) => problem(['catalog', 'commands', key], t.familyUndeclared(familyOfKey(key), key, [...families.keys()])));
};

const commandLevelWithinFamily: Rule = (policy, t) => {
  const families = catalogFamilies(policy);
  const out: PolicyProblem[] = [];
  for (const [key, def] of Object.entries(policy.catalog.commands)) {
    const familyLevel = families.get(familyOfKey(key));
    if (def.level !== undefined && familyLevel !== undefined && exceeds(def.level, familyLevel)) {
      out.push(problem(['catalog', 'commands', key, 'level'], t.aboveFamily(def.level, familyLevel)));
    }
  }
  return out;
};

const ownersArePersonas: Rule = (policy, t) =>
  Object.entries(policy.catalog.commands)
    .filter(([, def]) => def.owner !== undefined && !own(policy.personas, def.owner))
    .map(([key, def]) => problem(['catalog', 'commands', key, 'owner'], t.ownerNotPersona(def.owner!, Object.keys(policy.personas))));

const toolsClaimedOnce: Rule = (policy, t) => {
  const seen = new Map<string, string>();
  const out: PolicyProblem[] = [];
  for (const [key, def] of Object.entries(policy.catalog.commands)) {
    def.tools.forEach((tool, i) => {
      const first = seen.get(tool);
      if (first !== undefined && first !== key) {
        out.push(problem(['catalog', 'commands', key, 'tools', i], t.toolClaimed(tool, first)));
      } else seen.set(tool, key);
      if (own(policy.catalog.meta_tools, tool) !== undefined) {
        out.push(problem(['catalog', 'commands', key, 'tools', i], t.toolIsMeta(tool)));
      }
    });
  }
  return out;
};

const personaFamiliesExist: Rule = (policy, t) => {
  const families = catalogFamilies(policy);
  const out: PolicyProblem[] = [];
  for (const [name, persona] of Object.entries(policy.personas)) {
    persona.families.forEach((family, i) => {
      if (!families.has(family)) out.push(problem(['personas', name, 'families', i], t.familyMissing(family, [...families.keys()])));
    });
  }
  return out;
};

const delegatesArePersonas: Rule = (policy, t) => {
  const out: PolicyProblem[] = [];
  for (const [name, persona] of Object.entries(policy.personas)) {
    persona.delegates.forEach((delegate, i) => {
      if (!own(policy.personas, delegate))
        out.push(problem(['personas', name, 'delegates', i], t.delegateNotPersona(delegate, Object.keys(policy.personas))));
    });
  }
  return out;
};

const agentTypesBoundOnce: Rule = (policy, t) => {
  const bound = new Map<string, string>();
  const out: PolicyProblem[] = [];
  for (const [name, persona] of Object.entries(policy.personas)) {
    persona.agent_types.forEach((agentType, i) => {
      const first = bound.get(agentType);
      if (first !== undefined && first !== name) {
        out.push(problem(['personas', name, 'agent_types', i], t.agentTypeBound(agentType, first)));
      } else bound.set(agentType, name);
    });
  }
  return out;
};

const identityCommandsDeclared: Rule = (policy, t) => {
  const out: PolicyProblem[] = [];
  const identity = policy.identity;
  if (!identity) return out;
  for (const field of ['reads', 'switches'] as const) {
    identity[field].forEach((key, i) => {
      if (!own(policy.catalog.commands, key))
        out.push(problem(['identity', field, i], t.notACommand(key, Object.keys(policy.catalog.commands))));
    });
  }
  identity.reads.forEach((key, i) => {
    if (identity.switches.includes(key)) out.push(problem(['identity', 'reads', i], t.readAndSwitch(key)));
  });
  return out;
};

const stageNamesUnique: Rule = (policy, t) => {
  const out: PolicyProblem[] = [];
  for (const [name, persona] of Object.entries(policy.personas)) {
    const seen = new Set<string>();
    persona.stages.forEach((stage, i) => {
      if (seen.has(stage.name)) out.push(problem(['personas', name, 'stages', i, 'name'], t.stageNameTwice(stage.name)));
      seen.add(stage.name);
    });
  }
  return out;
};

/** What an `allowed_tools` entry names, and its family: a family, a command key or a tool name. */
function entryFamilies(policy: Policy, entry: string): string[] | null {
  const families = catalogFamilies(policy);
  if (families.has(entry)) return [entry];
  if (own(policy.catalog.commands, entry)) return [familyOfKey(entry)];
  const commandsForTool = Object.entries(policy.catalog.commands).filter(([, def]) => def.tools.includes(entry));
  if (commandsForTool.length > 0) return commandsForTool.map(([key]) => familyOfKey(key));
  const globbed = Object.entries(policy.catalog.families)
    .filter(([, def]) => def.tools.some((glob) => globToRegExp(glob).test(entry)))
    .map(([family]) => family);
  if (globbed.length > 0) return globbed;
  const builtin = builtinTools(policy).get(entry);
  return builtin === undefined ? null : [builtin.family];
}

/** Every name an `allowed_tools` entry may be: families, command keys, their tools and the built-in tools. */
function knownEntries(policy: Policy): string[] {
  const commands = Object.entries(policy.catalog.commands);
  return [
    ...catalogFamilies(policy).keys(),
    ...commands.map(([key]) => key),
    ...commands.flatMap(([, def]) => def.tools),
    ...builtinTools(policy).keys(),
  ];
}

const stageToolsWithinReach: Rule = (policy, t) => {
  const out: PolicyProblem[] = [];
  for (const [name, persona] of Object.entries(policy.personas)) {
    persona.stages.forEach((stage, i) => {
      (stage.allowed_tools ?? []).forEach((entry, j) => {
        const families = entryFamilies(policy, entry);
        const path = ['personas', name, 'stages', i, 'allowed_tools', j];
        if (families === null) out.push(problem(path, t.stageToolUnknown(entry, knownEntries(policy))));
        else if (!families.some((f) => persona.families.includes(f))) {
          out.push(problem(path, t.stageToolOutside(entry, persona.families.join(', '))));
        }
      });
    });
  }
  return out;
};

const stageExitTargetsExist: Rule = (policy, t) => {
  const out: PolicyProblem[] = [];
  for (const [name, persona] of Object.entries(policy.personas)) {
    const names = new Set(persona.stages.map((s) => s.name));
    persona.stages.forEach((stage, i) => {
      for (const field of ['on_complete', 'on_failure'] as const) {
        const target = stage.on_exit?.[field];
        if (target !== undefined && !names.has(target)) {
          out.push(problem(['personas', name, 'stages', i, 'on_exit', field], t.stageMissing(target, name, [...names])));
        }
      }
    });
  }
  return out;
};

const metaToolsNotBuiltin: Rule = (policy, t) => {
  const builtin = builtinTools(policy);
  return Object.keys(policy.catalog.meta_tools)
    .filter((tool) => builtin.has(tool))
    .map((tool) => problem(['catalog', 'meta_tools', tool], t.metaIsBuiltin(tool)));
};

/** The cross-field rules, each a small named check reporting JSON paths. */
export const POLICY_RULES: readonly Rule[] = [
  commandKeysAreDotted,
  commandFamiliesExist,
  commandLevelWithinFamily,
  ownersArePersonas,
  toolsClaimedOnce,
  metaToolsNotBuiltin,
  personaFamiliesExist,
  delegatesArePersonas,
  agentTypesBoundOnce,
  identityCommandsDeclared,
  stageNamesUnique,
  stageToolsWithinReach,
  stageExitTargetsExist,
];
