import type { Unreadable } from '../../unreadable';
import type { Word } from '../../syntax/word';

/**
 * fzf's key bindings and its preview command.
 *
 * A binding (`--bind KEY:ACTION+ACTION,KEY:ACTION`) runs a command only through some of its
 * actions (`execute(…)`, `become(…)`, `reload(…)`, `transform(…)`, `preview(…)`, …): a value made
 * only of the actions below, which move, select, scroll or change what fzf shows, runs nothing.
 * Any other action, or a value this grammar does not read, is taken to run one.
 *
 * The preview command (`--preview CMD`) is run by `$SHELL -c` for the current item, its
 * placeholders (`{}`, `{1}`, `{q}`, `{+}`) replaced by the items, each quoted in single quotes:
 * read as a shell line whose placeholders are values known only at run time. A placeholder inside
 * quotes (`"{}"`), or near code that nests quotes (`$(…)`, `${…}`, a here-document), is unquoted
 * again by fzf's own quotes, and `{r}` is not quoted at all: an item's text would be shell code.
 */

/** Actions that run no command (fzf 0.38's man page and later releases). */
const PLAIN_ACTIONS = new Set(
  (
    'abort accept accept-non-empty accept-or-print-query backward-char backward-delete-char backward-delete-char/eof ' +
    'backward-kill-word backward-word beginning-of-line cancel clear-screen clear-selection clear-query clear-multi close ' +
    'delete-char delete-char/eof deselect deselect-all disable-search enable-search down down-match up-match down-selected ' +
    'up-selected end-of-line first forward-char forward-word ignore jump jump-accept jump-cancel kill-line kill-word last ' +
    'next-history next-selected page-down page-up half-page-down half-page-up hide-preview prev-history prev-selected ' +
    'preview-down preview-up preview-page-down preview-page-up preview-half-page-down preview-half-page-up preview-bottom ' +
    'preview-top print-query put refresh-preview replace-query select select-all show-preview toggle toggle-all toggle+down ' +
    'toggle+up toggle-in toggle-out toggle-preview toggle-preview-wrap toggle-search toggle-sort toggle-track ' +
    'toggle-track-current track track-current untrack-current toggle-wrap toggle-wrap-word toggle-hscroll toggle-header ' +
    'show-header hide-header toggle-input show-input hide-input toggle-raw enable-raw disable-raw toggle-multi-line ' +
    'offset-up offset-down offset-middle unix-line-discard unix-word-rubout up yank exclude exclude-multi ' +
    'toggle-bind toggle-preview-window'
  ).split(' '),
);

/** Actions that take an argument and run no command with it: it is a string fzf shows, a position or key names. */
const PLAIN_WITH_ARGUMENT = new Set(
  (
    'change-border-label change-preview-label change-preview-window change-prompt change-query change-header ' +
    'change-header-label change-input-label change-list-label change-ghost change-pointer change-multi change-nth ' +
    'change-with-nth pos put rebind unbind toggle-bind print search'
  ).split(' '),
);

/** A key or an event name: letters, digits, `-`, or one printable character (`ctrl-/`, `?`). */
const KEY = /^([a-zA-Z0-9-]+[^,:+()\s]?|[^,:+()\s])$/;

/** An action: a name, with its argument in parentheses free of `(`, `)`, `,` and `:` (which the grammar below does not read). */
const ACTION = /^([a-z][a-z0-9/-]*?)(?:\(([^(),:]*)\))?$/;

/** Whether a `--bind` value may run a command: true unless every action of every binding is a plain one. */
export function bindRuns(value: Word): boolean {
  if (value.dynamic || value.pattern) return true;
  const text = value.text;
  if (text === '') return false;
  for (const binding of text.split(',')) {
    const colon = binding.indexOf(':', 1);
    if (colon === -1) return true;
    const key = binding.slice(0, colon);
    if (!KEY.test(key)) return true;
    // `toggle+down` is one action; `down+accept` two: read the longest known names first
    let actions = binding.slice(colon + 1);
    if (actions === '') return true;
    while (actions !== '') {
      const next = takeAction(actions);
      if (next === null) return true;
      actions = next;
    }
  }
  return false;
}

/** The rest after one plain action and its `+`, or null when the first action is not a plain one. */
function takeAction(actions: string): string | null {
  for (const plain of ['toggle+down', 'toggle+up']) {
    if (actions === plain) return '';
    if (actions.startsWith(`${plain}+`)) return actions.slice(plain.length + 1);
  }
  const paren = actions.indexOf('(');
  const plus = actions.indexOf('+');
  let end: number;
  if (paren !== -1 && (plus === -1 || paren < plus)) {
    const close = actions.indexOf(')', paren);
    if (close === -1) return null;
    end = close + 1;
    if (end < actions.length && actions[end] !== '+') return null;
  } else end = plus === -1 ? actions.length : plus;
  const action = actions.slice(0, end);
  const m = ACTION.exec(action);
  if (!m) return null;
  const [, name, arg] = m;
  if (arg === undefined ? !PLAIN_ACTIONS.has(name!) : !PLAIN_WITH_ARGUMENT.has(name!)) return null;
  return end >= actions.length ? '' : actions.slice(end + 1) === '' ? null : actions.slice(end + 1);
}

/** fzf's placeholders: `{}`, `{1}`, `{-1}`, `{2..}`, `{+}`, `{+f}`, `{q}`, `{n}`, `{fzf:query}`, with an optional `\` before. */
const PLACEHOLDER = /\\?\{(?:[+sfrn]*-?[0-9]*(?:\.\.-?[0-9]*)?(?:,-?[0-9]*(?:\.\.-?[0-9]*)?)*|q(?::s?[0-9,.-]+)?|fzf:[a-z]+)\}/g;

/** Code in which quotes nest, which the quote tracking below does not follow. */
const NESTS_QUOTES = /\$\(|\$\{|`|<\(|>\(|<</;

/** The name given to the values of placeholders in the line read in their place. */
const ONE = '"$FZF_PLACEHOLDER"';
const MANY = '$FZF_PLACEHOLDERS';

/**
 * The preview command as a shell line, each placeholder replaced by a variable (one quoted word,
 * or for `{+…}` words split at run time); or why it cannot be read so.
 */
export function previewLine(text: string): { line: string } | { problem: Unreadable } {
  PLACEHOLDER.lastIndex = 0;
  if (!PLACEHOLDER.test(text)) return { line: text };
  if (NESTS_QUOTES.test(text)) return { problem: { id: 'preview_nests_quotes' } };
  let out = '';
  let quote: '' | "'" | '"' = '';
  for (let k = 0; k < text.length;) {
    const c = text[k]!;
    if (quote === '' && (c === '{' || c === '\\')) {
      PLACEHOLDER.lastIndex = k;
      const m = PLACEHOLDER.exec(text);
      if (m && m.index === k) {
        const p = m[0];
        if (p.startsWith('\\')) return { problem: { id: 'preview_escaped_placeholder', subject: p } };
        if (/^\{[+sfn]*r/.test(p)) return { problem: { id: 'preview_unquoted_placeholder', subject: p } };
        out += p.startsWith('{+') ? MANY : ONE;
        k += p.length;
        continue;
      }
    }
    if (quote !== "'" && c === '\\') {
      out += text.slice(k, k + 2);
      k += 2;
      continue;
    }
    if (quote === '' && (c === "'" || c === '"')) quote = c;
    else if (quote !== '' && c === quote) quote = '';
    else if (quote !== '' && c === '{') {
      PLACEHOLDER.lastIndex = k;
      const m = PLACEHOLDER.exec(text);
      if (m && m.index === k) return { problem: { id: 'preview_placeholder_in_quotes', subject: m[0] } };
    }
    out += c;
    k++;
  }
  return { line: out };
}

/** The values of `--preview` among fzf's words (every one: the last given is used, but each is read). */
export function previews(args: readonly Word[]): Word[] {
  const out: Word[] = [];
  for (let k = 0; k < args.length; k++) {
    const t = args[k]!.text;
    if (t === '--') break;
    if (t === '--preview' && args[k + 1]) out.push(args[++k]!);
    else if (t.startsWith('--preview=')) out.push({ ...args[k]!, text: t.slice('--preview='.length) });
  }
  return out;
}
