import { tablesOnFirstUse } from './locale-tables';
import type { Locale } from './messages';

/**
 * What gate 0 calls each guarded path in a refusal (SPEC §9.5), per language: the check that finds
 * the path (src/io/protect.ts) names it with these, so a refusal in Spanish says it in Spanish.
 */
const en = {
  userRegistration: (file: string) => `the user-level hook registration (${file})`,
  managedSettings: () => 'the managed settings',
  codexRegistration: (file: string) => `the Codex hook registration (${file})`,
  codexConfig: (file: string) => `the Codex configuration (${file})`,
  copilotRegistrations: () => 'the Copilot hook registrations',
  copilotRegistration: (file: string) => `the Copilot hook registration (${file})`,
  copilotSettings: (file: string) => `the Copilot settings (${file})`,
  hostSettings: (host: string) => `the ${host} settings`,
  hostTrustedFolders: (host: string) => `the ${host} trusted folders`,
  hostSystemSettings: (host: string) => `the ${host} system settings`,
  hostSystemDefaults: (host: string) => `the ${host} system defaults`,
  hostRegistration: (host: string, file: string) => `the ${host} hook registration (${file})`,
  droidRegistration: () => 'the Droid hook registration',
  startupFile: (file: string) => `a shell startup file (${file}), which later shells run`,
  startupDir: (dir: string) => `the shell startup files in ${dir}`,
  configDirRegistration: (file: string) => `the hook registration in CLAUDE_CONFIG_DIR (${file})`,
  projectRegistration: (file: string) => `the hook registration (${file})`,
  aPolicy: () => 'a persona-gate policy',
  thePolicy: () => 'the persona-gate policy',
  stateDir: () => "persona-gate's state directory",
  prefs: () => "persona-gate's user preferences",
  installation: () => "persona-gate's own installation",
  mcpConfig: (file: string) => `an MCP server configuration (${file})`,
  gitConfig: () => "git's configuration (.git/config), which can make git run commands",
  gitHook: (file: string) => `a git hook (.git/hooks/${file}), which git runs`,
  trackedUnreadableGitFile: () => 'the files git tracks here (a .git file persona-gate cannot read)',
  trackedIndexTooLarge: () => 'the files git tracks here (an index too large to check)',
  trackedIndexUnreadable: () => 'the files git tracks here (an index persona-gate cannot read)',
  tracked: (name: string) => `a guarded file git tracks (${name}), which this would replace with another commit's version`,
  holdsRegistrations: (dir: string) => `${dir}, which holds hook registrations`,
  patternHoldsRegistrations: (pattern: string) => `a directory that holds hook registrations (${pattern})`,
  hardLink: (what: string) => `${what} (through a hard link)`,
  inside: (what: string, dir: string) => `${what} (inside ${dir})`,
  dotDotUnknown: (path: string) =>
    `a path through .. after a directory that does not exist yet (${path}), which a link made first would send elsewhere`,
  throughDescriptor: () => 'a path through a file descriptor or another process, which persona-gate cannot resolve',
  otherHome: () => "a path in another user's home (~user), which persona-gate does not resolve",
  patternThroughProcess: () => 'a pattern through another process, which persona-gate cannot resolve',
};

export type GuardWords = typeof en;

const spanish = (): GuardWords => ({
  userRegistration: (file) => `el registro del hook del usuario (${file})`,
  managedSettings: () => 'la configuración administrada',
  codexRegistration: (file) => `el registro del hook de Codex (${file})`,
  codexConfig: (file) => `la configuración de Codex (${file})`,
  copilotRegistrations: () => 'los registros de hooks de Copilot',
  copilotRegistration: (file) => `el registro del hook de Copilot (${file})`,
  copilotSettings: (file) => `la configuración de Copilot (${file})`,
  hostSettings: (host) => `la configuración de ${host}`,
  hostTrustedFolders: (host) => `las carpetas de confianza de ${host}`,
  hostSystemSettings: (host) => `la configuración de sistema de ${host}`,
  hostSystemDefaults: (host) => `los valores por defecto de sistema de ${host}`,
  hostRegistration: (host, file) => `el registro del hook de ${host} (${file})`,
  droidRegistration: () => 'el registro del hook de Droid',
  startupFile: (file) => `un fichero de arranque del shell (${file}), que ejecutan los shells siguientes`,
  startupDir: (dir) => `los ficheros de arranque del shell en ${dir}`,
  configDirRegistration: (file) => `el registro del hook en CLAUDE_CONFIG_DIR (${file})`,
  projectRegistration: (file) => `el registro del hook (${file})`,
  aPolicy: () => 'una política de persona-gate',
  thePolicy: () => 'la política de persona-gate',
  stateDir: () => 'el directorio de estado de persona-gate',
  prefs: () => 'las preferencias de usuario de persona-gate',
  installation: () => 'la instalación de persona-gate',
  mcpConfig: (file) => `una configuración de servidores MCP (${file})`,
  gitConfig: () => 'la configuración de git (.git/config), que puede hacer que git ejecute órdenes',
  gitHook: (file) => `un hook de git (.git/hooks/${file}), que git ejecuta`,
  trackedUnreadableGitFile: () => 'los ficheros que git sigue aquí (un fichero .git que persona-gate no puede leer)',
  trackedIndexTooLarge: () => 'los ficheros que git sigue aquí (un índice demasiado grande para comprobarlo)',
  trackedIndexUnreadable: () => 'los ficheros que git sigue aquí (un índice que persona-gate no puede leer)',
  tracked: (name) => `un fichero protegido que git sigue (${name}), que esto sustituiría por la versión de otro commit`,
  holdsRegistrations: (dir) => `${dir}, que contiene registros de hooks`,
  patternHoldsRegistrations: (pattern) => `un directorio que contiene registros de hooks (${pattern})`,
  hardLink: (what) => `${what} (a través de un enlace duro)`,
  inside: (what, dir) => `${what} (dentro de ${dir})`,
  dotDotUnknown: (path) =>
    `una ruta con .. tras un directorio que aún no existe (${path}), que un enlace creado antes llevaría a otro sitio`,
  throughDescriptor: () => 'una ruta a través de un descriptor de fichero o de otro proceso, que persona-gate no puede resolver',
  otherHome: () => 'una ruta en el directorio personal de otro usuario (~usuario), que persona-gate no resuelve',
  patternThroughProcess: () => 'un patrón a través de otro proceso, que persona-gate no puede resolver',
});

const TABLES = tablesOnFirstUse<GuardWords>({ en: () => en, es: spanish });

export function guardWordsFor(locale: Locale): GuardWords {
  return TABLES[locale];
}
