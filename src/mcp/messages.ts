import { tablesOnFirstUse } from '../core/locale-tables';

/** What `validate`, `explain` and `pin` say about the MCP lock, in English and Spanish. */
const englishMcp = () => ({
  lockMissing: (path: string) =>
    `the policy takes commands from the MCP lock, but there is no lock at ${path}: run persona-gate pin, review the lock and commit it`,
  lockUnreadable: (path: string, detail: string) => `the MCP lock ${path} cannot be used (${detail}): run persona-gate pin again`,
  serverNotPinned: (server: string) =>
    `server "${server}" is not in the MCP lock: run persona-gate pin (its .mcp.json entry must exist) and review the diff`,
  toolNotInLock: (server: string, tool: string) =>
    `tool "${tool}" is not in the MCP lock for server "${server}": run persona-gate pin and review the diff, or remove this entry`,
  toolInNoFamily: (server: string, tool: string) =>
    `tool "${tool}" of server "${server}" is in the lock but in no family: add it to a family's prefix, glob or tools, or to exclude`,
  toolInTwoFamilies: (tool: string, families: readonly string[]) =>
    `tool "${tool}" is matched by the rules of several families (${families.join(', ')}): list it under one family's tools`,
  ruleEmpty: () => `a family rule needs a prefix, a glob or a tools map`,
  keyOutsideFamily: (key: string, family: string) => `command key "${key}" is not in family "${family}": it must start with "${family}."`,
  keyTaken: (key: string, by: string) => `command key "${key}" is already taken by ${by}`,
  familyDeclaredTwice: (family: string) =>
    `family "${family}" is declared in catalog.families and taken from the lock here: declare it in one place`,
  levelLowered: (level: string, manifest: string, tool: string) =>
    `level ${level} is below ${manifest}, the level the server declares for "${tool}" (annotations): a policy may raise a level, never lower it`,
  familyLowered: (level: string, manifest: string, tool: string) =>
    `family level ${level} is below ${manifest}, the level the server declares for its tool "${tool}": a policy may raise a level, never lower it`,
  toolOfPinnedServer: (tool: string, server: string) =>
    `tool "${tool}" belongs to server "${server}", whose tools come from the MCP lock: set what you need under catalog.mcp.servers.${server}.tools instead`,
  levelFromAnnotations: (server: string, tool: string, annotations: string) =>
    `level from the annotations of ${server}/${tool} (${annotations})`,
  levelFromPolicy: (path: string, manifest: string, server: string, tool: string) =>
    `level raised by the policy at ${path} (the annotations of ${server}/${tool} declare ${manifest})`,
  noAnnotations: () => 'no annotations: the MCP defaults apply',
  originLine: (text: string) => `level:   ${text}`,
});

export type McpMessages = ReturnType<typeof englishMcp>;

const spanishMcp = (): McpMessages => ({
  lockMissing: (path) =>
    `la política toma órdenes del lock MCP, pero no hay lock en ${path}: ejecuta persona-gate pin, revisa el lock y haz commit`,
  lockUnreadable: (path, detail) => `el lock MCP ${path} no se puede usar (${detail}): ejecuta persona-gate pin de nuevo`,
  serverNotPinned: (server) =>
    `el servidor "${server}" no está en el lock MCP: ejecuta persona-gate pin (su entrada en .mcp.json debe existir) y revisa el diff`,
  toolNotInLock: (server, tool) =>
    `la herramienta "${tool}" no está en el lock MCP del servidor "${server}": ejecuta persona-gate pin y revisa el diff, o quita esta entrada`,
  toolInNoFamily: (server, tool) =>
    `la herramienta "${tool}" del servidor "${server}" está en el lock pero en ninguna familia: añádela al prefijo, glob o tools de una familia, o a exclude`,
  toolInTwoFamilies: (tool, families) =>
    `la herramienta "${tool}" encaja en las reglas de varias familias (${families.join(', ')}): ponla en el tools de una sola familia`,
  ruleEmpty: () => `una regla de familia necesita un prefix, un glob o un mapa tools`,
  keyOutsideFamily: (key, family) => `la clave de orden "${key}" no es de la familia "${family}": debe empezar por "${family}."`,
  keyTaken: (key, by) => `la clave de orden "${key}" ya la usa ${by}`,
  familyDeclaredTwice: (family) =>
    `la familia "${family}" está declarada en catalog.families y se toma aquí del lock: declárala en un solo sitio`,
  levelLowered: (level, manifest, tool) =>
    `el nivel ${level} está por debajo de ${manifest}, el nivel que el servidor declara para "${tool}" (anotaciones): una política puede subir un nivel, nunca bajarlo`,
  familyLowered: (level, manifest, tool) =>
    `el nivel de familia ${level} está por debajo de ${manifest}, el nivel que el servidor declara para su herramienta "${tool}": una política puede subir un nivel, nunca bajarlo`,
  toolOfPinnedServer: (tool, server) =>
    `la herramienta "${tool}" es del servidor "${server}", cuyas herramientas vienen del lock MCP: pon lo que necesites en catalog.mcp.servers.${server}.tools`,
  levelFromAnnotations: (server, tool, annotations) => `nivel tomado de las anotaciones de ${server}/${tool} (${annotations})`,
  levelFromPolicy: (path, manifest, server, tool) =>
    `nivel subido por la política en ${path} (las anotaciones de ${server}/${tool} declaran ${manifest})`,
  noAnnotations: () => 'sin anotaciones: se aplican los valores por defecto de MCP',
  originLine: (text) => `nivel:     ${text}`,
});

/** Each language's table is made on its first use: the hook loads these with the policy reader, and needs them only when a policy does not check out. */
export const MCP_MESSAGES: Record<'en' | 'es', McpMessages> = tablesOnFirstUse({ en: englishMcp, es: spanishMcp });

/** What `persona-gate pin` prints. */
export const pinEn = {
  noMcpJson: (detail: string) => `persona-gate pin: no .mcp.json (${detail}): there are no MCP servers to pin in this project`,
  badMcpJson: (detail: string) => `persona-gate pin: .mcp.json cannot be used: ${detail}`,
  unknownServer: (name: string, known: readonly string[]) =>
    `persona-gate pin: no server "${name}" in .mcp.json (servers: ${known.join(', ') || 'none'})`,
  badTimeout: (value: string) => `persona-gate pin: --timeout must be a positive number of milliseconds, not "${value}"`,
  serverFailed: (server: string, detail: string) => `persona-gate pin: server "${server}" could not be listed: ${detail}`,
  notWritten: (path: string) => `persona-gate pin: nothing was written; ${path} is unchanged.`,
  noLock: (path: string) => `persona-gate pin --check: there is no lock at ${path}: run persona-gate pin, review the lock and commit it`,
  badLock: (path: string, detail: string) =>
    `persona-gate pin --check: the lock ${path} cannot be read (${detail}): run persona-gate pin and review the diff`,
  drift: (d: string) => `drift: ${d}`,
  driftSummary: (n: number, path: string) =>
    `persona-gate pin --check: ${n} ${n === 1 ? 'drift' : 'drifts'} from ${path}. Run persona-gate pin, review the diff (what each changed tool now does) and commit the lock.`,
  upToDate: (path: string, servers: number, tools: number) =>
    `persona-gate pin --check: ${path} matches the servers (${servers} ${servers === 1 ? 'server' : 'servers'}, ${tools} ${tools === 1 ? 'tool' : 'tools'}).`,
  written: (path: string, servers: number, tools: number) =>
    `persona-gate pin: wrote ${path} (${servers} ${servers === 1 ? 'server' : 'servers'}, ${tools} ${tools === 1 ? 'tool' : 'tools'}). Review the diff and commit it.`,
  unchanged: (path: string) => `persona-gate pin: ${path} is unchanged.`,
  change: (d: string) => `  ${d}`,
  serverAdded: (s: string) => `server ${s} added`,
  serverRemoved: (s: string) => `server ${s} removed`,
  toolAdded: (s: string, t: string) => `${s}: tool ${t} added`,
  toolRemoved: (s: string, t: string) => `${s}: tool ${t} removed`,
  annotationsChanged: (s: string, t: string, changes: string) => `${s}: ${t}: annotations changed (${changes})`,
  descriptionChanged: (s: string, t: string) => `${s}: ${t}: description changed`,
  schemaChanged: (s: string, t: string) => `${s}: ${t}: input schema changed`,
  unset: () => 'unset',
};

export type PinMessages = typeof pinEn;

export const pinEs: PinMessages = {
  noMcpJson: (detail) => `persona-gate pin: no hay .mcp.json (${detail}): no hay servidores MCP que fijar en este proyecto`,
  badMcpJson: (detail) => `persona-gate pin: .mcp.json no se puede usar: ${detail}`,
  unknownServer: (name, known) => `persona-gate pin: no hay servidor "${name}" en .mcp.json (servidores: ${known.join(', ') || 'ninguno'})`,
  badTimeout: (value) => `persona-gate pin: --timeout debe ser un número positivo de milisegundos, no "${value}"`,
  serverFailed: (server, detail) => `persona-gate pin: no se pudo listar el servidor "${server}": ${detail}`,
  notWritten: (path) => `persona-gate pin: no se ha escrito nada; ${path} no ha cambiado.`,
  noLock: (path) => `persona-gate pin --check: no hay lock en ${path}: ejecuta persona-gate pin, revisa el lock y haz commit`,
  badLock: (path, detail) =>
    `persona-gate pin --check: el lock ${path} no se puede leer (${detail}): ejecuta persona-gate pin y revisa el diff`,
  drift: (d) => `deriva: ${d}`,
  driftSummary: (n, path) =>
    `persona-gate pin --check: ${n} ${n === 1 ? 'deriva' : 'derivas'} respecto a ${path}. Ejecuta persona-gate pin, revisa el diff (qué hace ahora cada herramienta cambiada) y haz commit del lock.`,
  upToDate: (path, servers, tools) =>
    `persona-gate pin --check: ${path} coincide con los servidores (${servers} ${servers === 1 ? 'servidor' : 'servidores'}, ${tools} ${tools === 1 ? 'herramienta' : 'herramientas'}).`,
  written: (path, servers, tools) =>
    `persona-gate pin: escrito ${path} (${servers} ${servers === 1 ? 'servidor' : 'servidores'}, ${tools} ${tools === 1 ? 'herramienta' : 'herramientas'}). Revisa el diff y haz commit.`,
  unchanged: (path) => `persona-gate pin: ${path} no ha cambiado.`,
  change: (d) => `  ${d}`,
  serverAdded: (s) => `servidor ${s} añadido`,
  serverRemoved: (s) => `servidor ${s} eliminado`,
  toolAdded: (s, t) => `${s}: herramienta ${t} añadida`,
  toolRemoved: (s, t) => `${s}: herramienta ${t} eliminada`,
  annotationsChanged: (s, t, changes) => `${s}: ${t}: anotaciones cambiadas (${changes})`,
  descriptionChanged: (s, t) => `${s}: ${t}: descripción cambiada`,
  schemaChanged: (s, t) => `${s}: ${t}: esquema de entrada cambiado`,
  unset: () => 'sin valor',
};

export const PIN_MESSAGES = { en: pinEn, es: pinEs };
