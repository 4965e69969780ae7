import { isLevel, type Level } from '../core/levels';
import { HOST_NAMES, isHostName, type HostName } from '../hosts/host';

export interface HookArgs {
  host: HostName;
  config?: string;
  confirmOn: 'pre' | 'post';
  allowedTools?: string[];
  sideEffectLevel?: Level;
}

/** The hook's few flags, parsed without commander so that the hot path loads nothing it does not need. */
export function parseHookArgs(argv: readonly string[]): { ok: true; args: HookArgs } | { ok: false; error: string } {
  const args: HookArgs = { host: 'claude-code', confirmOn: 'post' };
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i]!;
    const eq = raw.indexOf('=');
    const flag = raw.startsWith('--') && eq !== -1 ? raw.slice(0, eq) : raw;
    const inline = raw.startsWith('--') && eq !== -1 ? raw.slice(eq + 1) : undefined;
    const value = (): string | undefined => (inline !== undefined ? inline : argv[++i]);
    switch (flag) {
      case '--config': {
        const v = value();
        if (!v) return { ok: false, error: '--config needs a path' };
        args.config = v;
        break;
      }
      case '--host': {
        const v = value();
        if (!isHostName(v)) return { ok: false, error: `--host takes ${HOST_NAMES.join(', ')}` };
        args.host = v;
        break;
      }
      case '--confirm-on': {
        const v = value();
        if (v !== 'pre' && v !== 'post') return { ok: false, error: '--confirm-on takes pre or post' };
        args.confirmOn = v;
        break;
      }
      case '--allowed-tools': {
        const v = value();
        if (v === undefined) return { ok: false, error: '--allowed-tools needs a comma-separated list' };
        args.allowedTools = v.split(',').map((s) => s.trim()).filter(Boolean);
        break;
      }
      case '--side-effect-level': {
        const v = value();
        if (!isLevel(v)) return { ok: false, error: '--side-effect-level takes none, read_only, workspace_write, process_exec or network' };
        args.sideEffectLevel = v;
        break;
      }
      default:
        return { ok: false, error: `unknown option ${raw}` };
    }
  }
  return { ok: true, args };
}

/**
 * The host named on the command line, read before anything else so that even the earliest failure
 * is answered in the form that host honours; null when `--host` names no host this version knows.
 */
export function hostArg(argv: readonly string[]): HostName | null {
  let host: string | undefined = 'claude-code';
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i]!;
    if (raw === '--host') host = argv[++i];
    else if (raw.startsWith('--host=')) host = raw.slice('--host='.length);
  }
  return isHostName(host) ? host : null;
}
