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
    if (!persona.families.includes(subject.family) || !index.familyLevels.has(subject.family)) {
      return deny('family', messages.scopeFamily(personaName, subject.key, subject.family, persona.families));
    }
    if (exceeds(subject.level, persona.ceiling)) {
      return deny('ceiling', messages.scopeCeiling(personaName, subject.key, subject.level, persona.ceiling));
    }
    return { note: messages.noteInScope(subject.family, personaName, subject.level, persona.ceiling) };
  },
};
