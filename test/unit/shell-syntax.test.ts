import { describe, expect, it } from 'vitest';
import type { Command, ProcSubst, Script, SimpleCommand, WordPart } from '../../src/shell/syntax/ast';
import { parseScript, ParseError } from '../../src/shell/syntax/parser';
import { walkScript } from '../../src/shell/syntax/walk';
import { viewOf } from '../../src/shell/syntax/word';

/**
 * Lines the parser read otherwise than bash (found by comparing its trees with mvdan/sh's,
 * test/property/tree-oracle.test.ts), each checked against bash 5.2.
 */

/** The programs a line runs, as the walker reports them: each command's words as the reader views them. */
const commands = (src: string) => walkScript(parseScript(src), 0).commands.map((c) => c.words.map((w) => w.text));
const only = (s: Script): Command => s.statements[0]!.list.first.commands[0]!;
const rejects = (src: string) => expect(() => parseScript(src), src).toThrow(ParseError);

describe('the first } ends ${…}: a { of its own does not nest', () => {
  it('${x%{} is read (bash prints a for x=a{)', () => {
    const c = only(parseScript('echo ${x%{}')) as SimpleCommand;
    expect(c.words).toHaveLength(2);
    expect(c.words[1]!.parts).toMatchObject([{ type: 'param', name: 'x', rest: '%{' }]);
  });

  it('a command after ${x:-{a} is read as the command bash runs', () => {
    // bash: echo gets `{a`, then rm runs, then echo gets `}`
    expect(commands('echo ${x:-{a} ; rm -rf /tmp/x ; echo }')).toEqual([
      ['echo', '${x:-{a}'],
      ['rm', '-rf', '/tmp/x'],
      ['echo', '}'],
    ]);
  });

  it('${ nests still', () => {
    const c = only(parseScript('echo ${x:-${y}z}')) as SimpleCommand;
    expect(c.words).toHaveLength(2);
    expect(c.words[1]!.parts).toMatchObject([{ type: 'param', name: 'x', rest: ':-${y}z' }]);
  });
});

describe('digits before <( or >( are part of a word, not a redirection', () => {
  it('1<(true) is the word 1/dev/fd/63', () => {
    const c = only(parseScript('printf %s 1<(true) 2>(cat)')) as SimpleCommand;
    expect(c.redirects).toEqual([]);
    expect(c.words.map((w) => w.parts.map((p) => p.type))).toEqual([['lit'], ['lit'], ['lit', 'procsubst'], ['lit', 'procsubst']]);
    expect(commands('printf %s 1<(true) 2>(cat)').map((w) => w[0])).toEqual(['true', 'cat', 'printf']);
  });

  it('2>(…) with a space stays a redirection to a word that is not one', () => {
    rejects('cat 2> (x)');
  });
});

describe('process substitutions in [[ ]] run', () => {
  const procs = (src: string) => {
    const parts = (only(parseScript(src)) as Extract<Command, { type: 'test' }>).words.flatMap((w) => w.parts);
    return parts
      .filter((p): p is ProcSubst => p.type === 'procsubst')
      .map((p) => (only(p.body) as SimpleCommand).words.map((w) => viewOf(w).text));
  };

  it('after =~, at any depth of the regex parentheses (bash creates y in each)', () => {
    expect(procs('[[ x =~ a<(touch y) ]]')).toEqual([['touch', 'y']]);
    expect(procs('[[ x =~ (a|>(touch y)) ]]')).toEqual([['touch', 'y']]);
    expect(commands('[[ x =~ (a|>(touch y)) ]]')).toEqual([['touch', 'y']]);
  });

  it('as an operand, not the operators < and >', () => {
    expect(procs('[[ -n <(touch y) ]]')).toEqual([['touch', 'y']]);
    expect(procs('[[ x == >(touch y) ]]')).toEqual([['touch', 'y']]);
    const words = (only(parseScript('[[ a < b ]]')) as Extract<Command, { type: 'test' }>).words.map((w) => viewOf(w).text);
    expect(words).toEqual(['a', '<', 'b']);
  });
});

describe('a reserved word with <( or >( after it is a word', () => {
  it('}<(true) and fi<(true) are commands (bash runs }/dev/fd/63)', () => {
    const c = only(parseScript('}<(true)')) as SimpleCommand;
    expect(c.type).toBe('simple');
    expect(c.words[0]!.parts.map((p: WordPart) => p.type)).toEqual(['lit', 'procsubst']);
    expect(commands('fi<(true)').map((w) => w[0])).toEqual(['true', 'fi/dev/fd/63']);
  });

  it('} alone still closes a group', () => {
    expect(only(parseScript('{ a; }')).type).toBe('group');
  });
});

describe('a command cannot be a reserved word that closes a compound command, nor !', () => {
  it.each(['! fi', '! }', 'a | done', 'a && esac', 'a || then', 'time fi', 'a | ! b', 'a |& ! b'])(
    '%j is rejected, as bash does',
    (src) => {
      rejects(src);
    },
  );

  it('! before a pipeline, and reserved words as arguments, are read', () => {
    expect(parseScript('! a | b && ! c').statements[0]!.list.first.negated).toBe(true);
    expect(commands('echo fi done } ! then')).toEqual([['echo', 'fi', 'done', '}', '!', 'then']]);
  });
});

describe('a statement may start with &>', () => {
  it('&>/dev/null ls, and after && and !', () => {
    const c = only(parseScript('&>/dev/null ls')) as SimpleCommand;
    expect(c.redirects.map((r) => r.op)).toEqual(['&>']);
    expect(c.words.map((w) => viewOf(w).text)).toEqual(['ls']);
    expect(commands('a && &>log b; ! &>x c')).toEqual([['a'], ['b'], ['c']]);
  });

  it('& alone still may not start one', () => {
    rejects('& a');
    rejects('a && & b');
  });
});
