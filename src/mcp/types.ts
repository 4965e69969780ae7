import type { Level } from '../core/levels';
import type { Annotations } from './lock';

/** What the hook needs to know about the lock a policy took commands from (kept in the policy index). */
export interface McpSettings {
  /** The lock file, absolute. */
  lock: string;
  /** SHA-256 of the lock's bytes the commands were taken from. */
  sha256: string;
  /** The lock file's identity and change times when it was read (see lockStamp); '' when not read from a file. */
  stamp: string;
  /** The servers whose tools come from the lock: any other tool of theirs is not pinned. */
  servers: string[];
  /** Tool names in the lock that are not commands (meta tools, excluded tools). */
  unlisted: string[];
}

/** Where a lock-derived command came from, for `explain`. */
export interface McpOrigin {
  server: string;
  tool: string;
  annotations: Annotations;
  /** The level the annotations declare. */
  manifest: Level;
  level: Level;
  /** `policy` when the policy raised the level. */
  source: 'annotation' | 'policy';
  /** The JSON path of the policy entry that raised it, or of the family rule that took the tool. */
  path: string;
}

export interface Pinned {
  settings: McpSettings;
  origins: Record<string, McpOrigin>;
}
