import { homedir } from 'node:os';
import { join } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}

/** Where user preferences live (written by `persona-gate config` through conf, read directly by the hook). */
export function prefsDir(env: Env): string {
  const explicit = nonEmpty(env.PERSONA_GATE_CONFIG_HOME);
  if (explicit) return explicit;
  const xdg = nonEmpty(env.XDG_CONFIG_HOME);
  return join(xdg ?? join(env.HOME ?? homedir(), '.config'), 'persona-gate');
}

/** SPEC §6: $PERSONA_GATE_STATE_DIR, else $XDG_STATE_HOME/persona-gate, else ~/.local/state/persona-gate. */
export function defaultStateDir(env: Env): string {
  const explicit = nonEmpty(env.PERSONA_GATE_STATE_DIR);
  if (explicit) return explicit;
  const xdg = nonEmpty(env.XDG_STATE_HOME);
  if (xdg) return join(xdg, 'persona-gate');
  return join(env.HOME ?? homedir(), '.local', 'state', 'persona-gate');
}
