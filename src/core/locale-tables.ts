import type { Locale } from './messages';

/**
 * A table per language, each made the first time it is asked for: a table of message functions
 * costs a one-call process its making, which a call that prints none of them, or prints them in
 * the other language, need not pay.
 */
export function tablesOnFirstUse<T>(make: Record<Locale, () => T>): Record<Locale, T> {
  const made: Partial<Record<Locale, T>> = {};
  return {
    get en() {
      return (made.en ??= make.en());
    },
    get es() {
      return (made.es ??= make.es());
    },
  };
}
