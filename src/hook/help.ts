import type { Locale } from '../core/messages';
import type { HookResponse } from './output';

const HELP: Record<Locale, string> = {
  en: `Usage: persona-gate hook [--config PATH] [--confirm-on pre|post] [--allowed-tools LIST] [--side-effect-level LEVEL] [--sandboxed]

The agent host runs this for every tool call, with the event (PreToolUse, PostToolUse or
SessionStart JSON) on stdin, and reads the verdict on stdout. It is not run by hand: to see what
it would decide, use persona-gate explain TOOL [INPUT_JSON]; to register it, persona-gate init.

  --config PATH               the policy file (default: found as persona-gate doctor shows)
  --confirm-on pre|post       when an identity read confirms the session (default post)
  --allowed-tools LIST        narrow this registration to these tools, commands or families
  --side-effect-level LEVEL   narrow this registration to this level and below
  --sandboxed                 the host's sandbox write-denies every guarded path (init writes it):
                              a line that only may touch one runs, and the sandbox stops the write
`,
  es: `Uso: persona-gate hook [--config RUTA] [--confirm-on pre|post] [--allowed-tools LISTA] [--side-effect-level NIVEL] [--sandboxed]

El anfitrión del agente lo ejecuta en cada llamada a herramienta, con el evento (JSON PreToolUse,
PostToolUse o SessionStart) por la entrada estándar, y lee el veredicto por la salida estándar. No
se ejecuta a mano: para ver qué decidiría, usa persona-gate explain HERRAMIENTA [ENTRADA_JSON];
para registrarlo, persona-gate init.

  --config RUTA               el fichero de política (por defecto: el que muestra persona-gate doctor)
  --confirm-on pre|post       cuándo confirma la sesión una lectura de identidad (por defecto post)
  --allowed-tools LISTA       restringe este registro a estas herramientas, órdenes o familias
  --side-effect-level NIVEL   restringe este registro a este nivel o inferiores
  --sandboxed                 el sandbox del anfitrión impide escribir cada ruta protegida (lo escribe
                              init): una línea que solo puede tocar una se ejecuta, y el sandbox para la escritura
`,
};

const FED: Record<Locale, string> = {
  en: 'persona-gate hook: --help given where an event is expected: the call is denied.',
  es: 'persona-gate hook: --help donde se espera un evento: se deniega la llamada.',
};

/**
 * `hook --help`, or `hook` on a terminal: the help at once. From a terminal or /dev/null nobody is
 * feeding an event, so it exits 0; otherwise a host may be, and the call is refused (exit 2),
 * never let through.
 */
export function hookHelp(nobodyFeeding: boolean, locale: Locale): HookResponse {
  if (nobodyFeeding) return { stdout: HELP[locale], stderr: '', exitCode: 0 };
  return { stdout: '', stderr: `${HELP[locale]}\n${FED[locale]}\n`, exitCode: 2 };
}
