// A generated large policy: 50 personas, 200 families, 2,000 commands (10 a family), with stages.
const LEVELS = ['none', 'read_only', 'workspace_write', 'process_exec', 'network'];

export function largePolicy() {
  const families = {};
  const commands = {};
  for (let f = 0; f < 200; f++) {
    const familyLevel = LEVELS[1 + (f % 4)];
    families[`fam${f}`] = { level: familyLevel, tools: f % 10 === 0 ? [`mcp__glob${f}__*`] : [] };
    for (let c = 0; c < 10; c++) {
      const level = LEVELS[Math.min(LEVELS.indexOf(familyLevel), c % 5)];
      commands[`fam${f}.group${c % 3}.op${c}`] = {
        level,
        ...(c === 9 ? { confirm: 'confirm' } : {}),
        tools: [`mcp__srv${f}__op${c}`],
        bash: [`tool${f} op${c}`],
      };
    }
  }
  const personas = {};
  for (let p = 0; p < 50; p++) {
    const fams = Array.from({ length: 8 }, (_, k) => `fam${(p * 4 + k) % 200}`);
    personas[`persona${p}`] = {
      families: [...fams, 'file_read'],
      ceiling: LEVELS[2 + (p % 3)],
      agent_types: [`agent${p}`],
      delegates: p === 0 ? Array.from({ length: 49 }, (_, k) => `persona${k + 1}`) : [],
      stages: [
        { name: 'research', allowed_tools: [fams[0], 'file_read'], side_effect_level: 'read_only', on_exit: { on_complete: 'act' } },
        { name: 'act', side_effect_level: LEVELS[2], max_iterations: 1000000 },
      ],
    };
  }
  for (let f = 0; f < 200; f += 7) commands[`fam${f}.group0.op0`].owner = `persona${f % 50}`;
  return {
    version: 1,
    catalog: { include: ['claude-code'], families, commands, meta_tools: { mcp__hub__execute: 'command' } },
    personas,
    identity: { reads: ['fam1.group0.op0'], switches: ['fam1.group1.op1'] },
    defaults: { confirm: { network: 'confirm' }, unknown_tools: 'ask', on_pass: 'abstain' },
  };
}
