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
  },
} as const;
