import type { RefusedWhy } from './plan';

/**
 * What the hook says of a call that names a launched program in a form it cannot judge, and what
 * the launcher says when it refuses a start. For the model that reads them: what was refused,
 * why, and what to do instead.
 */
export type ExecLocale = 'en' | 'es';

export const EXEC_MESSAGES = {
  en: {
    refused: (why: RefusedWhy, name: string, detail: string): string => {
      const how = `Run ${name} as a line of its own made of plain words, e.g. \`${name} whoami\`; parts joined by && are fine.`;
      switch (why) {
        case 'unparsable':
          return `persona-gate: ${name} runs only through a line persona-gate can read, and this one cannot be read (${detail}). ${how}`;
        case 'not_literal':
          return `persona-gate: ${name} runs only from a line of plain words, so that what is checked is what runs; this line has expansions, substitutions, redirections, pipes, assignments or a background job. ${how}`;
        case 'mixed':
          return `persona-gate: ${name} runs outside the sandbox, checked, only from a line that starts nothing else; this one mixes it with other commands. Run the other commands in a call of their own. ${how}`;
        case 'wrapped':
          return `persona-gate: ${name} cannot be started through another program (\`${detail}\`): each start is checked as the program's own line. ${how}`;
        case 'launcher_target':
          return `persona-gate: the launcher starts only the programs persona-gate launches (\`${detail}\`). ${how}`;
        case 'unsandboxed':
          return `persona-gate: this call asks to run outside the sandbox (dangerouslyDisableSandbox), where ${name} could be started unchecked; run it without that parameter.`;
      }
    },
    ticketsFailed: (name: string, detail: string) =>
      `persona-gate: ${name} could not be prepared to run (${detail}); the call is refused. Run \`persona-gate doctor --hardened\`.`,
    noTicket: (program: string) =>
      `persona-gate: refused to start ${program}: this start was not judged by persona-gate's hook (no ticket for exactly these arguments). Run the program as a Bash call of its own made of plain words; it is checked and started from there.`,
    notLaunched: (program: string) =>
      `persona-gate: refused to start ${program}: it is not a program this deployment launches (persona-gate init --hardened records them).`,
    usage: () => 'persona-gate: the launcher is run as: persona-gate-exec <program> [args…], by the rewritten Bash call.',
    noConfinement: (detail: string) =>
      `persona-gate: refused to start the program: it cannot be confined (${detail}). Install bubblewrap (apt-get install bubblewrap).`,
    stateProblem: (detail: string) => `persona-gate: refused to start the program: ${detail}`,
    profileMoved: (program: string, file: string) =>
      `persona-gate: refused to start ${program}: the domain's active profile (${file}) changed after this start was judged. Run the identity read (whoami / profile status) again, check the profile, then retry.`,
    noCall: (name: string) =>
      `persona-gate: refused to start ${name}: this start does not come from a Bash call persona-gate let through (its call has ended, or the start was made by hand). Run \`${name} …\` from a Bash call; a script or a build that call runs may start it.`,
    needsPerson: (name: string, reason: string) =>
      `persona-gate: refused to start ${name} from another program: it needs a person's confirmation (${reason}). Run it as a Bash call of its own, where it can be confirmed.`,
    noBroker: (name: string, detail: string) =>
      `persona-gate: ${name} could not be started: persona-gate's broker did not answer (${detail}). Run the command again; if it keeps failing, run \`persona-gate doctor\`.`,
    shimUsage: () => 'persona-gate: the shim is run as: persona-gate-shim <program> [args…], from the shims directory.',
  },
  es: {
    refused: (why: RefusedWhy, name: string, detail: string): string => {
      const how = `Ejecuta ${name} en una línea propia hecha de palabras simples, p. ej. \`${name} whoami\`; se admiten partes unidas por &&.`;
      switch (why) {
        case 'unparsable':
          return `persona-gate: ${name} solo se ejecuta desde una línea que persona-gate pueda leer, y esta no se puede leer (${detail}). ${how}`;
        case 'not_literal':
          return `persona-gate: ${name} solo se ejecuta desde una línea de palabras simples, para que lo comprobado sea lo que se ejecuta; esta línea tiene expansiones, sustituciones, redirecciones, tuberías, asignaciones o un trabajo en segundo plano. ${how}`;
        case 'mixed':
          return `persona-gate: ${name} se ejecuta fuera del sandbox, comprobado, solo desde una línea que no inicia nada más; esta lo mezcla con otras órdenes. Ejecuta las otras órdenes en una llamada aparte. ${how}`;
        case 'wrapped':
          return `persona-gate: ${name} no puede iniciarse a través de otro programa (\`${detail}\`): cada inicio se comprueba como la línea propia del programa. ${how}`;
        case 'launcher_target':
          return `persona-gate: el lanzador solo inicia los programas que persona-gate lanza (\`${detail}\`). ${how}`;
        case 'unsandboxed':
          return `persona-gate: esta llamada pide ejecutarse fuera del sandbox (dangerouslyDisableSandbox), donde ${name} podría iniciarse sin comprobar; ejecútala sin ese parámetro.`;
      }
    },
    ticketsFailed: (name: string, detail: string) =>
      `persona-gate: no se pudo preparar ${name} para ejecutarse (${detail}); la llamada se rechaza. Ejecuta \`persona-gate doctor --hardened\`.`,
    noTicket: (program: string) =>
      `persona-gate: se rechaza iniciar ${program}: el hook de persona-gate no juzgó este inicio (no hay ticket para exactamente estos argumentos). Ejecuta el programa como una llamada Bash propia hecha de palabras simples; desde ahí se comprueba y se inicia.`,
    notLaunched: (program: string) =>
      `persona-gate: se rechaza iniciar ${program}: no es un programa que este despliegue lance (persona-gate init --hardened los registra).`,
    usage: () => 'persona-gate: el lanzador se ejecuta así: persona-gate-exec <programa> [args…], desde la llamada Bash reescrita.',
    noConfinement: (detail: string) =>
      `persona-gate: se rechaza iniciar el programa: no se puede confinar (${detail}). Instala bubblewrap (apt-get install bubblewrap).`,
    stateProblem: (detail: string) => `persona-gate: se rechaza iniciar el programa: ${detail}`,
    profileMoved: (program: string, file: string) =>
      `persona-gate: se rechaza iniciar ${program}: el perfil activo del dominio (${file}) cambió después de que se juzgara este inicio. Ejecuta de nuevo la lectura de identidad (whoami / estado del perfil), comprueba el perfil y vuelve a intentarlo.`,
    noCall: (name: string) =>
      `persona-gate: se rechaza iniciar ${name}: este inicio no viene de una llamada Bash que persona-gate dejara pasar (su llamada terminó, o el inicio se hizo a mano). Ejecuta \`${name} …\` desde una llamada Bash; un script o una compilación que esa llamada ejecute puede iniciarlo.`,
    needsPerson: (name: string, reason: string) =>
      `persona-gate: se rechaza iniciar ${name} desde otro programa: necesita la confirmación de una persona (${reason}). Ejecútalo como una llamada Bash propia, donde se puede confirmar.`,
    noBroker: (name: string, detail: string) =>
      `persona-gate: no se pudo iniciar ${name}: el intermediario de persona-gate no respondió (${detail}). Ejecuta la orden otra vez; si sigue fallando, ejecuta \`persona-gate doctor\`.`,
    shimUsage: () => 'persona-gate: el shim se ejecuta así: persona-gate-shim <programa> [args…], desde el directorio de shims.',
  },
} as const;
