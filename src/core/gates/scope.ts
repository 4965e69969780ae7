import { exceeds } from '../levels';
import type { Gate } from '../types';

/** Gate 2: the command's family is one of the persona's and its level is within the ceiling. */
export const personaScopeGate: Gate = {
  name: 'scope',
  check({ persona, personaName, subject, index, messages }) {
    if (!persona || personaName === null) return { note: messages.noteCatalogOnly() };
    const deny = (rule: string, reason: string) => ({
      ruling: { verdict: 'deny' as const, status: 'permission_denied' as const, gate: 'scope' as const, rule, reason },
    });
    if (subject.family === null || subject.level === null) {
      return deny('unknown_tool', messages.scopeUnknown(personaName, subject.key));
    }
    // A command another persona owns is that persona's to run, whatever else keeps this one from it: the refusal names the owner.
    const owner = subject.owner !== null && subject.owner !== personaName ? subject.owner : null;
    if (!persona.families.includes(subject.family) || !index.familyLevels.has(subject.family)) {
      return deny(
        'family',
        owner !== null
          ? messages.scopeFamilyOwned(personaName, subject.key, subject.family, persona.families, owner)
          : messages.scopeFamily(personaName, subject.key, subject.family, persona.families),
      );
    }
    if (exceeds(subject.level, persona.ceiling)) {
      return deny(
        'ceiling',
        owner !== null
          ? messages.scopeCeilingOwned(personaName, subject.key, subject.level, persona.ceiling, owner)
          : messages.scopeCeiling(personaName, subject.key, subject.level, persona.ceiling, subject.because),
      );
    }
    return { note: messages.noteInScope(subject.family, personaName, subject.level, persona.ceiling) };
  },
};
