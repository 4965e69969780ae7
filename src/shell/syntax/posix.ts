import type { Command, Redirect, Script, Word, WordPart } from './ast';

/**
 * What POSIX sh reads otherwise than bash. A line that `sh -c`, dash or awk's `system()` runs is
 * read with bash's grammar; where it holds a construct only bash has, sh reads other commands out
 * of it: `[[ a > f ]]` and `(( … ))` run commands and redirect in dash, `cmd &>/dev/null x` puts
 * cmd in the background and runs x, `tee <<< x` writes x, a `function` keyword is a command's
 * name, `x[1/1]=y` runs the file y in a directory named `x[1`, `tee 10>f` writes a file named 10.
 * Such a line is not read as bash reads it.
 */

/** Redirections only bash has (`>|` and `<>` are POSIX). */
const BASH_REDIRECTS = new Set(['&>', '&>>', '<<<']);

/** The first construct of `script` that only bash has, as it is written, or null. */
export function bashOnly(script: Script): string | null {
  for (const stmt of script.statements) {
    for (const pipeline of [stmt.list.first, ...stmt.list.rest.map((r) => r.pipeline)])
      for (const command of pipeline.commands) {
        const found = inCommand(command);
        if (found !== null) return found;
      }
  }
  return null;
}

function inCommand(c: Command): string | null {
  switch (c.type) {
    case 'simple': {
      // `x[1]=y` and `x+=y` are words to sh, the first a command it runs
      const assign = c.assigns.find((a) => a.index !== null || a.append);
      if (assign !== undefined) return assign.index !== null ? `${assign.name}[…]=` : `${assign.name}+=`;
      return first([...c.assigns.map((a) => a.value), ...c.words].map(inWord)) ?? inRedirects(c.redirects);
    }
    case 'subshell':
    case 'group':
      return bashOnly(c.body) ?? inRedirects(c.redirects);
    case 'if':
      return (
        first(c.branches.flatMap((b) => [bashOnly(b.cond), bashOnly(b.body)])) ??
        (c.else ? bashOnly(c.else) : null) ??
        inRedirects(c.redirects)
      );
    case 'while':
      return bashOnly(c.cond) ?? bashOnly(c.body) ?? inRedirects(c.redirects);
    case 'for':
      if (c.select) return 'select';
      return first((c.items ?? []).map(inWord)) ?? bashOnly(c.body) ?? inRedirects(c.redirects);
    case 'case':
      return (
        inWord(c.subject) ??
        first(c.items.map((i) => (i.term === ';&' || i.term === ';;&' ? i.term : null))) ??
        first(c.items.flatMap((i) => [...i.patterns.map(inWord), bashOnly(i.body)])) ??
        inRedirects(c.redirects)
      );
    case 'func':
      return c.keyword === true ? 'function' : inCommand(c.body);
    case 'arithcmd':
      return '((';
    case 'arithfor':
      return 'for ((';
    case 'test':
      return '[[';
    case 'coproc':
      return 'coproc';
  }
}

function inRedirects(redirects: readonly Redirect[]): string | null {
  for (const r of redirects) {
    if (BASH_REDIRECTS.has(r.op)) return r.op;
    // `{fd}>x`, and a descriptor of two digits or more (`10>x`: to sh, the word 10 and `>x`)
    if (r.fd.startsWith('{') || r.fd.length > 1) return `${r.fd}${r.op}`;
    const found = inWord(r.target) ?? (r.heredoc ? inParts(r.heredoc.parts) : null);
    if (found !== null) return found;
  }
  return null;
}

function inWord(w: Word): string | null {
  return inParts(w.parts);
}

function inParts(parts: readonly WordPart[]): string | null {
  for (const p of parts) {
    switch (p.type) {
      case 'ansi':
        return "$'…'";
      case 'procsubst':
        return `${p.op}(…)`;
      case 'extglob':
        return p.text.slice(0, 2);
      case 'array':
        return '=(…)';
      case 'dq': {
        if (p.locale) return '$"…"';
        const found = inParts(p.parts);
        if (found !== null) return found;
        break;
      }
      case 'param': {
        const found = first(p.nested.map(inWord));
        if (found !== null) return found;
        break;
      }
      case 'cmdsubst': {
        const found = bashOnly(p.body);
        if (found !== null) return found;
        break;
      }
      case 'arith': {
        if (p.bracket) return '$[';
        const found = inParts(p.nested);
        if (found !== null) return found;
        break;
      }
      default:
        break;
    }
  }
  return null;
}

const first = (found: readonly (string | null)[]): string | null => found.find((f) => f !== null) ?? null;
