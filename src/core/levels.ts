export const LEVELS = ['none', 'read_only', 'workspace_write', 'process_exec', 'network'] as const;
export type Level = (typeof LEVELS)[number];

export const TIERS = ['auto', 'confirm', 'block'] as const;
export type Tier = (typeof TIERS)[number];

export function levelRank(level: Level): number {
  return LEVELS.indexOf(level);
}

export function isLevel(value: unknown): value is Level {
  return typeof value === 'string' && (LEVELS as readonly string[]).includes(value);
}

export function lowerLevel(a: Level, b: Level): Level {
  return levelRank(a) <= levelRank(b) ? a : b;
}

export function higherLevel(a: Level, b: Level): Level {
  return levelRank(a) >= levelRank(b) ? a : b;
}

export function exceeds(level: Level, ceiling: Level): boolean {
  return levelRank(level) > levelRank(ceiling);
}

/** A level at or below read_only never changes state (SPEC §6 rule 3). */
export function isStateChanging(level: Level): boolean {
  return levelRank(level) > levelRank('read_only');
}
