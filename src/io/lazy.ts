import type { ShellResolver } from '../core/decide';

declare const __BUNDLED__: boolean;

let shell: ShellResolver | null = null;

/** The shell reader lives in its own bundle, loaded the first time a shell tool is judged. */
export const lazyShellResolver: ShellResolver = (index, event) => {
  if (event.tool_name !== 'Bash' && event.tool_name !== 'PowerShell') return null;
  if (shell === null) {
    const module: typeof import('../shell/resolve-shell') = __BUNDLED__ ? require('./shell.js') : require('../shell/resolve-shell');
    shell = module.readShellCall;
  }
  return shell(index, event);
};
