/**
 * The one glob engine, for the shell reader and the protected-path check: a glob segment (no `/`)
 * as bash matches it — `*`, `?`, `[…]` with `[!…]`/`[^…]` and POSIX classes, extended globs
 * `@(a|b)`, `*(…)`, `+(…)`, `?(…)`, `!(…)` (`!(…)` taken as anything) — as a regular expression.
 * `*` and `?` also match a leading dot, as with dotglob: a pattern counts where it may match.
 */
export function segmentMatcher(segment: string, ignoreCase = false): RegExp {
  let re = '';
  for (let k = 0; k < segment.length; k++) {
    const c = segment[k]!;
    if ('@*+?!'.includes(c) && segment[k + 1] === '(') {
      const close = segment.indexOf(')', k + 2);
      if (close !== -1) {
        const alternatives = segment
          .slice(k + 2, close)
          .split('|')
          .map((a) =>
            a
              .replace(/[.+^${}()\\[\]]/g, '\\$&')
              .replace(/\*/g, '[^/]*')
              .replace(/\?/g, '[^/]'),
          );
        re += c === '!' ? '[^/]*' : `(?:${alternatives.join('|')})${c === '@' ? '' : c === '+' ? '+' : c}`;
        k = close;
        continue;
      }
    }
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const close = segment.indexOf(']', k + 2);
      if (segment.startsWith('[:', k + 1)) {
        // a POSIX class such as [[:lower:]]: any one character will do
        const end = segment.indexOf(']]', k);
        re += '[^/]';
        k = end === -1 ? segment.length : end + 1;
      } else if (close === -1) re += '\\[';
      else {
        let body = segment.slice(k + 1, close);
        if (body.startsWith('!') || body.startsWith('^')) body = `^${body.slice(1)}`;
        re += `[${body.replace(/\\/g, '\\\\')}]`;
        k = close;
      }
    } else re += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  try {
    return new RegExp(`^${re}$`, ignoreCase ? 'i' : '');
  } catch {
    // a bracket expression JavaScript does not take (`[z-a]`): it may match anything
    return /^/;
  }
}
