import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve, sep } from 'node:path';
import type { ProtectedPathCheck } from '../core/types';
import { prefsFile } from './prefs';

/** The real path of `p`, resolving symlinks in whatever prefix of it exists. */
export function realPathOf(p: string): string {
  const missing: string[] = [];
  let current = resolve(p);
  for (;;) {
    try {
      const real = realpathSync(current);
      return missing.length === 0 ? real : join(real, ...missing.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return resolve(p);
      missing.push(basename(current));
      current = parent;
    }
  }
}

export function expandHome(p: string, home: string): string {
  if (p === '~') return home;
  if (p.startsWith('~/')) return join(home, p.slice(2));
  return p;
}

function within(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith(sep) ? parent : parent + sep);
}

/** `.claude/settings.json` and `.claude/settings.local.json`, anywhere: where hosts register hooks. */
export function isHookRegistration(real: string): boolean {
  return /^settings(\.local)?\.json$/i.test(basename(real)) && basename(dirname(real)).toLowerCase() === '.claude';
}

/** `.claude/persona-gate.json`, anywhere: where the hook looks for a policy. */
export function isPolicyLocation(real: string): boolean {
  return basename(real).toLowerCase() === 'persona-gate.json' && basename(dirname(real)).toLowerCase() === '.claude';
}

export function makeProtectedPathCheck(opts: { policyPath: string | null; stateDir: string; prefsFile: string; installDir?: string; home?: string }): ProtectedPathCheck {
  const home = opts.home ?? process.env.HOME ?? homedir();
  let guarded: { path: string; what: string; tree: boolean }[] | null = null;
  const targets = () =>
    (guarded ??= [
      ...(opts.policyPath ? [{ path: realPathOf(opts.policyPath), what: 'the persona-gate policy', tree: false }] : []),
      { path: realPathOf(opts.stateDir), what: "persona-gate's state directory", tree: true },
      { path: realPathOf(opts.prefsFile), what: "persona-gate's user preferences", tree: false },
      ...(opts.installDir ? [{ path: realPathOf(opts.installDir), what: "persona-gate's own installation", tree: true }] : []),
    ]);
  return (path, cwd) => {
    const absolute = resolve(cwd ?? process.cwd(), expandHome(path, home));
    const real = realPathOf(absolute);
    for (const target of targets()) {
      if (target.tree ? within(real, target.path) : real === target.path) return target.what;
    }
    if (isHookRegistration(real) || isHookRegistration(absolute)) return `the hook registration (${basename(real)})`;
    if (isPolicyLocation(real) || isPolicyLocation(absolute)) return 'a persona-gate policy';
    return null;
  };
}

/**
 * What a running persona-gate guards: its policy, state directory, preferences and its own
 * installation. The hook and `explain` both run from dist/, so this module's directory is it.
 */
export function gateProtections(policyPath: string | null, stateDir: string, env: Readonly<Record<string, string | undefined>>): ProtectedPathCheck {
  return makeProtectedPathCheck({ policyPath, stateDir, prefsFile: prefsFile(env), installDir: __dirname });
}
