/**
 * "Did you mean": the accepted name nearest a misspelt one, for the messages that name what is
 * accepted. Near means few edits (a letter added, dropped, changed, or two swapped, at most one for
 * every three letters), or the word being the start of one name only (`claude` for
 * `claude-code`); case is ignored. Null when nothing is that near, so that no guess is offered
 * where none is likely.
 */
export function nearest(word: string, accepted: readonly string[]): string | null {
  const w = String(word).toLowerCase();
  if (w === '') return null;
  const budget = Math.max(1, Math.floor(w.length / 3));
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const name of accepted) {
    const n = String(name).toLowerCase();
    if (n === w) return name;
    const d = distance(w, n, budget);
    // A word all of whose letters would change is not a misspelling of the name.
    if (d < bestDistance && d < Math.min(w.length, n.length)) [best, bestDistance] = [name, d];
  }
  if (best !== null && bestDistance <= budget) return best;
  const starting = w.length >= 3 ? accepted.filter((name) => name.toLowerCase().startsWith(w)) : [];
  return starting.length === 1 ? starting[0]! : null;
}

/** Edits from a to b (insertions, deletions, substitutions, adjacent swaps); anything above `cap` is cap + 1. */
function distance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let low = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1);
      row.push(d);
      if (d < low) low = d;
    }
    if (low > cap) return cap + 1;
    prev2 = prev;
    prev = row;
  }
  return Math.min(prev[b.length]!, cap + 1);
}

/**
 * " (did you mean X?)" in English, " (¿quería decir X?)" in Spanish, for the accepted name nearest
 * a misspelt one; nothing when none is near. `accepted` may be names joined by ", ", as a message
 * already lists them; `quote` puts the name in double quotes, as policy paths name keys.
 */
export function didYouMean(locale: 'en' | 'es', word: string, accepted: string | readonly string[], quote = false): string {
  const n = nearest(word, typeof accepted === 'string' ? accepted.split(', ') : accepted);
  if (n === null) return '';
  const name = quote ? `"${n}"` : n;
  return locale === 'es' ? ` (¿quería decir ${name}?)` : ` (did you mean ${name}?)`;
}
