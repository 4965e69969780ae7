import { AGENT_LAUNCH_TOOLS } from '../catalog/claude-code';
import type { Gate } from '../types';

/** Gate 3: an Agent/Task call may only launch agent types bound to one of the persona's delegates. */
export const delegationGate: Gate = {
  name: 'delegation',
  check({ persona, personaName, subject, event, index, messages }) {
    if (!persona || personaName === null) return { note: messages.noteNoPersona() };
    if (subject.via !== 'builtin' || !AGENT_LAUNCH_TOOLS.has(subject.key)) return { note: messages.noteNotAgentLaunch() };
    const agentType = event.tool_input.subagent_type;
    if (typeof agentType !== 'string') return { note: messages.noteNoSubagentType() };
    const bound = index.agentTypeToPersona.get(agentType);
    if (bound === undefined) return { note: messages.noteAgentUnbound(agentType) };
    if (persona.delegates.includes(bound)) return { note: messages.noteIsDelegate(bound, personaName) };
    return {
      ruling: {
        verdict: 'deny',
        status: 'permission_denied',
        gate: 'delegation',
        rule: 'delegates',
        reason: messages.delegation(personaName, agentType, bound, persona.delegates),
      },
    };
  },
};
