import fc from 'fast-check';

/**
 * A grammar of bash command lines built from the constructs the shell reader claims to read, with
 * program words drawn from the stubbed set (mostly `aeat`, in catalogued and uncatalogued argument
 * orders). Every piece carries tags naming its constructs, to tell which ones the reader misses.
 */

export interface Gen {
  src: string;
  tags: string[];
}

export interface GeneratedLine extends Gen {
  /** Exit status of every stubbed program: 1 takes the `||` branches. */
  stubStatus: 0 | 1;
}

const gen = (src: string, ...tags: string[]): Gen => ({ src, tags });
const merge = (src: string, parts: Gen[], ...tags: string[]): Gen => ({ src, tags: [...tags, ...parts.flatMap((p) => p.tags)] });

export const squote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
export const dquote = (s: string) => `"${s.replace(/[\\"$`]/g, '\\$&')}"`;
const PLAIN = /^[A-Za-z0-9_./=:@%+,-]+$/;

/** A literal word, quoted one of the ways bash removes again. */
function quotedWord(word: string, tagPrefix: string): fc.Arbitrary<Gen> {
  const k = Math.max(1, Math.floor(word.length / 2));
  const forms: [number, Gen][] = [
    [PLAIN.test(word) ? 12 : 0, gen(word, `${tagPrefix}:plain`)],
    [3, gen(squote(word), `${tagPrefix}:single`)],
    [2, gen(dquote(word), `${tagPrefix}:double`)],
    [1, gen(`${squote(word.slice(0, k))}${PLAIN.test(word.slice(k)) ? word.slice(k) : squote(word.slice(k))}`, `${tagPrefix}:partial`)],
    [PLAIN.test(word) ? 1 : 0, gen(`\\${word}`, `${tagPrefix}:backslash`)],
    [PLAIN.test(word) && word.length > 1 ? 1 : 0, gen(`${word.slice(0, 1)}\\${word.slice(1)}`, `${tagPrefix}:backslash-inside`)],
    [1, gen(`$'${word.replace(/[\\']/g, '\\$&')}'`, `${tagPrefix}:ansi-c`)],
    [PLAIN.test(word.slice(1)) ? 1 : 0, gen(`$'\\x${word.charCodeAt(0).toString(16)}'${word.slice(1)}`, `${tagPrefix}:ansi-c-hex`)],
    [1, gen(`${dquote(word.slice(0, k))}${squote(word.slice(k))}`, `${tagPrefix}:double+single`)],
  ];
  return fc.oneof(...forms.filter(([w]) => w > 0).map(([weight, g]) => ({ weight, arbitrary: fc.constant(g) })));
}

export const AEAT_CATALOGUED = [
  'modelo list',
  'modelo show',
  'modelo check',
  'modelo export',
  'modelo export --modelo 303',
  'modelo record',
  'ledger list',
  'ledger entry delete 42',
  'bank reconcile',
  'config profile create erika',
  'whoami',
  'modelo work create --modelo 303',
];
export const AEAT_UNCATALOGUED = [
  'export modelo',
  'modelo --year 2026 export',
  '--profile p modelo export',
  'modelo',
  'modelo exporter',
  'ledger entry',
];
const GH = ['pr list', 'pr merge 1', 'pr view 2', 'api repos/o/r'];
const OTHERS: [string, string][] = [
  ['git', 'status'],
  ['git', 'push'],
  ['npm', 'test'],
  ['node', '-e 1'],
  ['python3', '-c print(1)'],
  ['make', 'all'],
  ['curl', '-s http://127.0.0.1:9'],
  ['ls', '-la'],
  ['cat', 'README.md'],
  ['grep', '-r x .'],
  ['rm', '-rf build'],
  ['cp', 'a b'],
  ['mv', 'a b'],
  ['tee', 'out.txt'],
  ['frobnicate', '--all'],
];

interface Call {
  program: string;
  args: string[];
}

const call: fc.Arbitrary<Call & { tags: string[] }> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(...AEAT_CATALOGUED).map((a) => ({ program: 'aeat', args: a.split(' '), tags: ['aeat:catalogued'] })),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(...AEAT_UNCATALOGUED).map((a) => ({ program: 'aeat', args: a.split(' '), tags: ['aeat:uncatalogued'] })),
  },
  { weight: 1, arbitrary: fc.constantFrom(...GH).map((a) => ({ program: 'gh', args: a.split(' '), tags: ['gh'] })) },
  { weight: 3, arbitrary: fc.constantFrom(...OTHERS).map(([p, a]) => ({ program: p, args: a.split(' '), tags: [`program:${p}`] })) },
);

/** A call's words, the program word and some arguments quoted. */
const callWords: fc.Arbitrary<Gen & { words: string[] }> = call.chain((c) =>
  fc
    .tuple(
      quotedWord(c.program, 'program'),
      fc.tuple(
        ...c.args.map((a) =>
          fc.oneof(
            { weight: 6, arbitrary: fc.constant(gen(PLAIN.test(a) ? a : squote(a))) },
            { weight: 1, arbitrary: quotedWord(a, 'arg') },
          ),
        ),
      ),
    )
    .map(([p, as]) => ({
      words: [p.src, ...as.map((a) => a.src)],
      src: [p.src, ...as.map((a) => a.src)].join(' '),
      tags: [...c.tags, ...p.tags, ...as.flatMap((a) => a.tags)],
    })),
);

const ASSIGNMENTS = ['', '', '', '', 'FOO=1 ', 'A="x y" ', 'LC_ALL=C B=2 '];
const WRAPPERS = [
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  '',
  'sudo ',
  'sudo -u root ',
  'env ',
  'env A=1 ',
  'env -u HOME ',
  'timeout 5 ',
  'timeout -s KILL 5 ',
  'nohup ',
  'nice -n 5 ',
  'command ',
  'time ',
  'stdbuf -oL ',
  'setsid ',
  'exec ',
  'sudo env X=1 nohup nice ',
  'unshare -r ',
  'chronic ',
  'builtin command ',
  'env -- ',
];
const REDIRECTS = [
  '',
  '',
  '',
  '',
  ' > out.txt',
  ' >> build.log 2>&1',
  ' 2>/dev/null',
  ' &> /dev/null',
  ' < /dev/null',
  ' >| f',
  ' <<< "x"',
  ' 2>&1',
];
const GAPS: [number, string][] = [
  [20, ' '],
  [1, ' \\\n'],
  [1, ' \\\n\t'],
  [1, '  '],
];

/** One simple command: assignments, a wrapper, a call, redirections; words joined by spaces or line continuations. */
export const simple: fc.Arbitrary<Gen> = fc
  .tuple(
    fc.constantFrom(...ASSIGNMENTS),
    fc.constantFrom(...WRAPPERS),
    callWords,
    fc.constantFrom(...REDIRECTS),
    fc.array(fc.oneof(...GAPS.map(([weight, g]) => ({ weight, arbitrary: fc.constant(g) }))), { minLength: 12, maxLength: 12 }),
  )
  .map(([assign, wrapper, c, redirect, gaps]) => {
    const words = [...(assign + wrapper).split(' ').filter(Boolean), ...c.words];
    const src = words.reduce((acc, w, k) => (k === 0 ? w : `${acc}${gaps[k % gaps.length]!}${w}`), '') + redirect;
    const tags = [...c.tags];
    if (assign) tags.push('assignment');
    if (wrapper) tags.push(`wrapper:${wrapper.trim()}`);
    if (redirect) tags.push(`redirect:${redirect.trim()}`);
    if (/\\\n/.test(src)) tags.push('line-continuation');
    return { src, tags };
  });

/** A simple command that calls `aeat`. */
const simpleAeat: fc.Arbitrary<Gen> = simple.filter((s) => s.tags.some((t) => t.startsWith('aeat:')));

const OPERATORS: [string, string][] = [
  [' ; ', ';'],
  [' && ', '&&'],
  [' || ', '||'],
  [' | ', '|'],
  [' |& ', '|&'],
  [' & ', '&'],
  ['\n', 'newline'],
  [';\n', ';newline'],
  [' &\n', '&newline'],
  [';', ';tight'],
  ['&&', '&&tight'],
  ['|', '|tight'],
];

const HEREDOC_OPENERS: [string, string, string][] = [
  ['cat', '', 'cat'],
  ['cat', ' > out.txt', 'cat>file'],
  ['cat', ' | sh', 'cat|sh'],
  ['bash', '', 'bash'],
  ['tee out.txt', '', 'tee'],
  [':', '', ':'],
  ['cat', ' ; aeat modelo export', 'cat;same-line-command'],
];
const DELIMITERS = ['EOF', 'END', 'X_1'];
type DelimQuote = 'plain' | 'single' | 'double' | 'backslash' | 'partial';
const renderDelimiter = (d: string, q: DelimQuote) =>
  q === 'plain'
    ? d
    : q === 'single'
      ? `'${d}'`
      : q === 'double'
        ? `"${d}"`
        : q === 'backslash'
          ? `\\${d}`
          : `${d.slice(0, 1)}'${d.slice(1)}'`;

function heredoc(inner: fc.Arbitrary<Gen>): fc.Arbitrary<Gen> {
  const bodyLine = (delim: string) =>
    fc.oneof(
      { weight: 2, arbitrary: fc.constant(gen('hello world', 'heredoc-body:text')) },
      { weight: 3, arbitrary: simple.map((s) => merge(`$(${s.src})`, [s], 'heredoc-body:$()')) },
      { weight: 1, arbitrary: simple.map((s) => merge(`echo \`${s.src.replace(/[\\`$]/g, '\\$&')}\``, [s], 'heredoc-body:backquote')) },
      { weight: 3, arbitrary: inner.map((s) => merge(s.src, [s], 'heredoc-body:command-text')) },
      { weight: 1, arbitrary: fc.constant(gen(`${delim}2`, 'heredoc-decoy:EOF2')) },
      { weight: 1, arbitrary: fc.constant(gen(` ${delim}`, 'heredoc-decoy:space-EOF')) },
      { weight: 1, arbitrary: fc.constant(gen(`${delim} `, 'heredoc-decoy:EOF-space')) },
      { weight: 1, arbitrary: fc.constant(gen(`\t${delim}`, 'heredoc-decoy:tab-EOF')) },
      { weight: 1, arbitrary: fc.constant(gen(`"${delim}"`, 'heredoc-decoy:quoted-EOF')) },
      { weight: 1, arbitrary: fc.constant(gen(`${delim}\\`, 'heredoc-decoy:EOF-backslash')) },
    );
  return fc
    .record({
      opener: fc.constantFrom(...HEREDOC_OPENERS),
      delim: fc.constantFrom(...DELIMITERS),
      quote: fc.constantFrom<DelimQuote>('plain', 'plain', 'single', 'double', 'backslash', 'partial'),
      dash: fc.boolean(),
      inSubstitution: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      terminated: fc.oneof({ weight: 8, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
      after: fc.option(inner, { freq: 2 }),
    })
    .chain((h) => fc.tuple(fc.constant(h), fc.array(fc.tuple(bodyLine(h.delim), fc.boolean()), { minLength: 1, maxLength: 4 })))
    .map(([h, body]) => {
      const [before, rest, openerTag] = h.opener;
      const lines = body.map(([l, tab]) => (h.dash && tab ? `\t${l.src}` : l.src));
      const end = h.terminated ? [`${h.dash ? '\t' : ''}${h.delim}`] : [];
      const doc = `${before} <<${h.dash ? '-' : ''}${renderDelimiter(h.delim, h.quote)}${rest}\n${[...lines, ...end].join('\n')}`;
      const parts = body.map(([l]) => l);
      const tags = [
        `heredoc:${openerTag}`,
        `heredoc-delimiter:${h.quote}`,
        ...(h.dash ? ['heredoc:<<-'] : []),
        ...(h.terminated ? [] : ['heredoc:unterminated']),
      ];
      let src = h.inSubstitution ? `x=$(${doc}\n)` : doc;
      if (h.inSubstitution) tags.push('heredoc:in-$()');
      if (h.after && h.terminated) {
        src = `${src}\n${h.after.src}`;
        parts.push(h.after);
        tags.push('heredoc:then-command');
      }
      return merge(src, parts, ...tags);
    });
}

const wrapIn = (inner: fc.Arbitrary<Gen>, forms: [string, (s: string) => string, number?][]): fc.Arbitrary<Gen> =>
  fc.oneof(...forms.map(([tag, f, weight]) => ({ weight: weight ?? 1, arbitrary: inner.map((s) => merge(f(s.src), [s], tag)) })));

/** Command lines, nested up to `depth` levels of construct. */
export function commandLine(depth = 3): fc.Arbitrary<Gen> {
  const { cmd } = fc.letrec<{ cmd: Gen }>((tie) => ({
    cmd: fc.oneof(
      { depthSize: 'small', withCrossShrink: true, maxDepth: depth },
      { weight: 6, arbitrary: simple },
      {
        weight: 4,
        arbitrary: fc
          .tuple(tie('cmd'), fc.constantFrom(...OPERATORS), tie('cmd'))
          .map(([a, [op, tag], b]) => merge(`${a.src}${op}${b.src}`, [a, b], `operator:${tag}`)),
      },
      {
        weight: 1,
        arbitrary: wrapIn(tie('cmd'), [
          ['subshell', (s) => `( ${s} )`],
          ['subshell-tight', (s) => `(${s})`],
          ['group', (s) => `{ ${s}; }`],
          ['group-newline', (s) => `{\n${s}\n}`],
        ]),
      },
      {
        weight: 2,
        arbitrary: wrapIn(tie('cmd'), [
          ['$()', (s) => `echo $(${s})`],
          ['"$()"', (s) => `echo "$(${s})"`],
          ['assign=$()', (s) => `x=$(${s})`],
          ['<()', (s) => `cat <(${s})`],
          ['>()', (s) => `tee >(${s}) < /dev/null`],
          ['$()-newline', (s) => `echo $(\n${s}\n)`],
          ['arith-$()', (s) => `echo $(( $(${s}) + 1 ))`],
          ['${:-$()}', (s) => `echo \${x:-$(${s})}`],
        ]),
      },
      { weight: 1, arbitrary: simple.map((s) => merge(`echo \`${s.src.replace(/[\\`$]/g, '\\$&')}\``, [s], 'backquote')) },
      {
        weight: 2,
        arbitrary: wrapIn(tie('cmd'), [
          ['bash -c', (s) => `bash -c ${squote(s)}`, 2],
          ['sh -c', (s) => `sh -c ${dquote(s)}`],
          ['bash -lc', (s) => `bash -lc ${squote(s)}`],
          ['bash -o -c', (s) => `bash -o pipefail -c ${squote(s)}`],
          ['bash -c arg0', (s) => `bash -c ${squote(s)} name arg`],
          ['zsh -c', (s) => `zsh -c ${squote(s)}`],
          ['eval', (s) => `eval ${squote(s)}`, 2],
          ['eval-double', (s) => `eval ${dquote(s)}`],
          ['sudo bash -c', (s) => `sudo bash -c ${squote(s)}`],
          ['env bash -c', (s) => `env A=1 sh -c ${squote(s)}`],
        ]),
      },
      { weight: 1, arbitrary: simple.map((s) => merge(`eval ${s.src}`, [s], 'eval-words')) },
      {
        weight: 2,
        arbitrary: wrapIn(tie('cmd'), [
          ['echo|bash', (s) => `echo ${squote(s)} | bash`],
          ['printf|sh', (s) => `printf '%s\\n' ${squote(s)} | sh`],
          ['bash<<EOF', (s) => `bash <<'EOF'\n${s}\nEOF`],
          ['bash<<<', (s) => `bash -s <<< ${squote(s)}`],
          ['sh<(echo)', (s) => `sh < <(echo ${squote(s)})`],
          ['bash<(echo)', (s) => `bash <(echo ${squote(s)})`],
        ]),
      },
      {
        // Code bash runs in the line's own shell, from text the reader can only see as data: only
        // catalogued calls here, which a persona must refuse (SPEC §9.3); anything else in such code
        // is the residue of §9.8.
        weight: 1,
        arbitrary: wrapIn(simpleAeat, [
          ['source-file', (s) => `echo ${squote(s)} > s.sh; . ./s.sh`],
          ['source-stdin', (s) => `source /dev/stdin <<< ${squote(s)}`],
          ['trap', (s) => `trap ${squote(s)} EXIT`],
          ['alias', (s) => `shopt -s expand_aliases\nalias x=${squote(s)}\nx`],
          ['alias-same-line', (s) => `shopt -s expand_aliases; alias x=${squote(s)}; x`],
          ['xargs sh -c', (s) => `echo ${squote(s)} | xargs -I{} sh -c '{}'`],
          ['read-then-eval', (s) => `read -r c <<< ${squote(s)}; eval "$c"`],
        ]),
      },
      { weight: 2, arbitrary: heredoc(tie('cmd')) },
      {
        weight: 2,
        arbitrary: wrapIn(tie('cmd'), [
          ['function', (s) => `f() { ${s}; }; f`, 2],
          ['function-keyword', (s) => `function g {\n${s}\n}\ng`],
          ['function-uncalled', (s) => `f() { ${s}; }`],
          ['function-shadows-aeat', (s) => `aeat() { ${s}; }; aeat modelo export`],
          ['function-shadows-ls', (s) => `ls() { ${s}; }; ls`],
          ['function-then-command', (s) => `aeat() { ${s}; }; command aeat modelo export`],
        ]),
      },
      {
        weight: 3,
        arbitrary: wrapIn(tie('cmd'), [
          ['if', (s) => `if ${s}; then ls; fi`],
          ['if-then', (s) => `if true; then ${s}; fi`],
          ['if-else', (s) => `if false; then ls; else ${s}; fi`],
          ['while-false', (s) => `while false; do ${s}; done`],
          ['while-read', (s) => `while read -r l; do ${s}; done <<< "a"`],
          ['for', (s) => `for i in 1 2; do ${s}; done`],
          ['for-newline', (s) => `for i in 1\ndo\n${s}\ndone`],
          ['case', (s) => `case x in x) ${s};; esac`],
          ['case-paren', (s) => `case x in (x) ${s} ;; esac`],
          ['until', (s) => `until true; do ${s}; done`],
          ['!', (s) => `! ${s}`],
          ['[[ ]] &&', (s) => `[[ -n x ]] && ${s}`],
          ['(( )) &&', (s) => `(( 1 )) && ${s}`],
          ['comment', (s) => `ls # ${s}`],
          ['comment-after', (s) => `${s} # aeat modelo export`],
          ['comment-line', (s) => `# ${s}\nls`],
          ['hash-in-word', (s) => `echo a#b; ${s}`],
        ]),
      },
      {
        weight: 2,
        arbitrary: fc.tuple(callWords, fc.integer({ min: 0, max: 11 })).map(([c, k]) => {
          const forms: [string, string][] = [
            ['xargs', `echo 303 | xargs ${c.src}`],
            ['xargs -I', `printf '%s\\n' export | xargs -I{} ${c.words[0]} modelo {}`],
            ['xargs -n', `echo x | xargs -n 1 ${c.src}`],
            ['find -exec', `find . -exec ${c.src} {} \\;`],
            ['find -exec no {}', `find . -maxdepth 0 -exec ${c.src} \\;`],
            ['find -execdir +', `find . -execdir ${c.src} {} +`],
            ['watch', `watch -n 1 ${c.src}`],
            ['watch -x', `watch -x ${c.src}`],
            ['script -c', `script -qc ${squote(c.src)} /dev/null`],
            ['su -c', `su -c ${squote(c.src)}`],
            ['ssh', `ssh host ${c.src}`],
            ['brace-expansion', `{${c.words.join(',')}}`],
          ];
          const [tag, src] = forms[k]!;
          return merge(src, [c], `runner:${tag}`);
        }),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          gen('aeat {modelo,} export', 'brace-expansion:empty-alternative'),
          gen('aeat modelo ex{port,}', 'brace-expansion:word'),
          gen('{ls,-la}; aeat modelo list', 'brace-expansion:program'),
          gen('a=aeat; $a modelo export', 'variable-program'),
          gen('alias x=aeat; x modelo export', 'alias-not-expanded'),
          gen("bash -c 'shopt -s expand_aliases; alias x=aeat\nx modelo export'", 'alias-in-bash-c'),
          gen("bash -c 'alias x=aeat; x modelo export'", 'alias-same-line-in-bash-c'),
          gen('x=modelo; aeat $x export', 'variable-argument'),
          gen('set -- modelo export; aeat "$@"', 'positional-arguments'),
          gen('IFS=,; v="aeat,modelo,export"; $v', 'ifs-split'),
          gen('aeat modelo export\\\n', 'trailing-continuation'),
          gen('cat <<A <<B\nx\nA\n$(aeat modelo export)\nB', 'heredoc:two-on-one-line'),
          gen("cat <<'EOF'\n$(aeat modelo export)\nEOF", 'heredoc:quoted-substitution'),
          gen('cat <<EOF\nEOF2\n$(aeat modelo export)\nEOF', 'heredoc-decoy:EOF2'),
          gen('cat <<-EOF\n\tx\n\tEOF\naeat modelo export', 'heredoc:<<-tab-end'),
          gen('cat <<EOF\n\tEOF\naeat modelo export\nEOF', 'heredoc-decoy:tab-EOF'),
          gen('cat << EOF\nx\nEOF\naeat modelo export', 'heredoc:space-before-delimiter'),
          gen('cat <<EOF;aeat modelo export\nx\nEOF', 'heredoc:command-after-opener'),
          gen("echo 'aeat modelo export' | bash", 'echo|bash'),
          gen('time -p aeat modelo export', 'time -p'),
          gen('coproc aeat modelo export', 'coproc'),
          gen('select x in a; do aeat modelo export; break; done <<< 1', 'select'),
          gen('exec 3>&1; aeat modelo export', 'exec-redirect'),
          gen('aeat modelo export >&2', 'redirect:>&2'),
          gen('>out.txt aeat modelo export', 'redirect-first'),
          gen('2>&1 aeat modelo export', 'redirect-first-fd'),
          gen('aeat\tmodelo\texport', 'tab-separated'),
          gen('command -v aeat; command -p aeat modelo export', 'command -p'),
          gen('nice aeat modelo export', 'wrapper:nice'),
          gen('env -S "aeat modelo export"', 'env -S'),
          gen('env -i PATH="$PATH" aeat modelo export', 'env -i'),
          gen('timeout --signal=KILL 5 aeat modelo export', 'timeout --signal='),
          gen('xargs -a /dev/null aeat modelo export', 'xargs -a'),
          gen('sudo -- aeat modelo export', 'sudo --'),
          gen('sudo -E aeat modelo export', 'sudo -E'),
          gen('nohup -- aeat modelo export', 'nohup --'),
          gen('exec -a x aeat modelo export', 'exec -a'),
          gen('\\aeat modelo export', 'program:backslash'),
          gen('"ae"at modelo export', 'program:partial'),
          gen("$'\\141eat' modelo export", 'program:ansi-c-octal'),
          gen('$"aeat" modelo export', 'program:locale-quote'),
          gen('a\\\neat modelo export', 'program:continuation-inside'),
        ),
      },
    ),
  }));
  return cmd;
}

export function generatedLine(depth = 3): fc.Arbitrary<GeneratedLine> {
  return fc
    .tuple(commandLine(depth), fc.constantFrom<0 | 1>(0, 0, 0, 1))
    .map(([g, stubStatus]) => ({ src: g.src, tags: [...new Set(g.tags)], stubStatus }));
}
