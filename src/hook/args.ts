import { isLevel, LEVELS, type Level } from '../core/levels';
import type { Messages } from '../core/messages';
import { HOST_NAMES, isHostName, type HostName } from '../hosts/host';

export interface HookArgs {
  host: HostName;
  config?: string;
  confirmOn: 'pre' | 'post';
  allowedTools?: string[];
  sideEffectLevel?: Level;
}

/** What is wrong with the hook's command line: a usage error, said in the reader's language by `argsProblem`. */
export type HookArgsError =
  | { kind: 'option'; raw: string }
  | { kind: 'missing'; flag: string }
  | { kind: 'value'; flag: string; value: string; accepted: readonly string[] };

const OPTIONS = ['--config', '--host', '--confirm-on', '--allowed-tools', '--side-effect-level', '--help'];

/** The hook's few flags, parsed without commander so that the hot path loads nothing it does not need. */
export function parseHookArgs(argv: readonly string[]): { ok: true; args: HookArgs } | { ok: false; error: HookArgsError } {
  const args: HookArgs = { host: 'claude-code', confirmOn: 'post' };
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i]!;
    const eq = raw.indexOf('=');
    const flag = raw.startsWith('--') && eq !== -1 ? raw.slice(0, eq) : raw;
    const inline = raw.startsWith('--') && eq !== -1 ? raw.slice(eq + 1) : undefined;
    const value = (): string | undefined => (inline !== undefined ? inline : argv[++i]);
    const bad = (v: string | undefined, accepted: readonly string[]): { ok: false; error: HookArgsError } => ({
      ok: false,
      error: v === undefined || v === '' ? { kind: 'missing', flag } : { kind: 'value', flag, value: v, accepted },
    });
    switch (flag) {
      case '--config': {
        const v = value();
        if (!v) return { ok: false, error: { kind: 'missing', flag } };
        args.config = v;
        break;
      }
      case '--host': {
        const v = value();
        if (!isHostName(v)) return bad(v, HOST_NAMES);
        args.host = v;
        break;
      }
      case '--confirm-on': {
        const v = value();
        if (v !== 'pre' && v !== 'post') return bad(v, ['pre', 'post']);
        args.confirmOn = v;
        break;
      }
      case '--allowed-tools': {
        const v = value();
        if (v === undefined) return { ok: false, error: { kind: 'missing', flag } };
        args.allowedTools = v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        break;
      }
      case '--side-effect-level': {
        const v = value();
        if (!isLevel(v)) return bad(v, LEVELS);
        args.sideEffectLevel = v;
        break;
      }
      default:
        return { ok: false, error: { kind: 'option', raw } };
    }
  }
  return { ok: true, args };
}

/** A usage error of the hook's command line, in words: what is wrong, and the accepted name nearest what was given. */
export function argsProblem(m: Messages, error: HookArgsError): string {
  switch (error.kind) {
    case 'option':
      return m.hookUnknownOption(error.raw, OPTIONS);
    case 'missing':
      return m.hookNeedsValue(error.flag);
    case 'value':
      return m.hookBadValue(error.flag, error.value, error.accepted);
  }
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
