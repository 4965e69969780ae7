/** A record lookup that never reaches the prototype (`__proto__`, `constructor`, …). */
export function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}
