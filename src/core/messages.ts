/**
 * Every sentence persona-gate shows, in English and Spanish. Refusals are written for the model
 * that reads them: what was refused, why, and what to do instead.
 */
import { tablesOnFirstUse } from './locale-tables';
import { didYouMean } from './nearest';

export type Locale = 'en' | 'es';

const list = (items: readonly string[]) => (items.length === 0 ? '(none)' : items.join(', '));
const lista = (items: readonly string[]) => (items.length === 0 ? '(ninguno)' : items.join(', '));
const near = (word: string, accepted: readonly string[]) => didYouMean('en', word, accepted);
const cerca = (word: string, accepted: readonly string[]) => didYouMean('es', word, accepted);

/**
 * The message tables are dictionaries (`__proto__: null`): V8 makes such an object in one step,
 * where a literal of this many members costs a hook's start about 0.15 ms (a new shape per
 * member). A message is looked up by name a few times per call at most.
 */
/** Why a file could not be read, by the id (or errno code) the reader gives. */
const FILE_PROBLEMS_EN: Record<string, string> = {
  missing: 'no such file',
  not_regular: 'not a regular file',
  too_large: 'larger than 64 MiB',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'a directory',
  ELOOP: 'too many symbolic links',
};
const FILE_PROBLEMS_ES: Record<string, string> = {
  missing: 'el fichero no existe',
  not_regular: 'no es un fichero regular',
  too_large: 'mayor de 64 MiB',
  EACCES: 'permiso denegado',
  EPERM: 'operación no permitida',
  EISDIR: 'es un directorio',
  ELOOP: 'demasiados enlaces simbólicos',
};

export const en = {
  __proto__: null,
  /** The `because` of a file tool that writes a file which makes later calls run commands. */
  writesRunsLater: (path: string) => `it writes ${path}, a configuration, hook or toolchain file that makes later calls run commands`,
  scopeFamily: (persona: string, key: string, family: string, families: readonly string[]) =>
    `persona-gate: the ${persona} persona may not run ${key}: its family "${family}" is not one of the persona's families (${list(families)}). Hand this step to a persona whose families include "${family}", or ask the user to do it.`,
  /** `because`: for a shell tool, the part of its line that decided its level ("`curl -s x` reaches the network"). */
  scopeCeiling: (persona: string, key: string, level: string, ceiling: string, because?: string) =>
    `persona-gate: the ${persona} persona may not run ${key}: it has side-effect level ${level}, above the persona's ceiling ${ceiling}${because ? `, because ${because}` : ''}. Use a tool at ${ceiling} or below, or hand this step to a persona allowed to ${level}.`,
  scopeFamilyOwned: (persona: string, key: string, family: string, families: readonly string[], owner: string) =>
    `persona-gate: the ${persona} persona may not run ${key}: its family "${family}" is not one of the persona's families (${list(families)}), and ${key} is owned by the ${owner} persona. Finish your part and hand off to ${owner}; do not try it another way.`,
  scopeCeilingOwned: (persona: string, key: string, level: string, ceiling: string, owner: string) =>
    `persona-gate: the ${persona} persona may not run ${key}: it has side-effect level ${level}, above the persona's ceiling ${ceiling}, and it is owned by the ${owner} persona. Finish your part and hand off to ${owner}; do not try it another way.`,
  scopeUnknown: (persona: string, key: string) =>
    `persona-gate: the ${persona} persona may not run ${key}: the tool is not in the policy's catalog, and a persona may only run catalogued tools. Use a catalogued tool, or ask the user to add this one to the catalog.`,
  delegation: (persona: string, agentType: string, bound: string, delegates: readonly string[]) =>
    `persona-gate: the ${persona} persona may not launch the ${agentType} agent: it is bound to the ${bound} persona, which is not among ${persona}'s delegates (${list(delegates)}). Launch a delegate's agent, or hand this step back to the user.`,
  handoff: (persona: string, key: string, owner: string) =>
    `persona-gate: the ${persona} persona may not run ${key}: it is an irreversible handoff owned by the ${owner} persona. Finish your part and hand off to ${owner}; do not try it another way.`,
  stageScope: (who: string, stage: string, key: string, allowed: readonly string[]) =>
    `persona-gate: ${who} may not run ${key} in stage "${stage}": the stage allows only ${list(allowed)}. Finish this stage and move to one that allows ${key}, or use an allowed tool.`,
  stageCeiling: (who: string, stage: string, key: string, level: string, ceiling: string, because?: string) =>
    `persona-gate: ${who} may not run ${key} in stage "${stage}": it has side-effect level ${level}, above the stage's ceiling ${ceiling}${because ? `, because ${because}` : ''}. Use a tool at ${ceiling} or below until the stage changes.`,
  iterationLimit: (who: string, stage: string, max: number) =>
    `persona-gate: ${who} has used all ${max} calls of stage "${stage}". Finish the stage (persona-gate stage exit) and report back instead of continuing.`,
  personaWho: (persona: string) => `the ${persona} persona`,
  dispatchWho: () => `this hook registration`,
  dispatchStage: () => `--allowed-tools`,
  identityRequired: () =>
    `persona-gate: this session has not yet confirmed which profile is active, and this call changes state. Run the identity read (whoami / profile status) first, check that the active profile is the right taxpayer or customer, then retry.`,
  profileChanged: (where: string) =>
    `persona-gate: the active profile (${where}) is not the one this session confirmed: it changed since the identity read. Run the identity read (whoami / profile status) again, check that the active profile is the right taxpayer or customer, then retry.`,
  profileUnreadable: (where: string, detail: string) =>
    `persona-gate: cannot tell which profile is active (${where}: ${detail}), so this call that changes state is refused. Fix the profile state, run the identity read again, then retry.`,
  identityEcho: (label: string | null) => (label === null ? `[Active profile: none known]` : `[Active profile: ${label}]`),
  confirmationRequired: (echo: string, key: string) =>
    `${echo} persona-gate: ${key} needs the user's confirmation. Check that the active profile above is the one this call should touch.`,
  confirmationPlain: (key: string) => `persona-gate: ${key} needs the user's confirmation before it runs.`,
  blocked: (key: string) => `persona-gate: ${key} is blocked by policy for every agent. Ask the user to run it themselves.`,
  notPinned: (tool: string, server: string) =>
    `persona-gate: ${tool} is not in the MCP lock: server "${server}" did not list this tool when it was pinned, so nothing is known about what it does. Do not call it; ask the user to run persona-gate pin, review the diff of .claude/persona-gate.lock.json and commit it.`,
  lockUnreadable: (tool: string, detail: string) =>
    `persona-gate: ${tool} is refused: the MCP lock cannot be read (${detail}), so what its servers were pinned with is not known. Do not call MCP tools; ask the user to run persona-gate pin --check and repair or re-pin .claude/persona-gate.lock.json.`,
  unknownTool: (key: string) =>
    `persona-gate: ${key} is not in the policy's catalog. Ask the user to approve it or to add it to the catalog.`,
  protectedTarget: (what: string) =>
    `persona-gate: this call would change ${what}, which guards this session. Only the user may change it, outside the agent.`,
  outsideSandbox: (path: string, writable: readonly string[]) =>
    `persona-gate: this call writes ${path}, outside the directories the sandbox lets the agent's shell write (${list(writable)}). The file tools run outside the sandbox, so they are held to the same bounds: write inside the project, or ask the user to write it or to add its directory to sandbox.filesystem.allowWrite.`,
  backgroundSwitch: (what: string) =>
    `persona-gate: ${what} may switch the active profile, and run in the background it would switch after later calls were checked against the profile it leaves. Run it in the foreground, then the identity read.`,
  switchInCall: (what: string) =>
    `persona-gate: this call switches the active profile (${what}) and changes state in the same call, before any identity read could confirm the profile it switches to. Switch in a call of its own, run the identity read (whoami / profile status), check the profile, then retry.`,
  stdinCode: (what: string, persona: string | null, allowed: readonly string[]) =>
    `persona-gate: ${what}, and this host can give a running command input later without persona-gate seeing it, so what it would run is never checked. Run each command as its own call instead${allowed.length > 0 ? ` (${persona === null ? "the policy's commands" : `the ${persona} persona's commands`}: ${list(allowed)})` : ''}, or pass the code with -c.`,
  patchUnreadable: (tool: string) =>
    `persona-gate: cannot tell which files this ${tool} call writes (no file named in its patch), so it cannot be checked against the files that guard this session. Send a patch that names each file it changes.`,
  askWithoutHost: (host: string, reason: string) =>
    `${reason} ${host} cannot ask a person from here, so the call is denied: a person must approve it (run it themselves, or run the agent in Claude Code where the question reaches them).`,
  protectedMention: (what: string, program: string) =>
    `persona-gate: this command hands ${what}, which guards this session, to ${program}, which could change it. Only the user may change it, outside the agent; to read it, use cat, grep or the Read tool.`,
  unlistedCommand: (words: string, persona: string | null, allowed: readonly string[]) =>
    `persona-gate: refused \`${words.slice(0, 200)}\`: this program may only be run as one of the commands the policy lists, and this matches none of them (an option between the words, a word after a command that takes none, an argument added at run time, or a command the policy does not list). ${persona === null ? 'The policy lists' : `The ${persona} persona may run`}: ${list(allowed)}. Run one of those exactly as listed, or ask the user.`,
  opaqueExecution: (why: string, names: readonly string[], persona: string | null, allowed: readonly string[]) =>
    `persona-gate: refused: this command line runs code persona-gate cannot read (${why}) and names ${list(names)}, which the policy controls. Run the command directly, exactly as the policy lists it, so it can be checked${persona === null ? '' : `; the ${persona} persona may run: ${list(allowed)}`}.`,
  shellStrict: (persona: string, why: string) =>
    `persona-gate: the ${persona} persona runs with "shell": "strict", which allows no code persona-gate cannot read (${why}). Run the programs you need directly, or hand this step to a persona allowed to run it.`,
  shellUnparsable: (detail: string) =>
    `persona-gate: this shell command could not be read with confidence (${detail}). Split it into plain commands without dynamic parts and retry.`,
  noPolicy: (searched: readonly string[]) =>
    `persona-gate: no policy found (looked at: ${list(searched)}). Create .claude/persona-gate.json (persona-gate init), or point PERSONA_GATE_CONFIG at a policy. Every call is denied until then.`,
  invalidPolicy: (path: string, problems: readonly string[]) =>
    `persona-gate: the policy ${path} is not valid: ${problems.join('; ')}. Fix it (persona-gate validate shows every problem). Every call is denied until then.`,
  unreadablePolicy: (path: string, detail: string) =>
    `persona-gate: the policy ${path} cannot be read (${FILE_PROBLEMS_EN[detail] ?? detail}). Fix the file or its permissions. Every call is denied until then.`,
  unknownPersona: (name: string, accepted: readonly string[]) =>
    `persona-gate: "${name}" is not a persona of this policy${near(name, accepted)}; accepted: ${list(accepted)}. Set a declared persona (or none). Every call is denied until then.`,
  unknownStage: (persona: string, stage: string, accepted: readonly string[]) =>
    `persona-gate: "${stage}" is not a stage of the ${persona} persona${near(stage, accepted)}; accepted: ${list(accepted)}. Enter a declared stage. Every call is denied until then.`,
  stageWithoutPersona: (stage: string) =>
    `persona-gate: stage "${stage}" is set but no persona is active; stages belong to personas. Set the persona or clear the stage. Every call is denied until then.`,
  hookUsage: (problem: string) =>
    `persona-gate hook: ${problem}. Fix the hook's registration (persona-gate doctor checks it; persona-gate hook --help lists what it takes). The call is denied.`,
  hookUnknownOption: (raw: string, options: readonly string[]) =>
    `unknown option ${raw}${near(String(raw).split('=')[0]!, options)}; the options are ${list(options)}`,
  hookNeedsValue: (flag: string) => `${flag} needs a value`,
  hookBadValue: (flag: string, value: string, accepted: readonly string[]) =>
    `${flag} takes ${list(accepted)}, not "${value}"${near(value, accepted)}`,
  eventEmpty: () =>
    `persona-gate hook: no event on stdin. The agent host pipes each tool call in as JSON; run by hand, use persona-gate explain TOOL [INPUT_JSON] to see what it would decide. The call is denied.`,
  eventTooLarge: (limit: number) => `persona-gate: the hook event is larger than ${limit} bytes and was not read. The call is denied.`,
  eventMalformed: (detail: string) => `persona-gate: the hook event is not valid JSON (${detail}). The call is denied.`,
  eventShape: (detail: string) =>
    `persona-gate: the hook event is not a tool call persona-gate understands (${detail}). The call is denied.`,
  stateError: (detail: string) =>
    `persona-gate: the session state cannot be used (${detail}). The call is denied; the user can inspect it with persona-gate session show and clear it with persona-gate session reset.`,
  deadline: (ms: number) => `persona-gate: no decision within ${ms} ms. The call is denied; retry it.`,
  internalError: (detail: string) => `persona-gate: internal error (${detail}). The call is denied; please report it.`,
  noteTierAuto: () => `tier auto`,
  noteNoPersona: () => `no persona`,
  noteNotAgentLaunch: () => `not an agent launch`,
  noteNoSubagentType: () => `no subagent_type given`,
  noteAgentUnbound: (agentType: string) => `agent type ${agentType} is bound to no persona`,
  noteIsDelegate: (bound: string, persona: string) => `${bound} is one of ${persona}'s delegates`,
  noteNoOwner: (key: string) => `${key} has no owner`,
  noteOwns: (persona: string, key: string) => `${persona} owns ${key}`,
  noteNoIdentity: () => `the policy has no identity section`,
  noteSwitch: (key: string) => `${key} switches profile: re-arms the gate once let through`,
  noteRead: (key: string) => `${key} is an identity read: confirms the session once it has run`,
  noteNoStateChange: (level: string) => `level ${level} changes no state`,
  noteConfirmed: () => `identity confirmed for this session`,
  noteCatalogOnly: () => `no persona: the catalog alone applies`,
  noteInScope: (family: string, persona: string, level: string, ceiling: string) =>
    `family ${family} is ${persona}'s and level ${level} ≤ ceiling ${ceiling}`,
  noteWritesNothing: () => `writes nothing persona-gate guards`,
  noteWritesUnguarded: (targets: string) => `writes ${targets}: not guarded`,
  noteNoStage: () => `no active stage and no registration scope`,
  noteWithinStage: (stage: string) => `${stage}: within scope`,
  noteResolved: () => `the catalog resolves it`,
  noteRefusedEarlier: () => `refused earlier under a persona`,
  noteUnscoped: () => `unscoped session`,
  notePersona: (persona: string, source: string, stage: string | null) =>
    `persona ${persona} (from ${source})${stage ? `, stage ${stage}` : ''}`,
};

export type Messages = Omit<typeof en, '__proto__'>;

/** Spanish, made the first time a call asks for it: a call in English need not pay for it. */
const spanish = () =>
  ({
    __proto__: null,
    writesRunsLater: (path) =>
      `escribe ${path}, un archivo de configuración, hook o toolchain que hace que llamadas posteriores ejecuten órdenes`,
    scopeFamily: (persona, key, family, families) =>
      `persona-gate: la persona ${persona} no puede ejecutar ${key}: su familia "${family}" no está entre las familias de la persona (${lista(families)}). Pasa este paso a una persona cuyas familias incluyan "${family}", o pide al usuario que lo haga.`,
    scopeCeiling: (persona, key, level, ceiling, because) =>
      `persona-gate: la persona ${persona} no puede ejecutar ${key}: su nivel de efectos es ${level}, por encima del techo de la persona, ${ceiling}${because ? `, porque ${because}` : ''}. Usa una herramienta de nivel ${ceiling} o inferior, o pasa este paso a una persona autorizada para ${level}.`,
    scopeFamilyOwned: (persona, key, family, families, owner) =>
      `persona-gate: la persona ${persona} no puede ejecutar ${key}: su familia "${family}" no está entre las familias de la persona (${lista(families)}), y ${key} pertenece a la persona ${owner}. Termina tu parte y pásalo a ${owner}; no lo intentes por otra vía.`,
    scopeCeilingOwned: (persona, key, level, ceiling, owner) =>
      `persona-gate: la persona ${persona} no puede ejecutar ${key}: su nivel de efectos es ${level}, por encima del techo de la persona, ${ceiling}, y pertenece a la persona ${owner}. Termina tu parte y pásalo a ${owner}; no lo intentes por otra vía.`,
    scopeUnknown: (persona, key) =>
      `persona-gate: la persona ${persona} no puede ejecutar ${key}: la herramienta no está en el catálogo de la política, y una persona solo puede ejecutar herramientas catalogadas. Usa una herramienta catalogada, o pide al usuario que la añada al catálogo.`,
    delegation: (persona, agentType, bound, delegates) =>
      `persona-gate: la persona ${persona} no puede lanzar el agente ${agentType}: está ligado a la persona ${bound}, que no está entre los delegados de ${persona} (${lista(delegates)}). Lanza el agente de un delegado, o devuelve este paso al usuario.`,
    handoff: (persona, key, owner) =>
      `persona-gate: la persona ${persona} no puede ejecutar ${key}: es un traspaso irreversible que pertenece a la persona ${owner}. Termina tu parte y pásalo a ${owner}; no lo intentes por otra vía.`,
    stageScope: (who, stage, key, allowed) =>
      `persona-gate: ${who} no puede ejecutar ${key} en la etapa "${stage}": la etapa solo permite ${lista(allowed)}. Termina esta etapa y pasa a una que permita ${key}, o usa una herramienta permitida.`,
    stageCeiling: (who, stage, key, level, ceiling, because) =>
      `persona-gate: ${who} no puede ejecutar ${key} en la etapa "${stage}": su nivel de efectos es ${level}, por encima del techo de la etapa, ${ceiling}${because ? `, porque ${because}` : ''}. Usa herramientas de nivel ${ceiling} o inferior hasta que cambie la etapa.`,
    iterationLimit: (who, stage, max) =>
      `persona-gate: ${who} ha agotado las ${max} llamadas de la etapa "${stage}". Termina la etapa (persona-gate stage exit) e informa en lugar de continuar.`,
    personaWho: (persona) => `la persona ${persona}`,
    dispatchWho: () => `este registro del hook`,
    dispatchStage: () => `--allowed-tools`,
    identityRequired: () =>
      `persona-gate: esta sesión aún no ha confirmado qué perfil está activo, y esta llamada cambia el estado. Ejecuta primero la lectura de identidad (whoami / estado del perfil), comprueba que el perfil activo es el contribuyente o cliente correcto y vuelve a intentarlo.`,
    profileChanged: (where) =>
      `persona-gate: el perfil activo (${where}) no es el que esta sesión confirmó: ha cambiado desde la lectura de identidad. Ejecuta de nuevo la lectura de identidad (whoami / estado del perfil), comprueba que el perfil activo es el contribuyente o cliente correcto y vuelve a intentarlo.`,
    profileUnreadable: (where, detail) =>
      `persona-gate: no se puede saber qué perfil está activo (${where}: ${detail}), así que se rechaza esta llamada que cambia el estado. Corrige el estado del perfil, ejecuta de nuevo la lectura de identidad y vuelve a intentarlo.`,
    identityEcho: (label) => (label === null ? `[Perfil activo: ninguno conocido]` : `[Perfil activo: ${label}]`),
    confirmationRequired: (echo, key) =>
      `${echo} persona-gate: ${key} necesita la confirmación del usuario. Comprueba que el perfil activo indicado es el que esta llamada debe tocar.`,
    confirmationPlain: (key) => `persona-gate: ${key} necesita la confirmación del usuario antes de ejecutarse.`,
    blocked: (key) =>
      `persona-gate: ${key} está bloqueado por la política para todos los agentes. Pide al usuario que lo ejecute él mismo.`,
    notPinned: (tool, server) =>
      `persona-gate: ${tool} no está en el lock MCP: el servidor "${server}" no listaba esta herramienta cuando se fijó, así que no se sabe qué hace. No la llames; pide al usuario que ejecute persona-gate pin, revise el diff de .claude/persona-gate.lock.json y haga commit.`,
    lockUnreadable: (tool, detail) =>
      `persona-gate: ${tool} se rechaza: el lock MCP no se puede leer (${detail}), así que no se sabe con qué se fijaron sus servidores. No llames herramientas MCP; pide al usuario que ejecute persona-gate pin --check y repare o vuelva a fijar .claude/persona-gate.lock.json.`,
    unknownTool: (key) =>
      `persona-gate: ${key} no está en el catálogo de la política. Pide al usuario que lo apruebe o que lo añada al catálogo.`,
    protectedTarget: (what) =>
      `persona-gate: esta llamada cambiaría ${what}, que protege esta sesión. Solo el usuario puede cambiarlo, fuera del agente.`,
    outsideSandbox: (path, writable) =>
      `persona-gate: esta llamada escribe ${path}, fuera de los directorios en los que el sandbox deja escribir al shell del agente (${lista(writable)}). Las herramientas de ficheros se ejecutan fuera del sandbox, así que se les aplican los mismos límites: escribe dentro del proyecto, o pide al usuario que lo escriba o que añada su directorio a sandbox.filesystem.allowWrite.`,
    backgroundSwitch: (what) =>
      `persona-gate: ${what} puede cambiar el perfil activo, y en segundo plano cambiaría después de que otras llamadas se comprobaran contra el perfil que deja. Ejecútalo en primer plano, y después la lectura de identidad.`,
    switchInCall: (what) =>
      `persona-gate: esta llamada cambia el perfil activo (${what}) y cambia el estado en la misma llamada, antes de que una lectura de identidad pueda confirmar el perfil al que cambia. Cambia de perfil en una llamada propia, ejecuta la lectura de identidad (whoami / estado del perfil), comprueba el perfil y vuelve a intentarlo.`,
    stdinCode: (what, persona, allowed) =>
      `persona-gate: ${what}, y este host puede dar entrada a una orden en marcha más tarde sin que persona-gate la vea, así que lo que ejecutaría nunca se comprueba. Ejecuta cada orden como una llamada propia${allowed.length > 0 ? ` (${persona === null ? 'las órdenes de la política' : `las órdenes de la persona ${persona}`}: ${list(allowed)})` : ''}, o pasa el código con -c.`,
    patchUnreadable: (tool) =>
      `persona-gate: no se sabe qué ficheros escribe esta llamada a ${tool} (su parche no nombra ninguno), así que no se puede comprobar frente a los ficheros que protegen esta sesión. Envía un parche que nombre cada fichero que cambia.`,
    askWithoutHost: (host, reason) =>
      `${reason} ${host} no puede preguntar a una persona desde aquí, así que se deniega la llamada: una persona debe aprobarla (ejecutándola ella misma, o usando el agente en Claude Code, donde la pregunta le llega).`,
    protectedMention: (what, program) =>
      `persona-gate: esta orden entrega ${what}, que protege esta sesión, a ${program}, que podría cambiarlo. Solo el usuario puede cambiarlo, fuera del agente; para leerlo, usa cat, grep o la herramienta Read.`,
    unlistedCommand: (words, persona, allowed) =>
      `persona-gate: rechazado \`${words.slice(0, 200)}\`: este programa solo puede ejecutarse como uno de los comandos que lista la política, y esto no coincide con ninguno (una opción entre las palabras, una palabra tras un comando que no admite ninguna, un argumento añadido al ejecutar o un comando que la política no lista). ${persona === null ? 'La política lista' : `La persona ${persona} puede ejecutar`}: ${lista(allowed)}. Ejecuta uno de ellos tal como aparece, o pídeselo al usuario.`,
    opaqueExecution: (why, names, persona, allowed) =>
      `persona-gate: rechazado: esta línea ejecuta código que persona-gate no puede leer (${why}) y nombra ${lista(names)}, que la política controla. Ejecuta el comando directamente, tal como lo lista la política, para que pueda comprobarse${persona === null ? '' : `; la persona ${persona} puede ejecutar: ${lista(allowed)}`}.`,
    shellStrict: (persona, why) =>
      `persona-gate: la persona ${persona} funciona con "shell": "strict", que no permite código que persona-gate no pueda leer (${why}). Ejecuta directamente los programas que necesites, o pasa este paso a una persona autorizada.`,
    shellUnparsable: (detail) =>
      `persona-gate: esta orden de shell no se ha podido leer con seguridad (${detail}). Divídela en órdenes simples sin partes dinámicas y vuelve a intentarlo.`,
    noPolicy: (searched) =>
      `persona-gate: no se ha encontrado ninguna política (buscada en: ${lista(searched)}). Crea .claude/persona-gate.json (persona-gate init) o apunta PERSONA_GATE_CONFIG a una política. Hasta entonces se deniega toda llamada.`,
    invalidPolicy: (path, problems) =>
      `persona-gate: la política ${path} no es válida: ${problems.join('; ')}. Corrígela (persona-gate validate muestra cada problema). Hasta entonces se deniega toda llamada.`,
    unreadablePolicy: (path, detail) =>
      `persona-gate: no se puede leer la política ${path} (${FILE_PROBLEMS_ES[detail] ?? detail}). Corrige el fichero o sus permisos. Hasta entonces se deniega toda llamada.`,
    unknownPersona: (name, accepted) =>
      `persona-gate: "${name}" no es una persona de esta política${cerca(name, accepted)}; se aceptan: ${lista(accepted)}. Indica una persona declarada (o ninguna). Hasta entonces se deniega toda llamada.`,
    unknownStage: (persona, stage, accepted) =>
      `persona-gate: "${stage}" no es una etapa de la persona ${persona}${cerca(stage, accepted)}; se aceptan: ${lista(accepted)}. Entra en una etapa declarada. Hasta entonces se deniega toda llamada.`,
    stageWithoutPersona: (stage) =>
      `persona-gate: la etapa "${stage}" está fijada pero no hay persona activa; las etapas pertenecen a personas. Fija la persona o quita la etapa. Hasta entonces se deniega toda llamada.`,
    hookUsage: (problem) =>
      `persona-gate hook: ${problem}. Corrige el registro del hook (persona-gate doctor lo comprueba; persona-gate hook --help muestra lo que acepta). Se deniega la llamada.`,
    hookUnknownOption: (raw, options) =>
      `opción desconocida ${raw}${cerca(String(raw).split('=')[0]!, options)}; las opciones son ${lista(options)}`,
    hookNeedsValue: (flag) => `${flag} necesita un valor`,
    hookBadValue: (flag, value, accepted) => `${flag} acepta ${lista(accepted)}, no "${value}"${cerca(value, accepted)}`,
    eventEmpty: () =>
      `persona-gate hook: no hay evento en la entrada estándar. El anfitrión del agente envía cada llamada a herramienta como JSON; a mano, usa persona-gate explain HERRAMIENTA [ENTRADA_JSON] para ver qué decidiría. Se deniega la llamada.`,
    eventTooLarge: (limit) => `persona-gate: el evento del hook supera ${limit} bytes y no se ha leído. Se deniega la llamada.`,
    eventMalformed: (detail) => `persona-gate: el evento del hook no es JSON válido (${detail}). Se deniega la llamada.`,
    eventShape: (detail) =>
      `persona-gate: el evento del hook no es una llamada a herramienta que persona-gate entienda (${detail}). Se deniega la llamada.`,
    stateError: (detail) =>
      `persona-gate: no se puede usar el estado de la sesión (${detail}). Se deniega la llamada; el usuario puede verlo con persona-gate session show y borrarlo con persona-gate session reset.`,
    deadline: (ms) => `persona-gate: no hay decisión en ${ms} ms. Se deniega la llamada; vuelve a intentarlo.`,
    internalError: (detail) => `persona-gate: error interno (${detail}). Se deniega la llamada; por favor, notifícalo.`,
    noteTierAuto: () => `nivel de confirmación auto`,
    noteNoPersona: () => `sin persona`,
    noteNotAgentLaunch: () => `no lanza un agente`,
    noteNoSubagentType: () => `no indica subagent_type`,
    noteAgentUnbound: (agentType) => `el tipo de agente ${agentType} no está ligado a ninguna persona`,
    noteIsDelegate: (bound, persona) => `${bound} es uno de los delegados de ${persona}`,
    noteNoOwner: (key) => `${key} no tiene propietario`,
    noteOwns: (persona, key) => `${persona} es propietaria de ${key}`,
    noteNoIdentity: () => `la política no tiene sección identity`,
    noteSwitch: (key) => `${key} cambia de perfil: rearma la puerta en cuanto se deja pasar`,
    noteRead: (key) => `${key} es una lectura de identidad: confirma la sesión cuando se ha ejecutado`,
    noteNoStateChange: (level) => `el nivel ${level} no cambia el estado`,
    noteConfirmed: () => `identidad confirmada en esta sesión`,
    noteCatalogOnly: () => `sin persona: solo se aplica el catálogo`,
    noteInScope: (family, persona, level, ceiling) => `la familia ${family} es de ${persona} y el nivel ${level} ≤ techo ${ceiling}`,
    noteWritesNothing: () => `no escribe nada que persona-gate proteja`,
    noteWritesUnguarded: (targets) => `escribe ${targets}: no protegido`,
    noteNoStage: () => `sin etapa activa ni alcance de registro`,
    noteWithinStage: (stage) => `${stage}: dentro del alcance`,
    noteResolved: () => `el catálogo la resuelve`,
    noteRefusedEarlier: () => `rechazada antes, bajo una persona`,
    noteUnscoped: () => `sesión sin persona`,
    notePersona: (persona, source, stage) => `persona ${persona} (de ${source})${stage ? `, etapa ${stage}` : ''}`,
  }) satisfies typeof en;

export const MESSAGES: Record<Locale, Messages> = tablesOnFirstUse<Messages>({ en: () => en, es: spanish });

export function isLocale(value: unknown): value is Locale {
  return value === 'en' || value === 'es';
}

export function messagesFor(locale: Locale): Messages {
  return MESSAGES[locale];
}
