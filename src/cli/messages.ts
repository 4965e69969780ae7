import type { Env } from '../core/decide';
import type { PolicyIndex } from '../core/policy-index';
import { readPreferences } from '../io/prefs';
import { didYouMean } from '../core/nearest';
import { jsonErrorAt, type JsonErrorAt } from '../core/json-error';

const near = (word: string, accepted: string | readonly string[]) => didYouMean('en', word, accepted);
const cerca = (word: string, accepted: string | readonly string[]) => didYouMean('es', word, accepted);
const LIST_FORMATS = ['text', 'json', 'claude-permissions'];
const LEVEL_NAMES = ['none', 'read_only', 'workspace_write', 'process_exec', 'network'];

/** What keeps `persona-gate launch` from narrowing another host's tools (Claude Code's flags are the ones measured). */
const LAUNCH_LIMITS_EN: Record<string, string> = {
  codex:
    "Codex CLI 0.171.0 takes none of its own tools off the model's list from the command line (-c tools.web_search=false, -c tools.view_image=false and -c include_apply_patch_tool=false left it as it was, measured), and offers MCP tools only through its tool_search, where an -c mcp_servers.NAME.disabled_tools list could not be measured",
};
const LAUNCH_LIMITS_ES: Record<string, string> = {
  codex:
    'Codex CLI 0.171.0 no quita ninguna de sus propias herramientas de la lista del modelo desde la línea de órdenes (-c tools.web_search=false, -c tools.view_image=false y -c include_apply_patch_tool=false la dejaron igual, medido), y solo ofrece las herramientas MCP a través de su tool_search, donde no se pudo medir una lista -c mcp_servers.NOMBRE.disabled_tools',
};

/** Everything the CLI subcommands print, in English and Spanish. */
export const cliEn = {
  // explain
  verdictLine: (verdict: string, status: string, gate: string, rule: string) =>
    `verdict: ${verdict} (status ${status}, gate ${gate}, rule ${rule})`,
  reasonLine: (reason: string) => `reason:  ${reason}`,
  callLine: (tool: string, what: string) => `call:    ${tool} → ${what}`,
  callKnown: (key: string, family: string, level: string, tier: string, owner: string | null, via: string) =>
    `${key} (family ${family}, level ${level}, tier ${tier}${owner ? `, owner ${owner}` : ''}, via ${via})`,
  callUnknown: (key: string, why: string) => `${key} (unknown: ${why})`,
  notInCatalog: () => 'not in the catalog',
  matchedLine: (keys: string) => `matched: ${keys}`,
  shellLine: (level: string, decided: number) =>
    decided === 0 ? `line:    level ${level}` : `line:    level ${level}, decided by the part${decided === 1 ? '' : 's'} marked *`,
  shellInvocation: (words: string, program: string, kind: string, level: string, reasonId: string | null, reason: string | null) =>
    `${words} — ${program}, kind ${kind}, level ${level}${reasonId === null ? '' : `, reason ${reasonId}: ${reason}`}`,
  shellPart: (words: string, level: string, reasonId: string, reason: string) => `${words} — level ${level}, reason ${reasonId}: ${reason}`,
  personaLine: (persona: string | null, stage: string | null) => `persona: ${persona ?? '(unscoped)'}   stage: ${stage ?? '(none)'}`,
  scopeLine: (families: string | null, allowed: string | null, ceiling: string | null) =>
    `scope:   families ${families ?? '(any)'}; allowed tools ${allowed ?? '(inherited)'}; ceiling ${ceiling ?? '(none)'}`,
  gatesLine: () => 'gates:',
  outcome: (o: 'pass' | 'refuse' | 'decide'): string => o,
  stateLine: (ops: string) => `state:   would apply ${ops} (explain changes nothing)`,
  sandboxLine: (holds: boolean): string =>
    holds
      ? "sandbox: Claude Code's sandbox write-denies persona-gate's files here, so gate 0 refuses only what plainly writes one; the kernel refuses the rest"
      : "sandbox: Claude Code's settings here do not hold persona-gate's files in its sandbox, so gate 0 refuses what may touch one",
  explainBoth: () => 'persona-gate explain: give either --event FILE or TOOL [INPUT_JSON], not both',
  explainNeither: () => 'persona-gate explain: give a TOOL name (and its INPUT_JSON) or --event FILE',
  explainEventUnreadable: (file: string, detail: string) => `persona-gate explain: cannot read the event ${file}: ${detail}`,
  explainEventShape: (detail: string) => `persona-gate explain: ${detail}`,
  explainNotPre: () => 'persona-gate explain: the event must be a PreToolUse event',
  explainInputNotJson: (detail: string) => `persona-gate explain: INPUT_JSON is not JSON: ${detail}`,
  explainInputNotObject: () => 'persona-gate explain: INPUT_JSON must be a JSON object',
  badLevel: (level: string) =>
    `persona-gate: unknown level ${level}${near(level, LEVEL_NAMES)} (none, read_only, workspace_write, process_exec, network)`,
  badConfirmOn: () => 'persona-gate: --confirm-on takes pre or post',
  // list
  listHeader: (persona: string, stage: string | null, ceiling: string | null, families: string, allowed: string | null) =>
    `persona ${persona}${stage ? `, stage ${stage}` : ''}: ceiling ${ceiling}; families ${families}; allowed tools ${allowed ?? '(inherited)'}`,
  listColumns: (): readonly string[] => ['may', 'tier', 'level', 'command', 'why / tools'],
  yes: () => 'yes',
  no: () => 'no',
  afterIdentity: () => '(after an identity read)',
  someLines: () => 'lines',
  shellLines: (tool: string, level: string) => `${tool}: lines at ${level} and below (each line is judged by what it runs)`,
  listPersonasHeader: (path: string) => `personas of ${path} (persona-gate list --persona NAME shows what one may call):`,
  listPersonaLine: (name: string, ceiling: string, families: string, stages: string, description: string | null) =>
    `  ${name.padEnd(20)} ceiling ${ceiling}; families ${families}${stages ? `; stages ${stages}` : ''}${description ? ` — ${description}` : ''}`,
  badFormat: (format: string) =>
    `persona-gate list: unknown format ${format}${near(format, LIST_FORMATS)} (text, json or claude-permissions)`,
  // validate
  residueWarning: (persona: string, commands: readonly string[]) =>
    `warning: personas.${persona}: runs code persona-gate cannot read (shell, ceiling process_exec or above), so it can still reach ${commands.join(', ')} that way. Close it with "shell": "strict", a lower ceiling, enforcement in the tool itself, or the host's OS sandbox (docs/threat-model.md).`,
  residueLine: (commands: readonly string[]) =>
    `reachable through code persona-gate cannot read (refused when named, not stopped when hidden): ${commands.join(', ')}`,
  notePrefix: () => 'note: ',
  warningPrefix: () => 'warning: ',
  lockPins: (lock: string, servers: readonly string[]) =>
    `the MCP lock ${lock} pins ${servers.join(', ')}: a tool of ${servers.length === 1 ? 'that server' : 'those servers'} that the lock does not list is refused (not_pinned), whatever form the policy gives it`,
  lockToolMissing: (path: string, tool: string) =>
    `${path}: ${tool} is not in the MCP lock, so it is refused (not_pinned) until persona-gate pin records it`,
  lockUnreadable: (lock: string, detail: string) =>
    `the MCP lock ${lock} cannot be read (${detail}): every MCP tool is refused (not_pinned) until it is repaired or pinned again`,
  // programs
  programsHeader: (n: number) => `${n} programs the shell reader knows (persona-gate programs NAME shows one, with its subcommands):`,
  programsDeclared: (closed: boolean): string => (closed ? '[the policy declares it: closed]' : '[the policy declares it]'),
  programsUnknown: (name: string, near: string | null) =>
    `persona-gate programs: ${name} is not a program the registry or the policy knows${near ? ` (did you mean ${near}?)` : ''}; a line that runs it is process_exec and opaque. Declare it under catalog.programs to have it read.`,
  programsNoSummary: () => '(no summary)',
  programsLevel: (level: string, opaque: string | null, hasSubcommands: boolean) =>
    `level ${level}${opaque ? `, opaque (${opaque})${hasSubcommands ? ' without a subcommand' : ''}` : ''}; options that change what a call does:`,
  programsFromPolicy: (closed: boolean): string =>
    closed ? 'declared by the policy, closed: only its catalogued commands may run' : 'declared by the policy (catalog.programs)',
  programsSubcommands: () => 'subcommands:',
  programsOpaque: (reason: string) => `opaque: ${reason}`,
  programsEverySubcommand: () => 'options most subcommands take:',
  programsUnknownSubcommand: (level: string, opaque: boolean) => `any other subcommand: ${level}${opaque ? ', opaque' : ''}`,
  programsReader: (reader: string) => `read further by code: ${reader}`,
  programsWrapper: () => 'it runs another command:',
  programsWrapperLevel: () => 'the level of the command it runs; options that change what a call does:',
  programsStrict: () => 'any option it does not list: opaque',
  programsCatalogued: () => 'catalogued commands of the policy:',
  // agents, launch
  agentsNone: (path: string) =>
    `persona-gate agents: no persona of ${path} is bound to an agent type (personas.NAME.agent_types), so there is no subagent definition to write`,
  agentsWrote: (file: string, persona: string, n: number) => `wrote ${file}: the ${persona} persona's ${n} tool${n === 1 ? '' : 's'}`,
  agentsUpdated: (file: string, persona: string, added: readonly string[], removed: readonly string[]) =>
    `updated ${file} (${persona}): tools${added.length > 0 ? ` + ${added.join(', ')}` : ''}${removed.length > 0 ? ` − ${removed.map((r) => (r === '*' ? 'every other tool (it had no tools key)' : r)).join(', ')}` : ''}; the rest of the file is as it was`,
  agentsUnchanged: (file: string, persona: string) => `${file}: matches the ${persona} persona`,
  agentsInSync: (n: number) => `${n} subagent definition${n === 1 ? '' : 's'} match${n === 1 ? 'es' : ''} the policy`,
  agentsMissing: (file: string, persona: string) => `${file}: missing (the ${persona} persona is bound to it)`,
  agentsDrift: (file: string, persona: string, extra: readonly string[], missing: readonly string[]) =>
    `${file}: its tools differ from what the ${persona} persona may use:${extra.includes('*') ? ' it has no tools key, so it is offered every tool;' : extra.length > 0 ? ` offers ${extra.join(', ')};` : ''}${missing.length > 0 ? ` lacks ${missing.join(', ')}` : ''}`.replace(
      /;$/,
      '',
    ),
  agentsFix: () => 'persona-gate agents rewrites the tools of each (and keeps the rest of the file)',
  agentsDescription: (persona: string) => `Works as the ${persona} persona of persona-gate's policy.`,
  agentsBody: (persona: string) =>
    `You work as the ${persona} persona. You are offered only the tools this persona may use; persona-gate's hook still judges every call, and its refusals say whom to hand the work to.`,
  launchNoPersona: () => 'persona-gate launch: give the persona to start the host as (--persona NAME)',
  launchUnknownPersona: (name: string, accepted: readonly string[]) =>
    `persona-gate launch: "${name}" is not a persona of this policy${near(name, accepted)}; accepted: ${accepted.join(', ')}`,
  launchUnknownStage: (persona: string, stage: string, accepted: readonly string[]) =>
    `persona-gate launch: "${stage}" is not a stage of the ${persona} persona${near(stage, accepted)}; accepted: ${accepted.length > 0 ? accepted.join(', ') : '(it has none)'}`,
  launchHostUnsupported: (host: string): string =>
    `persona-gate launch: cannot start ${host} with its tools narrowed: ${LAUNCH_LIMITS_EN[host] ?? 'no way to narrow its tools is known'}. The hook still judges every call there: set the persona variable (persona_env) and start it as usual.`,
  launchNoAgentType: (persona: string) =>
    `persona-gate launch --as-agent: the ${persona} persona is bound to no agent type (personas.${persona}.agent_types)`,
  launchNoDefinition: (file: string, persona: string) =>
    `persona-gate launch --as-agent: ${file} does not exist; persona-gate agents writes it from the ${persona} persona`,
  launchDefinitionDrift: (file: string, persona: string) =>
    `persona-gate launch --as-agent: the tools of ${file} differ from what the ${persona} persona may use; persona-gate agents brings them in line`,
  launchCannotStart: (program: string, detail: string) => `persona-gate launch: cannot start ${program}: ${detail}`,
  launchNotFound: () => 'not found (install it, or name it with --program PATH)',
  launchDroidExec: () =>
    'persona-gate launch --host droid: Droid narrows its tools in droid exec only; give its arguments as -- exec [options] PROMPT',
  launchAsAgentClaudeOnly: () => 'persona-gate launch: --as-agent is for Claude Code (claude --agent)',
  launchCannotList: (program: string, detail: string) =>
    `persona-gate launch: cannot learn which tools ${program} has (${program} exec --list-tools): ${detail}`,
  valid: (path: string, personas: number, commands: number) =>
    `${path}: valid (${personas} ${personas === 1 ? 'persona' : 'personas'}, ${commands} ${commands === 1 ? 'command' : 'commands'})`,
  problems: (n: number) => `${n} problem${n === 1 ? '' : 's'}`,
  notJsonFile: (path: string, detail: string) => `${path}: not valid JSON: ${detail}`,
  notJsonAt: (path: string, line: number, column: number, detail: string) => `${path}:${line}:${column}: not valid JSON: ${detail}`,
  trailingComma: () => 'a comma with nothing after it (JSON allows none before } or ]): remove it',
  noPolicyFound: (searched: string) => `persona-gate: no policy found (looked at: ${searched || '(nothing)'})`,
  cannotRead: (path: string, code: string) => `persona-gate: cannot read ${path}: ${code}`,
  // session and stage
  sessionReset: (id: string) => `session ${id}: reset`,
  sessionPersona: (id: string, persona: string | null) => `session ${id}: persona ${persona ?? '(none)'}`,
  personaNameOrClear: () => 'persona-gate session persona: give a persona NAME or --clear',
  notAPersona: (name: string, accepted: string) =>
    `persona-gate: "${name}" is not a persona of this policy${near(name, accepted)}; accepted: ${accepted}`,
  noSessionPersona: () => 'persona-gate stage: the session has no persona (persona-gate session persona NAME --session ID)',
  notAStage: (stage: string, persona: string, accepted: string) =>
    `persona-gate stage: "${stage}" is not a stage of ${persona}${near(stage, accepted)}; accepted: ${accepted || '(none)'}`,
  entered: (id: string, persona: string, stage: string) => `session ${id}: ${persona} entered stage ${stage}`,
  exited: (id: string, from: string, outcome: string, next: string | null) =>
    `session ${id}: stage ${from} exited (${outcome}) → ${next ?? '(no stage)'}`,
  inNoStage: (id: string) => `persona-gate stage exit: session ${id} is in no stage`,
  badOutcome: () => 'persona-gate stage exit: --outcome takes complete or failure',
  stateDirProblem: (detail: string) => `persona-gate: state directory: ${detail}`,
  // init
  initWrotePolicy: (path: string, example: string) => `wrote ${path} (from the ${example} example)`,
  initKeptPolicy: (path: string, cli: string) =>
    `kept the existing policy ${path} (to start over from a starter instead: ${cli} init --example NAME --force)`,
  initPolicyExists: (path: string, example: string) =>
    `persona-gate init: ${path} already exists and is not the ${example} starter, so nothing was changed. To replace it with the ${example} starter (and its test file), pass --force: the policy there is lost, so commit or copy it first`,
  initReplacedPolicy: (path: string, example: string) => `replaced ${path} with the ${example} example (--force)`,
  initWroteTests: (path: string, cli: string) =>
    `wrote ${path}, the example's policy tests: ${cli} test runs them; add a case for each rule you change`,
  initReplacedTests: (path: string, cli: string) => `replaced ${path} with the example's policy tests (--force): ${cli} test runs them`,
  initRegistered: (path: string, events: string) => `registered the hook for ${events} in ${path}`,
  initUnchanged: (path: string) => `${path} already registers the hook: unchanged`,
  initUnparsable: (path: string, detail: string) =>
    `persona-gate init: ${path} is not valid JSON (${detail}); fix it by hand, nothing was changed`,
  initNotObject: (path: string, field: string) =>
    `persona-gate init: ${path}: "${field}" is not an object; fix it by hand, nothing was changed`,
  initBadExample: (name: string, accepted: string) =>
    `persona-gate init: unknown example "${name}"${near(name, accepted)}; accepted: ${accepted}`,
  initBadLocale: (locale: string) => `persona-gate init: --locale takes en or es, not "${locale}"`,
  initReplaced: (old: string) => `replaced the hook command ${old}: it names a path of one machine`,
  initProjectCommand: (command: string) =>
    `the hook runs ${command}: the project's own install, the same on every clone and in CI (teammates run npm install)`,
  initGlobalCommand: (command: string) =>
    `the hook runs ${command}: the persona-gate on PATH (a global install, npm i -g <a persona-gate tarball or git URL: see docs/install.md>); every machine that runs this project needs it. To use a project install instead: npm install --save-dev <a persona-gate tarball or git URL>, then persona-gate init again`,
  initNotOnPath: () =>
    'warning: persona-gate is not on PATH here, so every tool call will be refused until it is: npm i -g <a persona-gate tarball or git URL: see docs/install.md>, or npm install --save-dev <a persona-gate tarball or git URL> and persona-gate init again',
  initNext: (cli: string) => `next: ${cli} doctor, then start Claude Code in this directory`,
  initSandbox: (path: string, keys: string) => `turned on Claude Code's sandbox in ${path} (${keys})`,
  initSandboxKept: (path: string) => `${path} already turns the sandbox on, with no way out of it: unchanged`,
  initLaunchSettings: (path: string) =>
    `wrote the sandbox settings a project must not override to ${path}: persona-gate launch passes them to Claude Code (--settings); for every session of this machine, an administrator copies them into managed settings`,
  initSandboxOptedOut: () =>
    `the sandbox was left off (--no-sandbox): the shell can then write persona-gate's files by routes the hook cannot see (a script it writes and runs, an interpreter), and the hook keeps refusing every line that may touch one`,
  initSandboxMissing: (missing: string) =>
    `the sandbox was not turned on: ${missing} missing (apt-get install bubblewrap socat, or dnf install bubblewrap socat); until then the hook refuses every line that may touch persona-gate's files, and code it cannot see can still change them. Run init again once they are installed`,
  initSandboxNoPlatform: (platform: string) =>
    `the sandbox was not turned on: Claude Code has none on ${platform}; the hook refuses every line that may touch persona-gate's files, and code it cannot see can still change them`,
  initGuarded: (path: string, n: number) =>
    `guarded persona-gate's files from the agent's shell and edit tools in ${path} (${n} new entr${n === 1 ? 'y' : 'ies'} in sandbox.filesystem.denyWrite and permissions.deny)`,
  initGuardedKept: (path: string) => `${path} already guards persona-gate's files: unchanged`,
  initSandboxInstallInside: (root: string) =>
    `note: the sandbox write-denies persona-gate's installation in ${root}, so an npm ci or npm install that replaces it fails in the agent's shell; run those yourself, outside the agent`,
  droidSandbox: (path: string) =>
    `turned on Droid's sandbox in ${path} (sandbox.enabled: true): every Execute command runs under bubblewrap, and a project's settings cannot turn it off`,
  droidSandboxKept: (path: string) => `${path} already turns Droid's sandbox on: unchanged`,
  droidGuarded: (path: string, n: number) =>
    `guarded persona-gate's files from Droid's shell and its Create, Edit and ApplyPatch tools in ${path} (${n} new entr${n === 1 ? 'y' : 'ies'} in sandbox.filesystem.denyWrite)`,
  droidReadOnlyDirs: (claude: string, factory: string) =>
    `note: ${claude} and ${factory} are read-only for the agent under Droid's sandbox (a denied file's directory could otherwise be renamed away); change them yourself, outside the agent. Keep ${claude}/commands and ${claude}/agents: without them every shell command fails`,
  droidStateWritable: (stateDir: string) =>
    `Droid runs hooks inside its sandbox, so persona-gate's state directory ${stateDir} is in sandbox.filesystem.allowWrite: the agent's shell can write it too, and the hook keeps refusing every line that may touch it`,
  droidStateDenied: (stateDir: string) =>
    `persona-gate's state directory ${stateDir} is write-denied in Droid's sandbox, which runs the hook too: the hook cannot keep its state, and every call is refused`,
  droidStateNotAllowed: (stateDir: string) =>
    `persona-gate's state directory ${stateDir} is not in Droid's sandbox.filesystem.allowWrite: the hook, sandboxed too, cannot write it, and every call is refused`,
  droidSandboxOptedOut: () =>
    `Droid's sandbox was left as it is (--no-sandbox): its shell can then write persona-gate's files by routes the hook cannot see (a script it writes and runs, an interpreter)`,
  droidSandboxNoPlatform: (platform: string) =>
    `Droid's sandbox was not turned on: persona-gate turns it on only on Linux, where it was measured, not on ${platform}`,
  droidSandboxOn: (path: string) => `Droid's sandbox is on (sandbox.enabled in ${path})`,
  droidSandboxOff: (path: string) => `Droid's sandbox is not on in ${path}: the agent's shell can write whatever this user can`,
  droidDirNotDenied: (d: string) => `${d} is not write-denied whole: a file denied inside it can be renamed away with its directory`,
  droidPlaceholderMissing: (p: string) =>
    `${p} is missing: under a read-only .claude, Droid's sandbox cannot make it, and every shell command fails`,
  initInstallInside: (root: string) =>
    `warning: this persona-gate runs from ${root}, inside the project, where the agent can change it; install it outside (npm i -g <a persona-gate tarball or git URL: see docs/install.md>) and run persona-gate init --hardened from there`,
  initAdminHeader: () => 'needs an administrator (init does not do these):',
  initAdminManaged: (managed: string, user: string) =>
    `  - copy the "hooks", "sandbox" and "permissions" entries of ${user} into ${managed} (owned by root): only managed settings hold when a project's .claude/settings.json turns the sandbox off or the user's own settings drop the hook`,
  initAdminRoot: (managed: string) =>
    `  - even as root, init does not write ${managed}: it applies to every user and every session on this machine, so review the entries and copy them there yourself`,
  initAdminInstall: (root: string) =>
    `  - ${root} is writable by this user: have persona-gate installed where the agent's user cannot write it (as root: npm i -g <a persona-gate tarball or git URL: see docs/install.md>), then run persona-gate init --hardened again from that installation`,
  initAdminDeps: (missing: string) =>
    `  - install the sandbox's programs (${missing} missing): apt-get install bubblewrap socat (Debian/Ubuntu) or dnf install bubblewrap socat (Fedora)`,
  initHardenedNext: (cli: string) => `next: ${cli} doctor --hardened, then start Claude Code in this project`,
  // doctor
  doctorOk: () => 'ok  ',
  doctorWarn: () => 'warn',
  doctorFail: () => 'FAIL',
  doctorFix: (fix: string) => `      fix: ${fix}`,
  doctorSummary: (fails: number, warns: number) =>
    fails === 0
      ? `all checks passed${warns ? ` (${warns} warning${warns === 1 ? '' : 's'})` : ''}`
      : `${fails} check${fails === 1 ? '' : 's'} failed`,
  checkRegistered: (event: string, where: string) => `the hook is registered for ${event} (${where})`,
  checkNotRegistered: (event: string) => `the hook is not registered for ${event}`,
  checkFailureNotRegistered: () =>
    'the hook is not registered for PostToolUseFailure: a call rewritten for the broker that fails keeps its record, and a secret it saved starts programs, for 30 minutes',
  fixRegister: () => 'run persona-gate init',
  checkOnFailure: (event: string) => `the ${event} registration has "onFailure": "block"`,
  checkNoOnFailure: (event: string) => `the ${event} registration has no "onFailure": "block": a crashed or killed hook lets the call run`,
  fixOnFailure: () => 'run persona-gate init again (it adds the field), or add "onFailure": "block" to the entry',
  checkCommand: (command: string) => `the hook command exists: ${command}`,
  checkNoCommand: (command: string) => `the hook command does not exist: ${command}`,
  fixCommand: () =>
    'install persona-gate in the project (npm install --save-dev <a persona-gate tarball or git URL>; on a clone, npm install) and run persona-gate init',
  checkNotOnPath: (program: string, command: string) =>
    `the hook command ${command} runs ${program}, which is not on PATH: every tool call is refused`,
  fixNotOnPath: () =>
    'npm i -g <a persona-gate tarball or git URL: see docs/install.md>; or npm install --save-dev <a persona-gate tarball or git URL> in the project and run persona-gate init',
  checkStaleCommand: (target: string, file: string) =>
    `the hook command does not exist: ${target} (${file} names a path of another machine or of a moved checkout: every tool call is refused)`,
  checkMachineSpecific: (path: string, file: string) =>
    `the hook command in ${file} names ${path}, a path of this machine: on a teammate's clone, a moved checkout or in CI every tool call is refused`,
  fixMachineSpecific: () => 'run persona-gate init: it replaces the entry with a command without paths, keeping everything else',
  checkStateLater: (dir: string) => `the state directory ${dir} does not exist yet: the hook creates it (mode 0700) on first use`,
  stateParentReadOnly: (parent: string) => `it does not exist and ${parent} is not writable`,
  checkEnvPersona: (name: string, persona: string) => `${name}=${persona} is a persona of the policy`,
  checkEnvPersonaUnknown: (name: string, persona: string, accepted: string) =>
    `${name}=${persona} is not a persona of the policy (accepted: ${accepted}): every tool call is refused`,
  fixEnvPersona: (name: string) => `correct or unset ${name}`,
  checkEnvStage: (name: string, stage: string) => `${name}=${stage} is a stage of the persona`,
  checkEnvStageUnknown: (name: string, stage: string, persona: string | null, accepted: string) =>
    persona
      ? `${name}=${stage} is not a stage of ${persona} (accepted: ${accepted || '(none)'}): every tool call is refused`
      : `${name}=${stage} names a stage, but no persona is set: every tool call is refused`,
  checkPolicy: (path: string) => `the policy ${path} validates`,
  checkNoPolicy: () => 'no policy found',
  fixPolicy: () => 'run persona-gate init, or point PERSONA_GATE_CONFIG at a policy',
  checkInvalidPolicy: (path: string, n: number) => `the policy ${path} has ${n} problem${n === 1 ? '' : 's'}`,
  fixInvalidPolicy: () => 'run persona-gate validate and fix what it reports',
  checkState: (dir: string) => `the state directory ${dir} is private`,
  checkStateBad: (dir: string, detail: string) => `the state directory ${dir} cannot be used: ${detail}`,
  fixState: (dir: string) => `remove or fix ${dir} (it must be a directory of yours, mode 0700)`,
  checkNode: (version: string) => `Node ${version}`,
  checkNodeOld: (version: string) => `Node ${version} is older than 20`,
  fixNode: () => 'install Node 20 or later',
  checkClaude: (version: string) => `Claude Code ${version} honours "onFailure": "block"`,
  checkClaudeOld: (version: string) => `Claude Code ${version} ignores "onFailure": "block": a crashed or killed hook lets the call run`,
  fixClaude: () => 'update Claude Code to 2.1.332 or later',
  checkNoClaude: () => 'claude was not found on PATH: the host version cannot be checked',
  fixNoClaude: () => 'install Claude Code, or ignore this if another host runs the hook',
  doctorHardened: () => 'hardened deployment (what the agent cannot switch off):',
  hardInstallOutside: (root: string) => `persona-gate runs from ${root}, outside the workspace`,
  hardInstallInside: (root: string) =>
    `persona-gate runs from ${root}, inside the workspace: the agent can change the program that judges it`,
  fixInstallInside: () =>
    'install it outside the project (npm i -g <a persona-gate tarball or git URL: see docs/install.md>) and run persona-gate init --hardened from that installation',
  hardInstallWritable: (root: string) => `${root} is writable by this user: only the sandbox keeps the agent's shell from changing it`,
  fixInstallWritable: () =>
    'have an administrator install it owned by root (sudo npm i -g <a persona-gate tarball or git URL: see docs/install.md>)',
  hardInstallReadOnly: (root: string) => `${root} is not writable by this user`,
  hardRegisteredManaged: (path: string) => `the hook is registered in managed settings (${path})`,
  hardRegisteredUser: (path: string) => `the hook is registered at user level (${path})`,
  hardRegisteredProjectOnly: (path: string) => `the hook is not registered at user level (${path}): only a project file starts it`,
  hardNotManaged: (path: string) => `the hook is not registered in managed settings (${path}): the user's own settings can drop it`,
  fixManaged: (path: string) =>
    `have an administrator copy the "hooks", "sandbox" and "permissions" entries of the user settings into ${path}`,
  hardSandboxOn: () => "Claude Code's sandbox is on (sandbox.enabled)",
  hardSandboxOff: () => "Claude Code's sandbox is off: the agent's shell can write whatever this user can",
  checkSandboxHolds: () =>
    "Claude Code's sandbox is on, with no way out, and write-denies the policy: the kernel refuses what the shell writes to persona-gate's files",
  checkSandboxOff: () =>
    "Claude Code's sandbox does not hold persona-gate's files here (off, with a way out, or the policy not write-denied): only the hook stands between the shell and them, and it refuses every line that may touch one",
  fixSandboxOff: () => 'install bubblewrap and socat (Linux), then run persona-gate init again without --no-sandbox',
  hardSandboxTurnedOff: (files: string) => `the project's settings turn Claude Code's sandbox off (${files})`,
  fixSandboxTurnedOff: (managed: string) =>
    `remove "enabled": false from their "sandbox"; to hold against any project, have an administrator set sandbox.enabled in ${managed}`,
  hardNoEscape: () => 'sandboxed commands have no way out (sandbox.allowUnsandboxedCommands: false)',
  hardEscape: () => 'a command can leave the sandbox through dangerouslyDisableSandbox (sandbox.allowUnsandboxedCommands is not false)',
  hardFailIfUnavailable: () => 'Claude Code refuses to start when the sandbox cannot (sandbox.failIfUnavailable)',
  hardNoFailIfUnavailable: () =>
    'when the sandbox cannot start, Claude Code runs commands unsandboxed (sandbox.failIfUnavailable is not true)',
  hardSandboxDeps: () => "the sandbox's programs are installed (bwrap, socat)",
  hardNoSandboxDeps: (missing: string) => `the sandbox's programs are missing: ${missing}`,
  hardSandboxProgramChangeable: (path: string) =>
    `${path}, the first of the sandbox's programs on PATH, can be changed by a user other than root: Claude Code runs it outside the sandbox`,
  fixSandboxDeps: () => 'apt-get install bubblewrap socat (Debian/Ubuntu) or dnf install bubblewrap socat (Fedora)',
  fixSandboxProgramChangeable: () => 'remove it, or put the system directories (/usr/bin) first on PATH for Claude Code',
  hardWhatState: () => "persona-gate's state directory",
  hardWhatPolicy: () => 'the policy',
  hardWhatSettings: () => 'the user settings file',
  hardGuarded: (what: string, path: string) => `${what} ${path} is not writable from the sandboxed shell or the edit tools`,
  hardNotGuarded: (what: string, path: string) => `${what} ${path} is not guarded from the sandboxed shell and the edit tools`,
  hardPolicyOutside: (path: string) => `the policy ${path} is outside the workspace`,
  fixHardened: () => 'run persona-gate init --hardened',
  // the excluded launcher (init --hardened, doctor --hardened)
  initLaunched: (name: string, program: string) =>
    `${name} (${program}) now starts only through persona-gate's launcher, each start checked; the sandboxed shell cannot reach it, and the programs a call runs start it through its shim, judged by persona-gate's broker`,
  initNotLaunched: (name: string, why: string) =>
    `${name} is not launched: ${why}; its catalogued commands are checked by the shell reader alone`,
  initProfileGuarded: (path: string) =>
    `the domain's active profile (${path}) is write-denied to the sandboxed shell and the edit tools: only the launched program, judged, switches it`,
  launcherNotOnPath: () => 'it is not on PATH',
  launchInProject: (path: string) => `the one on PATH (${path}) is inside the project`,
  launchSystem: (path: string) => `${path} is a system program other programs run, which hiding it would break`,
  launchOddPath: (path: string) => `its path ${path} has characters a settings pattern cannot hold`,
  launchNoPolicy: (path: string) => `the policy ${path} does not validate, so no program is launched`,
  hardLaunched: (name: string, program: string) =>
    `${name} (${program}) starts only through the launcher and is hidden from the sandboxed shell and the Read tool`,
  hardNotExcluded: (name: string, entry: string) =>
    `${name}: the launcher is not the excluded command (sandbox.excludedCommands lacks "${entry}")`,
  hardNotHidden: (name: string, path: string) =>
    `${name}: ${path} is readable from the sandboxed shell or the Read tool (sandbox.filesystem.denyRead, permissions.deny Read(//…))`,
  hardNoLauncher: (path: string) => `the launcher ${path} is missing or not executable`,
  hardProfileGuarded: (path: string) => `the domain's active profile (${path}) is write-denied to the sandboxed shell and the edit tools`,
  hardProfileOpen: (path: string) =>
    `the domain's active profile (${path}) is writable from the sandboxed shell or the edit tools (sandbox.filesystem.denyWrite, permissions.deny Edit(//…)): a switch there is not judged`,
  hardNoLaunchMap: (names: string) => `the catalogued programs (${names}) are not launched: the agent's shell reaches them unchecked`,
  hardProjectExcluded: (file: string, entries: string) =>
    `${file} takes commands out of the sandbox (sandbox.excludedCommands: ${entries}): outside it, a launched program is there unchecked`,
  fixProjectExcluded: (managed: string) =>
    `remove them, or set sandbox.allowUnsandboxedCommands: false in ${managed} (managed settings hold over a project's; a user-level false does not)`,
  hardAllInPlace: (n: number) => `all ${n} parts are in place`,
  hardGrouped: (missing: number, n: number) =>
    `${missing} of its ${n} parts are not in place: the agent's shell can reach what the hook alone guards`,
  fixHardenedList: (cli: string) => `${cli} doctor --hardened lists each part and its fix`,
  // sessions, status, statusline, uninstall
  sessionUnknown: (id: string) => `persona-gate: no session ${id} (the sessions persona-gate has seen: persona-gate log)`,
  sessionAmbiguous: (prefix: string, ids: readonly string[]) =>
    `persona-gate: ${prefix} starts ${ids.length} session ids; give more of it:\n${ids.map((id) => `  ${id}`).join('\n')}`,
  statusPolicy: (path: string, sha: string) => `policy:   ${path} (valid, sha256 ${sha.slice(0, 12)})`,
  statusPolicyInvalid: (path: string, n: number) =>
    `policy:   ${path} (INVALID: ${n} problem${n === 1 ? '' : 's'}; persona-gate validate): every tool call is refused`,
  statusNoPolicy: () => 'policy:   none found: every tool call is refused (persona-gate init)',
  statusSession: (id: string) => `session:  ${id}`,
  statusNoSession: () => 'session:  none yet under this policy',
  statusPersonaLabel: () => 'persona: ',
  statusStageLabel: () => 'stage:   ',
  statusIdentityLabel: () => 'identity:',
  statusUnscoped: () => '(unscoped: no persona)',
  statusPersona: (persona: string, source: string, envName: string | null) =>
    `${persona} (${source === 'env' ? `from the environment, ${envName}` : source === 'session' ? 'set for the session: persona-gate session persona' : 'from the agent type of the last call'})`,
  statusStage: (stage: string, source: string, envName: string | null) =>
    `${stage} (${source === 'env' ? `from the environment, ${envName}` : 'entered for the session: persona-gate stage'})`,
  statusNone: () => '(none)',
  statusNoIdentityGate: () => '(the policy has no identity gate)',
  statusConfirmed: (label: string | null) => `confirmed${label ? `, profile ${label}` : ''}`,
  statusNotConfirmed: () => 'not confirmed: the first state-changing call is refused until an identity read',
  statusLast: () => 'last decisions:',
  lineNoPolicy: () => 'persona-gate: no policy',
  lineInvalidPolicy: () => 'persona-gate: invalid policy',
  lineUnscoped: () => 'unscoped',
  lineConfirmed: () => 'identity ✓',
  lineNotConfirmed: () => 'identity not confirmed',
  lineUnknown: () => 'persona-gate: ?',
  uninstallRemoved: (path: string, events: string) => `removed the hook for ${events} from ${path}`,
  uninstallRemovedFile: (path: string, events: string) => `removed the hook for ${events}: ${path} held nothing else, so it was removed`,
  uninstallNothing: (path: string) => `${path} registers no persona-gate hook: unchanged`,
  uninstallKeptPolicy: (path: string) => `kept the policy ${path} (--purge removes it)`,
  uninstallSandboxRemoved: (path: string) => `removed the sandbox settings init wrote for persona-gate from ${path}`,
  uninstallPolicyRemoved: (path: string) => `removed the policy ${path}`,
  uninstallTestsRemoved: (path: string) => `removed the policy tests ${path}`,
  uninstallKeptTests: (path: string) => `kept the policy tests ${path}: they are no longer the example's (remove them by hand)`,
  uninstallNoPolicy: (path: string) => `no policy at ${path}`,
  uninstallElsewhere: (path: string) => `${path} still registers the hook (init did not write it there): remove that entry by hand`,
  uninstallTookBack: (path: string, what: string[]) =>
    `removed what init added to ${path}${what.length > 0 ? `: ${what.join(', ')}` : ''}; the rest is kept`,
  uninstallTookBackFile: (path: string, what: string[]) =>
    `removed what init added to ${path}${what.length > 0 ? ` (${what.join(', ')})` : ''}: init had made the file and nothing else was in it, so it was removed`,
  uninstallRestored: (path: string, what: string[]) =>
    `removed what init added to ${path}${what.length > 0 ? ` (${what.join(', ')})` : ''}: it is again as it was before init`,
  uninstallHookTakenBack: (path: string, events: string) => `removed the hook init --hardened registered for ${events} from ${path}`,
  uninstallDirRemoved: (path: string) => `removed the empty directory ${path}, which init made`,
  installRecordBad: (path: string, reason: string) =>
    `${path} is not the record of what init added (${reason}): nothing was changed. Move it away and remove persona-gate's entries by hand, or run persona-gate init again to record them anew`,
  logNothing: () => 'no receipts match',
  logTitle: (n: number, sessions: number, from: string, to: string | null) =>
    `persona-gate log: ${n} decision${n === 1 ? '' : 's'}${sessions > 1 ? ` in ${sessions} sessions` : ''}, ${to === null ? from : `${from} to ${to}`} (UTC)`,
  logFollowTitle: () => 'persona-gate log --follow: each decision as it is made, until interrupted (Ctrl-C)',
  viewOneSession: (id: string) =>
    `All rows are one session, ${id}: what a call leaves (an identity confirmed, a stage's count) holds for the calls after it.`,
  viewColumns: (): readonly string[] => ['time', 'session', 'persona', 'verdict', 'call'],
  viewUnscoped: () => '(unscoped)',
  viewLegend: (): readonly (readonly [string, string])[] => [
    ['deny', 'refused: the reason under it says why and what to do instead'],
    ['ask', 'the user is asked to confirm before it runs'],
    ['allow', 'approved'],
    ['abstain', "let through: persona-gate has no objection and says nothing, so the host's own permission rules decide"],
    [
      '(recorded)',
      'not a call: an event the host sent after a call (PostToolUse) or at a session start, recorded because it changed the session (an identity read confirmed the profile)',
    ],
    ['deny*', 'audit mode: the verdict the policy would give; the call was answered as if it passed'],
  ],
  badSince: (value: string) =>
    `persona-gate log: --since takes an ISO date or time (2026-11-30, 2026-11-30T10:00:00Z) or a duration back from now (30m, 2h, 1d), not "${value}"`,
  badLimit: (value: string) => `persona-gate log: --limit takes a whole number of receipts, 1 or more, not "${value}"`,
  // config
  configUnknownKey: (key: string, accepted: string) =>
    `persona-gate config: unknown key "${key}"${near(key, accepted)}; accepted: ${accepted}`,
  configBadValue: (key: string, detail: string) => `persona-gate config: invalid value for ${key}: ${detail}`,
  configSet: (key: string, value: string) => `${key} = ${value}`,
  configUnset: (key: string) => `${key} is not set`,
  configNeedsValue: () => 'persona-gate config set: give a KEY and a VALUE (persona-gate config set locale es)',
  configNeedsKey: (action: string) => `persona-gate config ${action}: give a KEY (locale, policy or stateDir)`,
  configActions: (action: string) => `persona-gate config: unknown action "${action}": get KEY, set KEY VALUE, unset KEY or list`,
  // explain, audit mode
  auditLine: (would: string, answered: string) =>
    `audit:   the policy would ${would === 'ask' ? 'ask about' : would} this call; in audit mode the hook answers ${answered}, as if it passed`,
  // test
  testFileHeader: (file: string, policy: string) => `${file} (policy ${policy})`,
  testError: () => 'ERROR',
  testOk: () => 'ok  ',
  testFail: () => 'FAIL',
  testExpected: (want: string, got: string) => `expected ${want}; got ${got}`,
  testDecided: (key: string, persona: string | null, stage: string | null, gate: string, rule: string) =>
    `${key} as ${persona ?? '(unscoped)'}${stage ? `/${stage}` : ''}: gate ${gate}, rule ${rule}`,
  testReason: (reason: string) => `reason: ${reason}`,
  testReasonMissing: (text: string) => `the reason does not contain ${JSON.stringify(text)}`,
  testAnswered: (verdict: string) => `audit mode: the hook answers ${verdict}`,
  testBefore: (calls: readonly string[]) => `earlier calls: ${calls.join('; ')}`,
  testSummary: (passed: number, failed: number) => `${passed} passed, ${failed} failed`,
  testFileUnreadable: (file: string, detail: string) => `cannot read ${file}: ${detail}`,
  noSuchFile: () => 'no such file',
  testFileInvalid: (file: string, problems: readonly string[]) =>
    `${file} is not a valid test file:\n${problems.map((p) => `  ${p}`).join('\n')}`,
  // replay
  replayNotFound: (path: string) => `persona-gate replay: ${path} does not exist`,
  replayNothing: (path: string) => `persona-gate replay: no transcript (*.jsonl) under ${path}`,
  replayReading: (i: number, n: number) => `reading transcripts ${i}/${n}`,
  replayProgress: (done: number, total: number) => `${done}/${total} steps`,
  replayColumns: (): readonly string[] => ['#', 'session', 'persona', 'call', 'verdict', 'status', 'reason'],
  replayUnscoped: () => '(unscoped)',
  replaySummaryHeading: () => 'by persona, command and status:',
  replaySummaryColumns: (): readonly string[] => ['persona', 'command', 'status', 'verdict', 'calls'],
  replayAuditNote: () => '* audit mode: the verdict the policy would give; the call was answered as if it passed',
  replayTotals: (calls: number, sessions: number, files: number, c: Record<'deny' | 'ask' | 'allow' | 'abstain', number>) =>
    `${calls} call${calls === 1 ? '' : 's'} in ${sessions} session${sessions === 1 ? '' : 's'} (${files} transcript${files === 1 ? '' : 's'}): ${c.deny} refused, ${c.ask} asked, ${c.allow + c.abstain} let through (${c.allow} allow, ${c.abstain} abstain)`,
  replayLines: (lines: number, other: number, skipped: number, detail: readonly string[]) =>
    `${lines} lines read: ${other} without tool calls, ${skipped} not understood and skipped${detail.length > 0 ? ` (${detail.join(', ')})` : ''}`,
  replayUnreadable: (what: string) => `could not read ${what}`,
  hostTrusted: (dir: string, path: string) => `trusted ${dir} in ${path}: Gemini CLI runs a project's hooks only in a trusted folder`,
  hostTrustKept: (dir: string, path: string) => `${dir} is already trusted in ${path}`,
  hostLetsThrough: (host: string, items: readonly string[]) =>
    `what ${host} lets through, whatever persona-gate answers: ${items.join('; ')}`,
  hostLetsThroughHeading: (host: string) => `What ${host} lets through, whatever persona-gate answers:`,
  hostNext: (title: string, host: string, cli: string) => `next: ${cli} doctor --host ${host}, then start ${title} in this directory`,
  hostFailsOpen: {
    codex: [
      'a hook it has not trusted is skipped without a word (doctor checks the trust)',
      'a hook that exits 1, times out or prints what Codex cannot read lets the tool run (persona-gate denies at its own deadline, 5 s, before the 10 s timeout)',
      'Codex has no ask: persona-gate answers a call that needs a person with a deny',
    ],
    copilot: [
      'a hook that times out, or prints something other than JSON with exit 0, lets the tool run (persona-gate denies at its own deadline, 5 s, before the 10 s timeout)',
      "in a folder it does not trust, Copilot skips the project's .github/hooks without a word (init trusts the folder; doctor checks)",
      'disableAllHooks: true in .github/copilot/settings.json or settings.local.json of a trusted folder switches every hook off, the user-level ones included (doctor checks)',
      "a trusted project's .claude/settings.json hooks also run, with Copilot's events",
      'Copilot has no ask: persona-gate answers a call that needs a person with a deny',
    ],
    gemini: [
      'a hook that exits 1, times out, is killed, prints text that is not JSON with exit 0, or exits 2 with nothing on stderr lets the tool run (persona-gate denies at its own deadline, 5 s, before the 10,000 ms timeout, and never exits 2 without a reason)',
      'in a folder it does not trust, Gemini runs no hooks at all, the user-level ones included (doctor checks the trust)',
      "hooksConfig.enabled: false, or persona-gate in hooksConfig.disabled, in the project's or the user's settings switches the hook off (doctor checks; an administrator can pin hooks in /etc/gemini-cli/settings.json)",
      "under GitHub Actions, or with security.environmentVariableRedaction, the persona variables do not reach the hook unless the entry's own env sets them",
      "Gemini ignores Claude Code's JSON: the hook must be registered with --host gemini",
    ],
    qwen: [
      'a hook that exits 1 or 3, times out, prints what Qwen Code cannot read, or exits 2 with nothing on stderr lets the tool run (persona-gate denies at its own deadline, 5 s, before the 10,000 ms timeout, and never exits 2 without a reason)',
      'a project\'s .qwen/settings.json with "disableAllHooks": true switches every hook off, the user-level ones included (doctor checks; pin it false in /etc/qwen-code/settings.json)',
      'qwen --safe-mode and --bare run no hooks',
      "with security.folderTrust on, an untrusted folder's project hooks are skipped",
      'headless, an ask is a deny; persona-gate answers a call that needs a person with a deny',
    ],
    droid: [
      'a hook that exits 1, crashes, times out or prints something other than JSON lets the tool run (persona-gate denies at its own deadline, 5 s, before the 10 s timeout)',
      'an ask does not block under --auto high: persona-gate answers a call that needs a person with a deny',
      'a hooks.json wrapped in {"hooks": …} is ignored without a word (init writes the events at the top level)',
    ],
  },
  fixRegisterHost: (host: string) => `run persona-gate init --host ${host}`,
  checkHostFlag: (command: string, host: string) =>
    `the hook command ${command} does not say --host ${host}: its answers are in a form ${host} may not honour`,
  checkHostTimeout: (timeout: number, unit: string) =>
    `the hook's timeout is ${timeout} ${unit}: not above persona-gate's own 5 s deadline, so the host may give up first and run the tool`,
  checkHostTrusted: (dir: string, path: string) => `${dir} is a trusted folder (${path})`,
  checkHostUntrusted: (dir: string, path: string) =>
    `${dir} is not a trusted folder in ${path}: Gemini CLI skips the project's hooks there`,
  badHost: (value: string, names: string) => `persona-gate: --host takes ${names}, not ${value}${near(value, names)}`,
  hardenedClaudeOnly: () => '--hardened is for Claude Code (its sandbox and managed settings); leave it out with --host',
  copilotTrusted: (dir: string, path: string) =>
    `trusted ${dir} in ${path}: Copilot reads a project's .github/hooks only in a trusted folder, and skips them without a word elsewhere`,
  checkCopilotUntrusted: (dir: string, path: string) =>
    `${dir} is not a trusted folder in ${path}: Copilot skips the project's .github/hooks without a word, and every tool runs`,
  checkCopilotHooksOff: (file: string) =>
    `${file} switches every Copilot hook off (disableAllHooks: true), the user-level ones included: persona-gate is never asked`,
  fixCopilotHooksOff: () => 'remove that setting',
  codexTrusted: (count: number, path: string) =>
    `recorded the trust of persona-gate's ${count} hook entries in ${path}: Codex skips a hook it has not trusted, without a word`,
  codexConfigUnparsable: (path: string, problem: string) => `cannot read ${path} as TOML (${problem}): nothing was changed`,
  fixCodexConfig: () => 'correct the config.toml, then run persona-gate init --host codex again',
  codexProfileTaken: (path: string, name: string) =>
    `${path} already defines a permissions profile named ${name} that persona-gate did not write: nothing was changed; rename it, then run init again`,
  codexSandboxOptedOut: () =>
    `Codex's sandbox was left as it is (--no-sandbox): its shell can then write persona-gate's files by routes the hook cannot see (a script it writes and runs, an interpreter, a link), and the hook keeps refusing every line that may touch one`,
  codexSandboxNoPlatform: (platform: string) =>
    `Codex's sandbox was not turned on: persona-gate turns it on only on Linux and macOS, not on ${platform}; code the hook cannot see can still change persona-gate's files`,
  codexSandbox: (path: string, profile: string, n: number) =>
    `turned on Codex's sandbox in ${path}: the permissions profile ${profile} keeps the project and the temp directories writable and write-denies persona-gate's files (${n} path${n === 1 ? '' : 's'} read-only) for every command the agent's shell starts`,
  codexSandboxKept: (path: string) => `${path} already holds persona-gate's sandbox profile: unchanged`,
  codexReadOnlyDirs: (claude: string) =>
    `note: ${claude} is read-only for the agent under Codex's sandbox (a denied file's directory could otherwise be renamed away), and Codex itself keeps .git read-only there (git status works, git commit does not); change them yourself, outside the agent`,
  codexProfileChosenElsewhere: (path: string, profile: string, ours: string) =>
    `${path} already chooses the permissions profile ${profile} (default_permissions): kept; persona-gate's profile ${ours} is written but holds only once default_permissions = "${ours}"`,
  codexSandboxModeSet: (path: string, mode: string) =>
    `${path} sets sandbox_mode = "${mode}": Codex then uses its older sandbox settings, which cannot write-deny a path, instead of a permissions profile; remove sandbox_mode (and [sandbox_workspace_write]) for persona-gate's profile to hold`,
  codexSandboxOff: (path: string) =>
    `no permissions profile is chosen in ${path}: Codex's sandbox does not write-deny persona-gate's files, and code the hook cannot see can change them`,
  codexProfileActive: (profile: string, path: string) => `Codex runs its shell under the permissions profile ${profile} (${path})`,
  codexProbeFailed: (bin: string, detail: string) =>
    `could not run a command in Codex's sandbox (${bin} sandbox): ${detail}; whether it holds persona-gate's files is unknown`,
  fixCodexProbe: () =>
    'put the codex program on PATH (or name it in PERSONA_GATE_CODEX_BIN); on Linux the sandbox needs user namespaces, and a CODEX_HOME outside the temp directory',
  codexGuardWritable: (path: string, profile: string) => `${path} is writable from Codex's sandbox under the profile ${profile}`,
  codexSandboxHolds: (profile: string, n: number) =>
    `Codex's sandbox (profile ${profile}) write-denies every one of persona-gate's ${n} guarded paths here (probed with codex sandbox)`,
  codexSandboxRemoved: (path: string) => `removed persona-gate's sandbox profile from ${path}`,
  codexTrustKept: (path: string) => `${path} already trusts persona-gate's hook entries`,
  checkCodexTrusted: (key: string) => `Codex trusts the hook ${key}`,
  checkCodexUntrusted: (key: string, path: string) =>
    `Codex has no trust recorded for the hook ${key} in ${path}: it skips the hook without a word, and every tool runs`,
  checkCodexModified: (key: string, path: string) =>
    `the trust recorded for the hook ${key} in ${path} is for another command, timeout or matcher: Codex skips the hook, and every tool runs`,
  checkCodexDisabled: (key: string, path: string) => `${path} switches the hook ${key} off (enabled = false): every tool runs`,
  checkQwenPinned: (file: string) => `${file} pins disableAllHooks to false: no project can switch the hook off`,
  checkQwenHooksOff: (file: string) => `${file} switches every Qwen Code hook off (disableAllHooks: true): persona-gate is never asked`,
  checkQwenNotPinned: (file: string) =>
    `nothing pins Qwen Code's hooks on: a project's .qwen/settings.json with "disableAllHooks": true switches persona-gate off`,
  fixQwenHooksOff: (file: string) =>
    `an administrator can put "disableAllHooks": false in ${file}, which no project or user setting overrides`,
  checkGeminiHooksOff: (file: string) => `${file} switches every Gemini hook off (hooksConfig.enabled: false): persona-gate is never asked`,
  checkGeminiHookDisabled: (file: string) => `${file} disables persona-gate's hook (hooksConfig.disabled): it is never asked`,
  fixGeminiHooksOff: () => 'remove that setting; an administrator can pin hooks on in the system settings (/etc/gemini-cli/settings.json)',
  checkGeminiRedaction: () =>
    "Gemini strips the hook's environment here (GitHub Actions, or security.environmentVariableRedaction): the persona and stage variables do not reach the hook",
  fixGeminiRedaction: () =>
    'put PERSONA_GATE_PERSONA (and the others you use) in the hook entry\'s own "env", or list them in security.environmentVariableRedaction.allowed',
};

export type CliMessages = typeof cliEn;

export const cliEs: CliMessages = {
  verdictLine: (verdict, status, gate, rule) => `veredicto: ${verdict} (estado ${status}, puerta ${gate}, regla ${rule})`,
  reasonLine: (reason) => `motivo:    ${reason}`,
  callLine: (tool, what) => `llamada:   ${tool} → ${what}`,
  callKnown: (key, family, level, tier, owner, via) =>
    `${key} (familia ${family}, nivel ${level}, confirmación ${tier}${owner ? `, propietaria ${owner}` : ''}, vía ${via})`,
  callUnknown: (key, why) => `${key} (desconocida: ${why})`,
  notInCatalog: () => 'no está en el catálogo',
  matchedLine: (keys) => `órdenes:   ${keys}`,
  shellLine: (level, decided) =>
    decided === 0
      ? `línea:     nivel ${level}`
      : `línea:     nivel ${level}, decidido por ${decided === 1 ? 'la parte marcada' : 'las partes marcadas'} con *`,
  shellInvocation: (words, program, kind, level, reasonId, reason) =>
    `${words} — ${program}, tipo ${kind}, nivel ${level}${reasonId === null ? '' : `, motivo ${reasonId}: ${reason}`}`,
  shellPart: (words, level, reasonId, reason) => `${words} — nivel ${level}, motivo ${reasonId}: ${reason}`,
  personaLine: (persona, stage) => `persona:   ${persona ?? '(ninguna)'}   etapa: ${stage ?? '(ninguna)'}`,
  scopeLine: (families, allowed, ceiling) =>
    `alcance:   familias ${families ?? '(todas)'}; herramientas ${allowed ?? '(heredadas)'}; techo ${ceiling ?? '(ninguno)'}`,
  gatesLine: () => 'puertas:',
  outcome: (o) => ({ pass: 'pasa', refuse: 'rechaza', decide: 'decide' })[o],
  stateLine: (ops) => `estado:    aplicaría ${ops} (explain no cambia nada)`,
  sandboxLine: (holds) =>
    holds
      ? 'sandbox:   el sandbox de Claude Code impide aquí escribir los ficheros de persona-gate, así que la puerta 0 rechaza solo lo que claramente escribe uno; el núcleo rechaza el resto'
      : 'sandbox:   la configuración de Claude Code aquí no protege los ficheros de persona-gate en su sandbox, así que la puerta 0 rechaza lo que puede tocar uno',
  explainBoth: () => 'persona-gate explain: indica --event FICHERO o HERRAMIENTA [ENTRADA_JSON], no ambos',
  explainNeither: () => 'persona-gate explain: indica el nombre de una HERRAMIENTA (y su ENTRADA_JSON) o --event FICHERO',
  explainEventUnreadable: (file, detail) => `persona-gate explain: no se puede leer el evento ${file}: ${detail}`,
  explainEventShape: (detail) => `persona-gate explain: ${detail}`,
  explainNotPre: () => 'persona-gate explain: el evento debe ser PreToolUse',
  explainInputNotJson: (detail) => `persona-gate explain: ENTRADA_JSON no es JSON: ${detail}`,
  explainInputNotObject: () => 'persona-gate explain: ENTRADA_JSON debe ser un objeto JSON',
  badLevel: (level) =>
    `persona-gate: nivel desconocido ${level}${cerca(level, LEVEL_NAMES)} (none, read_only, workspace_write, process_exec, network)`,
  badConfirmOn: () => 'persona-gate: --confirm-on admite pre o post',
  listHeader: (persona, stage, ceiling, families, allowed) =>
    `persona ${persona}${stage ? `, etapa ${stage}` : ''}: techo ${ceiling}; familias ${families}; herramientas ${allowed ?? '(heredadas)'}`,
  listColumns: () => ['puede', 'conf.', 'nivel', 'orden', 'motivo / herramientas'],
  yes: () => 'sí',
  no: () => 'no',
  someLines: () => 'líneas',
  shellLines: (tool, level) => `${tool}: líneas de nivel ${level} o inferior (cada línea se juzga por lo que ejecuta)`,
  afterIdentity: () => '(tras una lectura de identidad)',
  listPersonasHeader: (path) => `personas de ${path} (persona-gate list --persona NOMBRE muestra lo que puede llamar una):`,
  listPersonaLine: (name, ceiling, families, stages, description) =>
    `  ${name.padEnd(20)} techo ${ceiling}; familias ${families}${stages ? `; etapas ${stages}` : ''}${description ? ` — ${description}` : ''}`,
  badFormat: (format) => `persona-gate list: formato desconocido ${format}${cerca(format, LIST_FORMATS)} (text, json o claude-permissions)`,
  residueWarning: (persona, commands) =>
    `aviso: personas.${persona}: ejecuta código que persona-gate no puede leer (shell, techo process_exec o más), así que aún puede llegar a ${commands.join(', ')} por esa vía. Ciérralo con "shell": "strict", un techo más bajo, controles en la propia herramienta o el sandbox del sistema del host (docs/threat-model.md).`,
  residueLine: (commands) =>
    `alcanzable con código que persona-gate no puede leer (rechazado si se nombra, no detenido si se oculta): ${commands.join(', ')}`,
  notePrefix: () => 'nota: ',
  warningPrefix: () => 'aviso: ',
  lockPins: (lock, servers) =>
    `el lock MCP ${lock} fija ${servers.join(', ')}: una herramienta de ${servers.length === 1 ? 'ese servidor' : 'esos servidores'} que el lock no lista se rechaza (not_pinned), sea cual sea la forma que le dé la política`,
  lockToolMissing: (path, tool) =>
    `${path}: ${tool} no está en el lock MCP, así que se rechaza (not_pinned) hasta que persona-gate pin la registre`,
  lockUnreadable: (lock, detail) =>
    `el lock MCP ${lock} no se puede leer (${detail}): toda herramienta MCP se rechaza (not_pinned) hasta que se repare o se vuelva a fijar`,
  programsHeader: (n) => `${n} programas que conoce el lector del shell (persona-gate programs NOMBRE muestra uno, con sus subórdenes):`,
  programsDeclared: (closed) => (closed ? '[lo declara la política: cerrado]' : '[lo declara la política]'),
  programsUnknown: (name, near) =>
    `persona-gate programs: ${name} no es un programa que conozcan el registro ni la política${near ? ` (¿quisiste decir ${near}?)` : ''}; una línea que lo ejecuta es process_exec y opaca. Decláralo en catalog.programs para que se lea.`,
  programsNoSummary: () => '(sin resumen)',
  programsLevel: (level, opaque, hasSubcommands) =>
    `nivel ${level}${opaque ? `, opaco (${opaque})${hasSubcommands ? ' sin suborden' : ''}` : ''}; opciones que cambian lo que hace una llamada:`,
  programsFromPolicy: (closed) =>
    closed
      ? 'declarado por la política, cerrado: solo pueden ejecutarse sus órdenes catalogadas'
      : 'declarado por la política (catalog.programs)',
  programsSubcommands: () => 'subórdenes:',
  programsOpaque: (reason) => `opaca: ${reason}`,
  programsEverySubcommand: () => 'opciones que toman la mayoría de las subórdenes:',
  programsUnknownSubcommand: (level, opaque) => `cualquier otra suborden: ${level}${opaque ? ', opaca' : ''}`,
  programsReader: (reader) => `lo lee además código: ${reader}`,
  programsWrapper: () => 'ejecuta otra orden:',
  programsWrapperLevel: () => 'el nivel de la orden que ejecuta; opciones que cambian lo que hace una llamada:',
  programsStrict: () => 'cualquier opción que no liste: opaca',
  programsCatalogued: () => 'órdenes catalogadas de la política:',
  // agents, launch
  agentsNone: (path) =>
    `persona-gate agents: ninguna persona de ${path} está vinculada a un tipo de agente (personas.NOMBRE.agent_types), así que no hay definición de subagente que escribir`,
  agentsWrote: (file, persona, n) => `escrito ${file}: ${n} herramienta${n === 1 ? '' : 's'} de la persona ${persona}`,
  agentsUpdated: (file, persona, added, removed) =>
    `actualizado ${file} (${persona}): herramientas${added.length > 0 ? ` + ${added.join(', ')}` : ''}${removed.length > 0 ? ` − ${removed.map((r) => (r === '*' ? 'todas las demás (no tenía clave tools)' : r)).join(', ')}` : ''}; el resto del fichero queda como estaba`,
  agentsUnchanged: (file, persona) => `${file}: coincide con la persona ${persona}`,
  agentsInSync: (n) => `${n} definicion${n === 1 ? '' : 'es'} de subagente coincide${n === 1 ? '' : 'n'} con la política`,
  agentsMissing: (file, persona) => `${file}: no existe (la persona ${persona} está vinculada a él)`,
  agentsDrift: (file, persona, extra, missing) =>
    `${file}: sus herramientas difieren de las que puede usar la persona ${persona}:${extra.includes('*') ? ' no tiene clave tools, así que se le ofrecen todas;' : extra.length > 0 ? ` ofrece ${extra.join(', ')};` : ''}${missing.length > 0 ? ` le faltan ${missing.join(', ')}` : ''}`.replace(
      /;$/,
      '',
    ),
  agentsFix: () => 'persona-gate agents reescribe las herramientas de cada una (y conserva el resto del fichero)',
  agentsDescription: (persona) => `Trabaja como la persona ${persona} de la política de persona-gate.`,
  agentsBody: (persona) =>
    `Trabajas como la persona ${persona}. Solo se te ofrecen las herramientas que esta persona puede usar; el hook de persona-gate sigue juzgando cada llamada, y sus rechazos dicen a quién pasar el trabajo.`,
  launchNoPersona: () => 'persona-gate launch: indica la persona con la que arrancar el host (--persona NOMBRE)',
  launchUnknownPersona: (name, accepted) =>
    `persona-gate launch: "${name}" no es una persona de esta política${cerca(name, accepted)}; se aceptan: ${accepted.join(', ')}`,
  launchUnknownStage: (persona, stage, accepted) =>
    `persona-gate launch: "${stage}" no es una etapa de la persona ${persona}${cerca(stage, accepted)}; se aceptan: ${accepted.length > 0 ? accepted.join(', ') : '(no tiene ninguna)'}`,
  launchHostUnsupported: (host) =>
    `persona-gate launch: no puede arrancar ${host} con sus herramientas restringidas: ${LAUNCH_LIMITS_ES[host] ?? 'no se conoce manera de restringir sus herramientas'}. El hook sigue juzgando allí cada llamada: fija la variable de persona (persona_env) y arráncalo como siempre.`,
  launchNoAgentType: (persona) =>
    `persona-gate launch --as-agent: la persona ${persona} no está vinculada a ningún tipo de agente (personas.${persona}.agent_types)`,
  launchNoDefinition: (file, persona) =>
    `persona-gate launch --as-agent: ${file} no existe; persona-gate agents lo escribe a partir de la persona ${persona}`,
  launchDefinitionDrift: (file, persona) =>
    `persona-gate launch --as-agent: las herramientas de ${file} difieren de las que puede usar la persona ${persona}; persona-gate agents las pone al día`,
  launchCannotStart: (program, detail) => `persona-gate launch: no se puede arrancar ${program}: ${detail}`,
  launchNotFound: () => 'no se encuentra (instálalo, o indícalo con --program RUTA)',
  launchDroidExec: () =>
    'persona-gate launch --host droid: Droid solo restringe sus herramientas en droid exec; da sus argumentos como -- exec [opciones] PROMPT',
  launchAsAgentClaudeOnly: () => 'persona-gate launch: --as-agent es para Claude Code (claude --agent)',
  launchCannotList: (program, detail) =>
    `persona-gate launch: no se puede saber qué herramientas tiene ${program} (${program} exec --list-tools): ${detail}`,
  valid: (path, personas, commands) =>
    `${path}: válida (${personas} ${personas === 1 ? 'persona' : 'personas'}, ${commands} ${commands === 1 ? 'orden' : 'órdenes'})`,
  problems: (n) => `${n} problema${n === 1 ? '' : 's'}`,
  notJsonFile: (path, detail) => `${path}: no es JSON válido: ${detail}`,
  notJsonAt: (path, line, column, detail) => `${path}:${line}:${column}: no es JSON válido: ${detail}`,
  trailingComma: () => 'una coma sin nada detrás (JSON no admite ninguna antes de } o ]): quítala',
  noPolicyFound: (searched) => `persona-gate: no se ha encontrado ninguna política (buscada en: ${searched || '(nada)'})`,
  cannotRead: (path, code) => `persona-gate: no se puede leer ${path}: ${code}`,
  sessionReset: (id) => `sesión ${id}: reiniciada`,
  sessionPersona: (id, persona) => `sesión ${id}: persona ${persona ?? '(ninguna)'}`,
  personaNameOrClear: () => 'persona-gate session persona: indica un NOMBRE de persona o --clear',
  notAPersona: (name, accepted) =>
    `persona-gate: "${name}" no es una persona de esta política${cerca(name, accepted)}; se aceptan: ${accepted}`,
  noSessionPersona: () => 'persona-gate stage: la sesión no tiene persona (persona-gate session persona NOMBRE --session ID)',
  notAStage: (stage, persona, accepted) =>
    `persona-gate stage: "${stage}" no es una etapa de ${persona}${cerca(stage, accepted)}; se aceptan: ${accepted || '(ninguna)'}`,
  entered: (id, persona, stage) => `sesión ${id}: ${persona} entra en la etapa ${stage}`,
  exited: (id, from, outcome, next) => `sesión ${id}: sale de la etapa ${from} (${outcome}) → ${next ?? '(sin etapa)'}`,
  inNoStage: (id) => `persona-gate stage exit: la sesión ${id} no está en ninguna etapa`,
  badOutcome: () => 'persona-gate stage exit: --outcome admite complete o failure',
  stateDirProblem: (detail) => `persona-gate: directorio de estado: ${detail}`,
  initWrotePolicy: (path, example) => `escrita ${path} (a partir del ejemplo ${example})`,
  initKeptPolicy: (path, cli) =>
    `se conserva la política existente ${path} (para empezar de nuevo desde un ejemplo: ${cli} init --example NOMBRE --force)`,
  initPolicyExists: (path, example) =>
    `persona-gate init: ${path} ya existe y no es el ejemplo ${example}, así que no se ha cambiado nada. Para sustituirla por el ejemplo ${example} (y su fichero de pruebas), añade --force: la política que hay se pierde, así que haz commit o cópiala antes`,
  initReplacedPolicy: (path, example) => `sustituida ${path} por el ejemplo ${example} (--force)`,
  initWroteTests: (path, cli) =>
    `escrito ${path}, las pruebas de la política del ejemplo: ${cli} test las ejecuta; añade un caso por cada regla que cambies`,
  initReplacedTests: (path, cli) => `sustituido ${path} por las pruebas de la política del ejemplo (--force): ${cli} test las ejecuta`,
  initRegistered: (path, events) => `registrado el hook para ${events} en ${path}`,
  initUnchanged: (path) => `${path} ya registra el hook: sin cambios`,
  initUnparsable: (path, detail) => `persona-gate init: ${path} no es JSON válido (${detail}); corrígelo a mano, no se ha cambiado nada`,
  initNotObject: (path, field) => `persona-gate init: ${path}: "${field}" no es un objeto; corrígelo a mano, no se ha cambiado nada`,
  initBadExample: (name, accepted) => `persona-gate init: ejemplo desconocido "${name}"${cerca(name, accepted)}; se aceptan: ${accepted}`,
  initBadLocale: (locale) => `persona-gate init: --locale admite en o es, no "${locale}"`,
  initReplaced: (old) => `sustituida la orden del hook ${old}: nombra una ruta de una sola máquina`,
  initProjectCommand: (command) =>
    `el hook ejecuta ${command}: la instalación del propio proyecto, igual en cada clon y en CI (cada persona del equipo ejecuta npm install)`,
  initGlobalCommand: (command) =>
    `el hook ejecuta ${command}: el persona-gate del PATH (una instalación global, npm i -g <un tarball o URL git de persona-gate: ver docs/install.md>); cada máquina que ejecute este proyecto lo necesita. Para usar una instalación del proyecto: npm install --save-dev <un tarball o URL git de persona-gate> y de nuevo persona-gate init`,
  initNotOnPath: () =>
    'aviso: persona-gate no está en el PATH aquí, así que se rechazará cada llamada a herramienta hasta que lo esté: npm i -g <un tarball o URL git de persona-gate: ver docs/install.md>, o npm install --save-dev <un tarball o URL git de persona-gate> y de nuevo persona-gate init',
  initNext: (cli) => `siguiente: ${cli} doctor, y después arranca Claude Code en este directorio`,
  initSandbox: (path, keys) => `activado el sandbox de Claude Code en ${path} (${keys})`,
  initSandboxKept: (path) => `${path} ya activa el sandbox, sin forma de salir de él: sin cambios`,
  initLaunchSettings: (path) =>
    `escritos en ${path} los ajustes del sandbox que un proyecto no debe anular: persona-gate launch se los pasa a Claude Code (--settings); para todas las sesiones de esta máquina, un administrador los copia a los ajustes gestionados`,
  initSandboxOptedOut: () =>
    `el sandbox se ha dejado apagado (--no-sandbox): la shell puede entonces escribir los ficheros de persona-gate por caminos que el hook no ve (un script que escribe y ejecuta, un intérprete), y el hook sigue rechazando cada línea que pueda tocar uno`,
  initSandboxMissing: (missing) =>
    `no se ha activado el sandbox: falta ${missing} (apt-get install bubblewrap socat, o dnf install bubblewrap socat); hasta entonces el hook rechaza cada línea que pueda tocar los ficheros de persona-gate, y el código que no ve aún puede cambiarlos. Ejecuta init de nuevo cuando estén instalados`,
  initSandboxNoPlatform: (platform) =>
    `no se ha activado el sandbox: Claude Code no tiene en ${platform}; el hook rechaza cada línea que pueda tocar los ficheros de persona-gate, y el código que no ve aún puede cambiarlos`,
  initGuarded: (path, n) =>
    `protegidos los ficheros de persona-gate frente a la shell y las herramientas de edición del agente en ${path} (${n} entrada${n === 1 ? '' : 's'} nueva${n === 1 ? '' : 's'} en sandbox.filesystem.denyWrite y permissions.deny)`,
  initGuardedKept: (path) => `${path} ya protege los ficheros de persona-gate: sin cambios`,
  initSandboxInstallInside: (root) =>
    `nota: el sandbox impide escribir en la instalación de persona-gate en ${root}, así que un npm ci o npm install que la sustituya falla en la shell del agente; ejecútalos tú, fuera del agente`,
  droidSandbox: (path) =>
    `activado el sandbox de Droid en ${path} (sandbox.enabled: true): cada orden de Execute corre bajo bubblewrap, y la configuración de un proyecto no puede apagarlo`,
  droidSandboxKept: (path) => `${path} ya activa el sandbox de Droid: sin cambios`,
  droidGuarded: (path, n) =>
    `protegidos los ficheros de persona-gate frente a la shell de Droid y sus herramientas Create, Edit y ApplyPatch en ${path} (${n} entrada${n === 1 ? '' : 's'} nueva${n === 1 ? '' : 's'} en sandbox.filesystem.denyWrite)`,
  droidReadOnlyDirs: (claude, factory) =>
    `nota: ${claude} y ${factory} son de solo lectura para el agente bajo el sandbox de Droid (si no, el directorio de un fichero protegido podría renombrarse); cámbialos tú, fuera del agente. Conserva ${claude}/commands y ${claude}/agents: sin ellos falla cada orden de la shell`,
  droidStateWritable: (stateDir) =>
    `Droid ejecuta los hooks dentro de su sandbox, así que el directorio de estado de persona-gate ${stateDir} está en sandbox.filesystem.allowWrite: la shell del agente también puede escribirlo, y el hook sigue rechazando cada línea que pueda tocarlo`,
  droidStateDenied: (stateDir) =>
    `el directorio de estado de persona-gate ${stateDir} está protegido contra escritura en el sandbox de Droid, que también ejecuta el hook: el hook no puede guardar su estado, y se rechaza cada llamada`,
  droidStateNotAllowed: (stateDir) =>
    `el directorio de estado de persona-gate ${stateDir} no está en sandbox.filesystem.allowWrite de Droid: el hook, también en el sandbox, no puede escribirlo, y se rechaza cada llamada`,
  droidSandboxOptedOut: () =>
    `el sandbox de Droid se ha dejado como estaba (--no-sandbox): su shell puede entonces escribir los ficheros de persona-gate por caminos que el hook no ve (un script que escribe y ejecuta, un intérprete)`,
  droidSandboxNoPlatform: (platform) =>
    `no se ha activado el sandbox de Droid: persona-gate solo lo activa en Linux, donde se ha medido, no en ${platform}`,
  droidSandboxOn: (path) => `el sandbox de Droid está activado (sandbox.enabled en ${path})`,
  droidSandboxOff: (path) =>
    `el sandbox de Droid no está activado en ${path}: la shell del agente puede escribir todo lo que este usuario puede`,
  droidDirNotDenied: (d) => `${d} no está protegido entero: un fichero protegido dentro puede renombrarse junto con su directorio`,
  droidPlaceholderMissing: (p) =>
    `falta ${p}: con .claude de solo lectura, el sandbox de Droid no puede crearlo, y falla cada orden de la shell`,
  initInstallInside: (root) =>
    `aviso: este persona-gate se ejecuta desde ${root}, dentro del proyecto, donde el agente puede cambiarlo; instálalo fuera (npm i -g <un tarball o URL git de persona-gate: ver docs/install.md>) y ejecuta persona-gate init --hardened desde allí`,
  initAdminHeader: () => 'requiere un administrador (init no lo hace):',
  initAdminManaged: (managed, user) =>
    `  - copia las entradas "hooks", "sandbox" y "permissions" de ${user} a ${managed} (propiedad de root): solo la configuración gestionada se mantiene cuando el .claude/settings.json de un proyecto desactiva el sandbox o la configuración del propio usuario quita el hook`,
  initAdminRoot: (managed) =>
    `  - aun como root, init no escribe ${managed}: se aplica a todos los usuarios y sesiones de esta máquina, así que revisa las entradas y cópialas tú`,
  initAdminInstall: (root) =>
    `  - este usuario puede escribir en ${root}: haz que se instale persona-gate donde el usuario del agente no pueda escribir (como root: npm i -g <un tarball o URL git de persona-gate: ver docs/install.md>) y vuelve a ejecutar persona-gate init --hardened desde esa instalación`,
  initAdminDeps: (missing) =>
    `  - instala los programas del sandbox (faltan ${missing}): apt-get install bubblewrap socat (Debian/Ubuntu) o dnf install bubblewrap socat (Fedora)`,
  initHardenedNext: (cli) => `siguiente: ${cli} doctor --hardened, y después arranca Claude Code en este proyecto`,
  doctorOk: () => 'ok  ',
  doctorWarn: () => 'aviso',
  doctorFail: () => 'FALLO',
  doctorFix: (fix) => `      solución: ${fix}`,
  doctorSummary: (fails, warns) =>
    fails === 0
      ? `todas las comprobaciones pasan${warns ? ` (${warns} aviso${warns === 1 ? '' : 's'})` : ''}`
      : `${fails} comprobación${fails === 1 ? '' : 'es'} fallida${fails === 1 ? '' : 's'}`,
  checkRegistered: (event, where) => `el hook está registrado para ${event} (${where})`,
  checkNotRegistered: (event) => `el hook no está registrado para ${event}`,
  checkFailureNotRegistered: () =>
    'el hook no está registrado para PostToolUseFailure: una llamada reescrita para el broker que falla conserva su registro, y un secreto que guardó arranca programas, durante 30 minutos',
  fixRegister: () => 'ejecuta persona-gate init',
  checkOnFailure: (event) => `el registro de ${event} tiene "onFailure": "block"`,
  checkNoOnFailure: (event) => `el registro de ${event} no tiene "onFailure": "block": un hook que falla o se mata deja pasar la llamada`,
  fixOnFailure: () => 'vuelve a ejecutar persona-gate init (añade el campo), o añade "onFailure": "block" a la entrada',
  checkCommand: (command) => `la orden del hook existe: ${command}`,
  checkNoCommand: (command) => `la orden del hook no existe: ${command}`,
  fixCommand: () =>
    'instala persona-gate en el proyecto (npm install --save-dev <un tarball o URL git de persona-gate>; en un clon, npm install) y ejecuta persona-gate init',
  checkNotOnPath: (program, command) =>
    `la orden del hook ${command} ejecuta ${program}, que no está en el PATH: se rechaza cada llamada a herramienta`,
  fixNotOnPath: () =>
    'npm i -g <un tarball o URL git de persona-gate: ver docs/install.md>; o npm install --save-dev <un tarball o URL git de persona-gate> en el proyecto y persona-gate init',
  checkStaleCommand: (target, file) =>
    `la orden del hook no existe: ${target} (${file} nombra una ruta de otra máquina o de una copia movida: se rechaza cada llamada a herramienta)`,
  checkMachineSpecific: (path, file) =>
    `la orden del hook en ${file} nombra ${path}, una ruta de esta máquina: en el clon de otra persona, en una copia movida o en CI se rechaza cada llamada a herramienta`,
  fixMachineSpecific: () => 'ejecuta persona-gate init: sustituye la entrada por una orden sin rutas y conserva todo lo demás',
  checkStateLater: (dir) => `el directorio de estado ${dir} aún no existe: el hook lo crea (modo 0700) al usarlo por primera vez`,
  stateParentReadOnly: (parent) => `no existe y no se puede escribir en ${parent}`,
  checkEnvPersona: (name, persona) => `${name}=${persona} es una persona de la política`,
  checkEnvPersonaUnknown: (name, persona, accepted) =>
    `${name}=${persona} no es una persona de la política (se aceptan: ${accepted}): se rechaza cada llamada a herramienta`,
  fixEnvPersona: (name) => `corrige o quita ${name}`,
  checkEnvStage: (name, stage) => `${name}=${stage} es una etapa de la persona`,
  checkEnvStageUnknown: (name, stage, persona, accepted) =>
    persona
      ? `${name}=${stage} no es una etapa de ${persona} (se aceptan: ${accepted || '(ninguna)'}): se rechaza cada llamada a herramienta`
      : `${name}=${stage} nombra una etapa, pero no hay persona: se rechaza cada llamada a herramienta`,
  checkPolicy: (path) => `la política ${path} es válida`,
  checkNoPolicy: () => 'no se ha encontrado ninguna política',
  fixPolicy: () => 'ejecuta persona-gate init, o apunta PERSONA_GATE_CONFIG a una política',
  checkInvalidPolicy: (path, n) => `la política ${path} tiene ${n} problema${n === 1 ? '' : 's'}`,
  fixInvalidPolicy: () => 'ejecuta persona-gate validate y corrige lo que indica',
  checkState: (dir) => `el directorio de estado ${dir} es privado`,
  checkStateBad: (dir, detail) => `el directorio de estado ${dir} no se puede usar: ${detail}`,
  fixState: (dir) => `elimina o corrige ${dir} (debe ser un directorio tuyo, modo 0700)`,
  checkNode: (version) => `Node ${version}`,
  checkNodeOld: (version) => `Node ${version} es anterior a la 20`,
  fixNode: () => 'instala Node 20 o posterior',
  checkClaude: (version) => `Claude Code ${version} respeta "onFailure": "block"`,
  checkClaudeOld: (version) => `Claude Code ${version} ignora "onFailure": "block": un hook que falla o se mata deja pasar la llamada`,
  fixClaude: () => 'actualiza Claude Code a la 2.1.332 o posterior',
  checkNoClaude: () => 'no se encuentra claude en el PATH: no se puede comprobar la versión del anfitrión',
  fixNoClaude: () => 'instala Claude Code, o ignóralo si otro anfitrión ejecuta el hook',
  doctorHardened: () => 'despliegue reforzado (lo que el agente no puede desactivar):',
  hardInstallOutside: (root) => `persona-gate se ejecuta desde ${root}, fuera del espacio de trabajo`,
  hardInstallInside: (root) =>
    `persona-gate se ejecuta desde ${root}, dentro del espacio de trabajo: el agente puede cambiar el programa que lo juzga`,
  fixInstallInside: () =>
    'instálalo fuera del proyecto (npm i -g <un tarball o URL git de persona-gate: ver docs/install.md>) y ejecuta persona-gate init --hardened desde esa instalación',
  hardInstallWritable: (root) => `este usuario puede escribir en ${root}: solo el sandbox impide que la shell del agente lo cambie`,
  fixInstallWritable: () =>
    'haz que un administrador lo instale como propiedad de root (sudo npm i -g <un tarball o URL git de persona-gate: ver docs/install.md>)',
  hardInstallReadOnly: (root) => `este usuario no puede escribir en ${root}`,
  hardRegisteredManaged: (path) => `el hook está registrado en la configuración gestionada (${path})`,
  hardRegisteredUser: (path) => `el hook está registrado a nivel de usuario (${path})`,
  hardRegisteredProjectOnly: (path) => `el hook no está registrado a nivel de usuario (${path}): solo lo arranca un fichero del proyecto`,
  hardNotManaged: (path) =>
    `el hook no está registrado en la configuración gestionada (${path}): la configuración del propio usuario puede quitarlo`,
  fixManaged: (path) =>
    `haz que un administrador copie las entradas "hooks", "sandbox" y "permissions" de la configuración de usuario a ${path}`,
  hardSandboxOn: () => 'el sandbox de Claude Code está activado (sandbox.enabled)',
  hardSandboxOff: () => 'el sandbox de Claude Code está desactivado: la shell del agente puede escribir todo lo que este usuario puede',
  checkSandboxHolds: () =>
    'el sandbox de Claude Code está activado, sin salida, y protege la política contra escritura: el núcleo rechaza lo que la shell escriba en los ficheros de persona-gate',
  checkSandboxOff: () =>
    'el sandbox de Claude Code no protege aquí los ficheros de persona-gate (apagado, con salida, o sin la política protegida): solo el hook se interpone entre la shell y ellos, y rechaza cada línea que pueda tocar uno',
  fixSandboxOff: () => 'instala bubblewrap y socat (Linux) y ejecuta de nuevo persona-gate init sin --no-sandbox',
  hardSandboxTurnedOff: (files) => `la configuración del proyecto desactiva el sandbox de Claude Code (${files})`,
  fixSandboxTurnedOff: (managed) =>
    `quita "enabled": false de su "sandbox"; para que se mantenga frente a cualquier proyecto, haz que un administrador fije sandbox.enabled en ${managed}`,
  hardNoEscape: () => 'las órdenes en el sandbox no tienen salida (sandbox.allowUnsandboxedCommands: false)',
  hardEscape: () => 'una orden puede salir del sandbox con dangerouslyDisableSandbox (sandbox.allowUnsandboxedCommands no es false)',
  hardFailIfUnavailable: () => 'Claude Code se niega a arrancar si el sandbox no puede (sandbox.failIfUnavailable)',
  hardNoFailIfUnavailable: () =>
    'si el sandbox no puede arrancar, Claude Code ejecuta las órdenes fuera de él (sandbox.failIfUnavailable no es true)',
  hardSandboxDeps: () => 'los programas del sandbox están instalados (bwrap, socat)',
  hardNoSandboxDeps: (missing) => `faltan los programas del sandbox: ${missing}`,
  hardSandboxProgramChangeable: (path) =>
    `${path}, el primero de los programas del sandbox en PATH, puede cambiarlo un usuario distinto de root: Claude Code lo ejecuta fuera del sandbox`,
  fixSandboxDeps: () => 'apt-get install bubblewrap socat (Debian/Ubuntu) o dnf install bubblewrap socat (Fedora)',
  fixSandboxProgramChangeable: () => 'elimínalo, o pon los directorios del sistema (/usr/bin) primero en PATH para Claude Code',
  hardWhatState: () => 'el directorio de estado de persona-gate',
  hardWhatPolicy: () => 'la política',
  hardWhatSettings: () => 'el fichero de configuración de usuario',
  hardGuarded: (what, path) => `${what} ${path} no se puede escribir desde la shell en el sandbox ni con las herramientas de edición`,
  hardNotGuarded: (what, path) =>
    `${what} ${path} no está protegido frente a la shell en el sandbox ni frente a las herramientas de edición`,
  hardPolicyOutside: (path) => `la política ${path} está fuera del espacio de trabajo`,
  fixHardened: () => 'ejecuta persona-gate init --hardened',
  initLaunched: (name, program) =>
    `${name} (${program}) solo se inicia ya a través del lanzador de persona-gate, con cada inicio comprobado; la shell en el sandbox no lo alcanza, y los programas que ejecuta una llamada lo inician a través de su shim, juzgados por el intermediario de persona-gate`,
  initNotLaunched: (name, why) => `${name} no se lanza: ${why}; sus órdenes catalogadas las comprueba solo el lector de la shell`,
  initProfileGuarded: (path) =>
    `el perfil activo del dominio (${path}) no lo pueden escribir la shell en el sandbox ni las herramientas de edición: solo lo cambia el programa lanzado, juzgado`,
  launcherNotOnPath: () => 'no está en el PATH',
  launchInProject: (path) => `el del PATH (${path}) está dentro del proyecto`,
  launchSystem: (path) => `${path} es un programa del sistema que otros programas ejecutan, y ocultarlo los rompería`,
  launchOddPath: (path) => `su ruta ${path} tiene caracteres que un patrón de la configuración no admite`,
  launchNoPolicy: (path) => `la política ${path} no es válida, así que no se lanza ningún programa`,
  hardLaunched: (name, program) =>
    `${name} (${program}) solo se inicia a través del lanzador y está oculto para la shell en el sandbox y la herramienta Read`,
  hardNotExcluded: (name, entry) => `${name}: el lanzador no es la orden excluida (a sandbox.excludedCommands le falta "${entry}")`,
  hardNotHidden: (name, path) =>
    `${name}: ${path} es legible desde la shell en el sandbox o la herramienta Read (sandbox.filesystem.denyRead, permissions.deny Read(//…))`,
  hardNoLauncher: (path) => `el lanzador ${path} falta o no es ejecutable`,
  hardProfileGuarded: (path) =>
    `el perfil activo del dominio (${path}) no lo pueden escribir la shell en el sandbox ni las herramientas de edición`,
  hardProfileOpen: (path) =>
    `el perfil activo del dominio (${path}) se puede escribir desde la shell en el sandbox o con las herramientas de edición (sandbox.filesystem.denyWrite, permissions.deny Edit(//…)): un cambio de perfil ahí no se juzga`,
  hardNoLaunchMap: (names) => `los programas catalogados (${names}) no se lanzan: la shell del agente los alcanza sin comprobar`,
  hardProjectExcluded: (file, entries) =>
    `${file} saca órdenes del sandbox (sandbox.excludedCommands: ${entries}): fuera de él, un programa lanzado está ahí sin comprobar`,
  fixProjectExcluded: (managed) =>
    `quítalas, o pon sandbox.allowUnsandboxedCommands: false en ${managed} (la configuración gestionada se impone a la del proyecto; un false de usuario no)`,
  hardAllInPlace: (n) => `las ${n} partes están en su sitio`,
  hardGrouped: (missing, n) =>
    `${missing} de sus ${n} partes no están en su sitio: el shell del agente puede alcanzar lo que solo el hook protege`,
  fixHardenedList: (cli) => `${cli} doctor --hardened muestra cada parte y cómo arreglarla`,
  sessionUnknown: (id) => `persona-gate: no hay ninguna sesión ${id} (las sesiones que ha visto persona-gate: persona-gate log)`,
  sessionAmbiguous: (prefix, ids) =>
    `persona-gate: ${ids.length} sesiones empiezan por ${prefix}; indica más caracteres:\n${ids.map((id) => `  ${id}`).join('\n')}`,
  statusPolicy: (path, sha) => `política: ${path} (válida, sha256 ${sha.slice(0, 12)})`,
  statusPolicyInvalid: (path, n) =>
    `política: ${path} (NO VÁLIDA: ${n} problema${n === 1 ? '' : 's'}; persona-gate validate): se rechaza cada llamada a herramienta`,
  statusNoPolicy: () => 'política: no se ha encontrado ninguna: se rechaza cada llamada a herramienta (persona-gate init)',
  statusSession: (id) => `sesión:   ${id}`,
  statusNoSession: () => 'sesión:   ninguna todavía con esta política',
  statusPersonaLabel: () => 'persona: ',
  statusStageLabel: () => 'etapa:   ',
  statusIdentityLabel: () => 'identidad:',
  statusUnscoped: () => '(sin persona)',
  statusPersona: (persona, source, envName) =>
    `${persona} (${source === 'env' ? `del entorno, ${envName}` : source === 'session' ? 'fijada para la sesión: persona-gate session persona' : 'del tipo de agente de la última llamada'})`,
  statusStage: (stage, source, envName) =>
    `${stage} (${source === 'env' ? `del entorno, ${envName}` : 'fijada para la sesión: persona-gate stage'})`,
  statusNone: () => '(ninguna)',
  statusNoIdentityGate: () => '(la política no tiene puerta de identidad)',
  statusConfirmed: (label) => `confirmada${label ? `, perfil ${label}` : ''}`,
  statusNotConfirmed: () => 'sin confirmar: se rechaza la primera llamada que cambia algo hasta una lectura de identidad',
  statusLast: () => 'últimas decisiones:',
  lineNoPolicy: () => 'persona-gate: sin política',
  lineInvalidPolicy: () => 'persona-gate: política no válida',
  lineUnscoped: () => 'sin persona',
  lineConfirmed: () => 'identidad ✓',
  lineNotConfirmed: () => 'identidad sin confirmar',
  lineUnknown: () => 'persona-gate: ?',
  uninstallRemoved: (path, events) => `quitado el hook para ${events} de ${path}`,
  uninstallRemovedFile: (path, events) => `quitado el hook para ${events}: ${path} no tenía nada más, así que se ha borrado`,
  uninstallNothing: (path) => `${path} no registra ningún hook de persona-gate: sin cambios`,
  uninstallKeptPolicy: (path) => `se conserva la política ${path} (--purge la borra)`,
  uninstallSandboxRemoved: (path) => `quitados de ${path} los ajustes del sandbox que init escribió para persona-gate`,
  uninstallPolicyRemoved: (path) => `borrada la política ${path}`,
  uninstallTestsRemoved: (path) => `borradas las pruebas de la política ${path}`,
  uninstallKeptTests: (path) => `se conservan las pruebas de la política ${path}: ya no son las del ejemplo (bórralas a mano)`,
  uninstallNoPolicy: (path) => `no hay política en ${path}`,
  uninstallElsewhere: (path) => `${path} aún registra el hook (init no lo escribió ahí): quita esa entrada a mano`,
  uninstallTookBack: (path, what) =>
    `quitado lo que init añadió a ${path}${what.length > 0 ? `: ${what.join(', ')}` : ''}; se conserva el resto`,
  uninstallTookBackFile: (path, what) =>
    `quitado lo que init añadió a ${path}${what.length > 0 ? ` (${what.join(', ')})` : ''}: init había creado el archivo y no tenía nada más, así que se ha borrado`,
  uninstallRestored: (path, what) =>
    `quitado lo que init añadió a ${path}${what.length > 0 ? ` (${what.join(', ')})` : ''}: vuelve a estar como antes de init`,
  uninstallHookTakenBack: (path, events) => `quitado de ${path} el hook que init --hardened registró para ${events}`,
  uninstallDirRemoved: (path) => `borrado el directorio vacío ${path}, que creó init`,
  installRecordBad: (path, reason) =>
    `${path} no es el registro de lo que añadió init (${reason}): no se ha cambiado nada. Apártalo y quita a mano las entradas de persona-gate, o ejecuta persona-gate init de nuevo para registrarlas otra vez`,
  logNothing: () => 'ningún recibo coincide',
  logTitle: (n, sessions, from, to) =>
    `persona-gate log: ${n} ${n === 1 ? 'decisión' : 'decisiones'}${sessions > 1 ? ` en ${sessions} sesiones` : ''}, ${to === null ? from : `de ${from} a ${to}`} (UTC)`,
  logFollowTitle: () => 'persona-gate log --follow: cada decisión según se toma, hasta que se interrumpa (Ctrl-C)',
  viewOneSession: (id) =>
    `Todas las filas son una sesión, ${id}: lo que deja una llamada (una identidad confirmada, la cuenta de una etapa) vale para las siguientes.`,
  viewColumns: () => ['hora', 'sesión', 'persona', 'veredicto', 'llamada'],
  viewUnscoped: () => '(sin persona)',
  viewLegend: () => [
    ['deny', 'rechazada: el motivo debajo dice por qué y qué hacer en su lugar'],
    ['ask', 'se pide al usuario que confirme antes de ejecutarla'],
    ['allow', 'aprobada'],
    [
      'abstain',
      'se deja pasar: persona-gate no tiene objeción y no dice nada, así que deciden las reglas de permisos del propio anfitrión',
    ],
    [
      '(recorded)',
      'no es una llamada: un evento que el anfitrión envió tras una llamada (PostToolUse) o al empezar la sesión, registrado porque cambió la sesión (una lectura de identidad confirmó el perfil)',
    ],
    ['deny*', 'modo auditoría: el veredicto que daría la política; se respondió a la llamada como si pasara'],
  ],
  badSince: (value) =>
    `persona-gate log: --since admite una fecha u hora ISO (2026-11-30, 2026-11-30T10:00:00Z) o una duración hacia atrás (30m, 2h, 1d), no "${value}"`,
  badLimit: (value) => `persona-gate log: --limit admite un número entero de recibos, 1 o más, no "${value}"`,
  configUnknownKey: (key, accepted) => `persona-gate config: clave desconocida "${key}"${cerca(key, accepted)}; se aceptan: ${accepted}`,
  configBadValue: (key, detail) => `persona-gate config: valor no válido para ${key}: ${detail}`,
  configSet: (key, value) => `${key} = ${value}`,
  configUnset: (key) => `${key} no está fijada`,
  configNeedsValue: () => 'persona-gate config set: indica una CLAVE y un VALOR (persona-gate config set locale es)',
  configNeedsKey: (action) => `persona-gate config ${action}: indica una CLAVE (locale, policy o stateDir)`,
  configActions: (action) => `persona-gate config: acción desconocida "${action}": get CLAVE, set CLAVE VALOR, unset CLAVE o list`,
  auditLine: (would, answered) =>
    `auditoría: la política ${would === 'deny' ? 'denegaría' : would === 'ask' ? 'preguntaría por' : `daría ${would} a`} esta llamada; en modo audit el hook responde ${answered}, como si pasara`,
  testFileHeader: (file, policy) => `${file} (política ${policy})`,
  testError: () => 'ERROR',
  testOk: () => 'ok  ',
  testFail: () => 'FALLA',
  testExpected: (want, got) => `se esperaba ${want}; se obtuvo ${got}`,
  testDecided: (key, persona, stage, gate, rule) =>
    `${key} como ${persona ?? '(sin persona)'}${stage ? `/${stage}` : ''}: puerta ${gate}, regla ${rule}`,
  testReason: (reason) => `motivo: ${reason}`,
  testReasonMissing: (text) => `el motivo no contiene ${JSON.stringify(text)}`,
  testAnswered: (verdict) => `modo audit: el hook responde ${verdict}`,
  testBefore: (calls) => `llamadas anteriores: ${calls.join('; ')}`,
  testSummary: (passed, failed) => `${passed} superada${passed === 1 ? '' : 's'}, ${failed} fallida${failed === 1 ? '' : 's'}`,
  testFileUnreadable: (file, detail) => `no se puede leer ${file}: ${detail}`,
  noSuchFile: () => 'no existe el fichero',
  testFileInvalid: (file, problems) => `${file} no es un fichero de pruebas válido:\n${problems.map((p) => `  ${p}`).join('\n')}`,
  replayNotFound: (path) => `persona-gate replay: ${path} no existe`,
  replayNothing: (path) => `persona-gate replay: no hay ninguna transcripción (*.jsonl) en ${path}`,
  replayReading: (i, n) => `leyendo transcripciones ${i}/${n}`,
  replayProgress: (done, total) => `${done}/${total} pasos`,
  replayColumns: () => ['#', 'sesión', 'persona', 'llamada', 'veredicto', 'estado', 'motivo'],
  replayUnscoped: () => '(sin persona)',
  replaySummaryHeading: () => 'por persona, orden y estado:',
  replaySummaryColumns: () => ['persona', 'orden', 'estado', 'veredicto', 'llamadas'],
  replayAuditNote: () => '* modo audit: el veredicto que daría la política; la llamada se respondió como si pasara',
  replayTotals: (calls, sessions, files, c) =>
    `${calls} llamada${calls === 1 ? '' : 's'} en ${sessions} sesi${sessions === 1 ? 'ón' : 'ones'} (${files} transcripci${files === 1 ? 'ón' : 'ones'}): ${c.deny} rechazada${c.deny === 1 ? '' : 's'}, ${c.ask} con pregunta, ${c.allow + c.abstain} dejada${c.allow + c.abstain === 1 ? '' : 's'} pasar (${c.allow} allow, ${c.abstain} abstain)`,
  replayLines: (lines, other, skipped, detail) =>
    `${lines} líneas leídas: ${other} sin llamadas a herramientas, ${skipped} no entendidas y omitidas${detail.length > 0 ? ` (${detail.join(', ')})` : ''}`,
  replayUnreadable: (what) => `no se pudo leer ${what}`,
  hostTrusted: (dir, path) =>
    `${dir} marcado como de confianza en ${path}: Gemini CLI solo ejecuta los hooks de un proyecto en una carpeta de confianza`,
  hostTrustKept: (dir, path) => `${dir} ya es de confianza en ${path}`,
  hostLetsThrough: (host, items) => `lo que ${host} deja pasar, responda lo que responda persona-gate: ${items.join('; ')}`,
  hostLetsThroughHeading: (host) => `Lo que ${host} deja pasar, responda lo que responda persona-gate:`,
  hostNext: (title, host, cli) => `siguiente: ${cli} doctor --host ${host}, y después inicia ${title} en este directorio`,
  hostFailsOpen: {
    codex: [
      'un hook en el que no confía se omite sin aviso (doctor comprueba la confianza)',
      'un hook que sale con 1, agota el tiempo o imprime algo que Codex no entiende deja ejecutar la herramienta (persona-gate deniega en su propio plazo, 5 s, antes del límite de 10 s)',
      'Codex no tiene ask: persona-gate responde con un deny a la llamada que necesita a una persona',
    ],
    copilot: [
      'un hook que agota el tiempo, o imprime algo que no es JSON con 0, deja ejecutar la herramienta (persona-gate deniega en su propio plazo, 5 s, antes del límite de 10 s)',
      'en una carpeta sin confianza, Copilot omite sin aviso los .github/hooks del proyecto (init marca la carpeta; doctor lo comprueba)',
      'disableAllHooks: true en .github/copilot/settings.json o settings.local.json de una carpeta de confianza desactiva todos los hooks, también los de usuario (doctor lo comprueba)',
      'también se ejecutan los hooks del .claude/settings.json de un proyecto de confianza, con los eventos de Copilot',
      'Copilot no tiene ask: persona-gate responde con un deny a la llamada que necesita a una persona',
    ],
    gemini: [
      'un hook que sale con 1, agota el tiempo, muere, imprime texto que no es JSON con 0, o sale con 2 sin nada en stderr deja ejecutar la herramienta (persona-gate deniega en su propio plazo, 5 s, antes del límite de 10.000 ms, y nunca sale con 2 sin motivo)',
      'en una carpeta sin confianza, Gemini no ejecuta ningún hook, tampoco los de usuario (doctor comprueba la confianza)',
      'hooksConfig.enabled: false, o persona-gate en hooksConfig.disabled, en la configuración del proyecto o del usuario desactiva el hook (doctor lo comprueba; un administrador puede fijar los hooks en /etc/gemini-cli/settings.json)',
      'en GitHub Actions, o con security.environmentVariableRedaction, las variables de persona no llegan al hook salvo que las ponga el env de la propia entrada',
      'Gemini ignora el JSON de Claude Code: el hook debe registrarse con --host gemini',
    ],
    qwen: [
      'un hook que sale con 1 o 3, agota el tiempo, imprime algo que Qwen Code no entiende, o sale con 2 sin nada en stderr deja ejecutar la herramienta (persona-gate deniega en su propio plazo, 5 s, antes del límite de 10.000 ms, y nunca sale con 2 sin motivo)',
      'un .qwen/settings.json de proyecto con "disableAllHooks": true desactiva todos los hooks, también los de usuario (doctor lo comprueba; fíjalo a false en /etc/qwen-code/settings.json)',
      'qwen --safe-mode y --bare no ejecutan hooks',
      'con security.folderTrust activado, se omiten los hooks de proyecto de una carpeta sin confianza',
      'sin interfaz, un ask es un deny; persona-gate responde con un deny a la llamada que necesita a una persona',
    ],
    droid: [
      'un hook que sale con 1, falla, agota el tiempo o imprime algo que no es JSON deja ejecutar la herramienta (persona-gate deniega en su propio plazo, 5 s, antes del límite de 10 s)',
      'un ask no bloquea con --auto high: persona-gate responde con un deny a la llamada que necesita a una persona',
      'un hooks.json envuelto en {"hooks": …} se ignora sin aviso (init escribe los eventos en el nivel superior)',
    ],
  },
  fixRegisterHost: (host) => `ejecuta persona-gate init --host ${host}`,
  checkHostFlag: (command, host) =>
    `la orden del hook ${command} no dice --host ${host}: sus respuestas tienen una forma que ${host} puede no respetar`,
  checkHostTimeout: (timeout, unit) =>
    `el límite del hook es ${timeout} ${unit}: no supera el plazo propio de persona-gate, 5 s, así que el host puede rendirse antes y ejecutar la herramienta`,
  checkHostTrusted: (dir, path) => `${dir} es una carpeta de confianza (${path})`,
  checkHostUntrusted: (dir, path) => `${dir} no es una carpeta de confianza en ${path}: Gemini CLI omite ahí los hooks del proyecto`,
  badHost: (value, names) => `persona-gate: --host acepta ${names}, no ${value}${cerca(value, names)}`,
  hardenedClaudeOnly: () => '--hardened es para Claude Code (su sandbox y su configuración gestionada); quítalo con --host',
  copilotTrusted: (dir, path) =>
    `${dir} marcado como de confianza en ${path}: Copilot solo lee los .github/hooks de un proyecto en una carpeta de confianza, y en otra los omite sin aviso`,
  checkCopilotUntrusted: (dir, path) =>
    `${dir} no es una carpeta de confianza en ${path}: Copilot omite sin aviso los .github/hooks del proyecto, y toda herramienta se ejecuta`,
  checkCopilotHooksOff: (file) =>
    `${file} desactiva todos los hooks de Copilot (disableAllHooks: true), también los de usuario: persona-gate nunca es consultado`,
  fixCopilotHooksOff: () => 'quita ese ajuste',
  codexTrusted: (count, path) =>
    `registrada la confianza en las ${count} entradas de hook de persona-gate en ${path}: Codex omite sin aviso un hook en el que no confía`,
  codexConfigUnparsable: (path, problem) => `no se puede leer ${path} como TOML (${problem}): no se ha cambiado nada`,
  fixCodexConfig: () => 'corrige el config.toml y ejecuta de nuevo persona-gate init --host codex',
  codexProfileTaken: (path, name) =>
    `${path} ya define un perfil de permisos llamado ${name} que no escribió persona-gate: no se ha cambiado nada; cámbiale el nombre y ejecuta init de nuevo`,
  codexSandboxOptedOut: () =>
    `el sandbox de Codex se ha dejado como estaba (--no-sandbox): su shell puede entonces escribir los ficheros de persona-gate por caminos que el hook no ve (un script que escribe y ejecuta, un intérprete, un enlace), y el hook sigue rechazando cada línea que pueda tocar uno`,
  codexSandboxNoPlatform: (platform) =>
    `no se ha activado el sandbox de Codex: persona-gate lo activa solo en Linux y macOS, no en ${platform}; el código que el hook no ve puede seguir cambiando los ficheros de persona-gate`,
  codexSandbox: (path, profile, n) =>
    `activado el sandbox de Codex en ${path}: el perfil de permisos ${profile} deja escribir en el proyecto y en los directorios temporales y prohíbe escribir en los ficheros de persona-gate (${n} ruta${n === 1 ? '' : 's'} de solo lectura) a cada orden que lance la shell del agente`,
  codexSandboxKept: (path) => `${path} ya tiene el perfil de sandbox de persona-gate: sin cambios`,
  codexReadOnlyDirs: (claude) =>
    `nota: ${claude} es de solo lectura para el agente bajo el sandbox de Codex (si no, el directorio de un fichero protegido podría renombrarse), y el propio Codex deja .git de solo lectura (git status funciona, git commit no); cámbialos tú, fuera del agente`,
  codexProfileChosenElsewhere: (path, profile, ours) =>
    `${path} ya elige el perfil de permisos ${profile} (default_permissions): se mantiene; el perfil ${ours} de persona-gate queda escrito, pero solo rige con default_permissions = "${ours}"`,
  codexSandboxModeSet: (path, mode) =>
    `${path} fija sandbox_mode = "${mode}": Codex usa entonces su configuración antigua de sandbox, que no puede prohibir escribir en una ruta, en lugar de un perfil de permisos; quita sandbox_mode (y [sandbox_workspace_write]) para que rija el perfil de persona-gate`,
  codexSandboxOff: (path) =>
    `${path} no elige ningún perfil de permisos: el sandbox de Codex no protege los ficheros de persona-gate, y el código que el hook no ve puede cambiarlos`,
  codexProfileActive: (profile, path) => `Codex ejecuta su shell con el perfil de permisos ${profile} (${path})`,
  codexProbeFailed: (bin, detail) =>
    `no se pudo ejecutar una orden en el sandbox de Codex (${bin} sandbox): ${detail}; no se sabe si protege los ficheros de persona-gate`,
  fixCodexProbe: () =>
    'pon el programa codex en el PATH (o nómbralo en PERSONA_GATE_CODEX_BIN); en Linux el sandbox necesita espacios de nombres de usuario, y un CODEX_HOME fuera del directorio temporal',
  codexGuardWritable: (path, profile) => `${path} se puede escribir desde el sandbox de Codex con el perfil ${profile}`,
  codexSandboxHolds: (profile, n) =>
    `el sandbox de Codex (perfil ${profile}) prohíbe escribir en las ${n} rutas protegidas de persona-gate aquí (comprobado con codex sandbox)`,
  codexSandboxRemoved: (path) => `quitado de ${path} el perfil de sandbox de persona-gate`,
  codexTrustKept: (path) => `${path} ya confía en las entradas de hook de persona-gate`,
  checkCodexTrusted: (key) => `Codex confía en el hook ${key}`,
  checkCodexUntrusted: (key, path) =>
    `Codex no tiene registrada la confianza en el hook ${key} en ${path}: lo omite sin aviso, y toda herramienta se ejecuta`,
  checkCodexModified: (key, path) =>
    `la confianza registrada para el hook ${key} en ${path} es de otra orden, límite o matcher: Codex omite el hook, y toda herramienta se ejecuta`,
  checkCodexDisabled: (key, path) => `${path} desactiva el hook ${key} (enabled = false): toda herramienta se ejecuta`,
  checkQwenPinned: (file) => `${file} fija disableAllHooks a false: ningún proyecto puede desactivar el hook`,
  checkQwenHooksOff: (file) => `${file} desactiva todos los hooks de Qwen Code (disableAllHooks: true): persona-gate nunca es consultado`,
  checkQwenNotPinned: (file) =>
    `nada fija los hooks de Qwen Code: un .qwen/settings.json de proyecto con "disableAllHooks": true desactiva persona-gate`,
  fixQwenHooksOff: (file) =>
    `un administrador puede poner "disableAllHooks": false en ${file}, que ningún ajuste de proyecto o usuario anula`,
  checkGeminiHooksOff: (file) =>
    `${file} desactiva todos los hooks de Gemini (hooksConfig.enabled: false): persona-gate nunca es consultado`,
  checkGeminiHookDisabled: (file) => `${file} desactiva el hook de persona-gate (hooksConfig.disabled): nunca es consultado`,
  fixGeminiHooksOff: () =>
    'quita ese ajuste; un administrador puede fijar los hooks en la configuración del sistema (/etc/gemini-cli/settings.json)',
  checkGeminiRedaction: () =>
    'Gemini elimina aquí el entorno del hook (GitHub Actions, o security.environmentVariableRedaction): las variables de persona y etapa no llegan al hook',
  fixGeminiRedaction: () =>
    'pon PERSONA_GATE_PERSONA (y las demás que uses) en el "env" de la propia entrada del hook, o inclúyelas en security.environmentVariableRedaction.allowed',
};

export const CLI_MESSAGES = { en: cliEn, es: cliEs };

/** The line a JSON error is on, numbered, with a caret under the place, as compilers show it. */
export function jsonExcerpt(at: JsonErrorAt): string[] {
  const number = String(at.line);
  return [`  ${number} | ${at.excerpt[0]}`, `  ${' '.repeat(number.length)} | ${at.excerpt[1]}`];
}

/** A JSON text's parse error in the CLI's words: where, what, and the line with a caret; `null` when it is JSON. */
export function jsonProblem(t: CliMessages, path: string, text: string, err: unknown): string {
  const at = jsonErrorAt(text, err);
  if (at === null) return t.notJsonFile(path, err instanceof Error ? err.message : String(err));
  return [t.notJsonAt(path, at.line, at.column, at.trailingComma ? t.trailingComma() : at.detail), ...jsonExcerpt(at)].join('\n');
}

/**
 * What the user reads: PERSONA_GATE_LOCALE, else the user's preference, else the policy's locale,
 * else English. (What the model reads follows the policy's locale first: core/decide localeFor.)
 */
export function cliLocale(env: Env, index?: PolicyIndex | null): 'en' | 'es' {
  const fromEnv = env.PERSONA_GATE_LOCALE;
  if (fromEnv === 'en' || fromEnv === 'es') return fromEnv;
  return readPreferences(env).locale ?? index?.settings.locale ?? 'en';
}

export function cliMessages(env: Env, index?: PolicyIndex | null): CliMessages {
  return CLI_MESSAGES[cliLocale(env, index)];
}
