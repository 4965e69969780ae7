import { HINTS, type Annotations, type Lock } from './lock';

/** One difference between the lock and what the servers list now. */
export type Drift =
  | { kind: 'server_added' | 'server_removed'; server: string }
  | { kind: 'tool_added' | 'tool_removed' | 'description' | 'input_schema'; server: string; tool: string }
  | { kind: 'annotations'; server: string; tool: string; changes: { hint: string; was: boolean | undefined; now: boolean | undefined }[] };

function annotationChanges(was: Annotations, now: Annotations) {
  return HINTS.filter((h) => was[h] !== now[h]).map((hint) => ({ hint, was: was[hint], now: now[hint] }));
}

/** Every drift from `pinned` to `live`, sorted by server, then tool; `servers` limits the comparison. */
export function lockDrift(pinned: Lock, live: Lock, servers?: readonly string[]): Drift[] {
  const out: Drift[] = [];
  const names = [...new Set([...Object.keys(pinned.servers), ...Object.keys(live.servers)])]
    .filter((s) => servers === undefined || servers.includes(s))
    .sort();
  for (const server of names) {
    const a = pinned.servers[server];
    const b = live.servers[server];
    if (!a) {
      out.push({ kind: 'server_added', server });
      continue;
    }
    if (!b) {
      out.push({ kind: 'server_removed', server });
      continue;
    }
    for (const tool of [...new Set([...Object.keys(a.tools), ...Object.keys(b.tools)])].sort()) {
      const x = a.tools[tool];
      const y = b.tools[tool];
      if (!x) out.push({ kind: 'tool_added', server, tool });
      else if (!y) out.push({ kind: 'tool_removed', server, tool });
      else {
        const changes = annotationChanges(x.annotations, y.annotations);
        if (changes.length > 0) out.push({ kind: 'annotations', server, tool, changes });
        if (x.description_sha256 !== y.description_sha256) out.push({ kind: 'description', server, tool });
        if (x.input_schema_sha256 !== y.input_schema_sha256) out.push({ kind: 'input_schema', server, tool });
      }
    }
  }
  return out;
}
