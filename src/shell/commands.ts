import { parseShell, type ShellParse, type SimpleCommand, type Word } from './lex';

/**
 * From parsed simple commands to what actually runs: leading assignments and wrappers (`sudo`,
 * `env`, `nohup`, `time`, `nice`, `timeout`, `xargs`, `exec`, `command`, …) are peeled off, and
 * `bash -c` / `sh -c` / `zsh -c` strings and `eval` arguments are parsed again, to a depth bound.
 */

export interface Invocation {
  /** The program (basename of the path as written) and its arguments. */
  name: string;
  args: Word[];
  redirects: SimpleCommand['redirects'];
}

export interface ShellReadingRaw {
  invocations: Invocation[];
  unparsable?: string;
}

const RESERVED = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'for', 'in', 'case', 'esac', 'select', 'function', '{', '}', '!', '[[', ']]', 'coproc']);
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'busybox']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

/** Options that take a value, per wrapper; the wrapper's command starts after them. */
const WRAPPERS: Record<string, { valueOptions: string[]; positional?: number; stopAtFirst?: boolean }> = {
  sudo: { valueOptions: ['-u', '-g', '-C', '-h', '-p', '-D', '-r', '-t', '-U', '-T', '--user', '--group', '--chdir', '--prompt', '--host'] },
  doas: { valueOptions: ['-u', '-C'] },
  env: { valueOptions: ['-u', '-C', '--unset', '--chdir'] },
  nohup: { valueOptions: [] },
  time: { valueOptions: ['-f', '-o', '--format', '--output'] },
  nice: { valueOptions: ['-n', '--adjustment'] },
  ionice: { valueOptions: ['-c', '-n', '-t'] },
  timeout: { valueOptions: ['-s', '-k', '--signal', '--kill-after'], positional: 1 },
  xargs: { valueOptions: ['-I', '-n', '-P', '-L', '-s', '-d', '-E', '-a', '--max-args', '--max-procs', '--delimiter', '--arg-file', '--replace'] },
  exec: { valueOptions: ['-a'] },
  command: { valueOptions: [] },
  builtin: { valueOptions: [] },
  stdbuf: { valueOptions: ['-i', '-o', '-e'] },
  setsid: { valueOptions: [] },
  chronic: { valueOptions: [] },
  unbuffer: { valueOptions: [] },
  caffeinate: { valueOptions: [] },
  watch: { valueOptions: ['-n', '-d', '--interval'] },
};

export function baseName(program: string): string {
  const slash = program.lastIndexOf('/');
  return slash === -1 ? program : program.slice(slash + 1);
}

type Peeled = { kind: 'run'; words: Word[] } | { kind: 'reparse'; source: string; dynamic: boolean } | { kind: 'lookup' };

/** Removes one layer: assignments, reserved words, a wrapper and its options, or a shell's -c. */
function peel(words: Word[]): Peeled {
  let k = 0;
  while (k < words.length && (RESERVED.has(words[k]!.text) || ASSIGNMENT.test(words[k]!.text))) k++;
  const rest = words.slice(k);
  if (rest.length === 0) return { kind: 'run', words: rest };
  const name = baseName(rest[0]!.text);
  const wrapper = WRAPPERS[name];
  if (wrapper && !rest[0]!.dynamic) {
    let j = 1;
    let positional = wrapper.positional ?? 0;
    while (j < rest.length) {
      const w = rest[j]!.text;
      if (name === 'env' && ASSIGNMENT.test(w)) j++;
      else if ((name === 'env' && (w === '-S' || w === '--split-string')) && j + 1 < rest.length) {
        return { kind: 'reparse', source: [rest[j + 1]!.text, ...rest.slice(j + 2).map((x) => x.text)].join(' '), dynamic: rest.slice(j + 1).some((x) => x.dynamic) };
      } else if (name === 'command' && (w === '-v' || w === '-V')) return { kind: 'lookup' };
      else if (w === '--') {
        j++;
        break;
      } else if (w.startsWith('-') && w.length > 1) {
        j += wrapper.valueOptions.includes(w) ? 2 : 1;
      } else if (positional > 0) {
        positional--;
        j++;
      } else break;
    }
    return { kind: 'run', words: rest.slice(j) };
  }
  if (SHELLS.has(name) && !rest[0]!.dynamic) {
    for (let j = 1; j < rest.length; j++) {
      const w = rest[j]!.text;
      if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(w)) {
        const script = rest[j + 1];
        if (!script) return { kind: 'run', words: rest };
        return { kind: 'reparse', source: script.text, dynamic: script.dynamic };
      }
      if (!w.startsWith('-') && !w.startsWith('+')) break;
    }
    return { kind: 'run', words: rest };
  }
  if ((name === 'eval' || /^(invoke-expression|iex)$/i.test(name)) && !rest[0]!.dynamic) {
    const args = rest.slice(1);
    return { kind: 'reparse', source: args.map((w) => w.text).join(' '), dynamic: args.some((w) => w.dynamic) };
  }
  return { kind: 'run', words: rest };
}

function invocationsOf(parse: ShellParse, depth: number, out: Invocation[]): string | undefined {
  if (parse.unparsable) return parse.unparsable;
  for (const command of parse.commands) {
    let words = command.words;
    for (let layer = 0; ; layer++) {
      if (layer > 16) return 'too many wrappers';
      const peeled = peel(words);
      if (peeled.kind === 'lookup') break;
      if (peeled.kind === 'reparse') {
        if (peeled.dynamic) return 'a command string built at run time (bash -c / eval with expansions)';
        const inner = parseShell(peeled.source, depth + 1);
        const problem = invocationsOf(inner, depth + 1, out);
        if (problem) return problem;
        break;
      }
      if (peeled.words.length === words.length || peeled.words.length === 0) {
        if (peeled.words.length > 0) {
          const [program, ...args] = peeled.words;
          if (program!.dynamic) return `a command name computed at run time (${program!.text})`;
          out.push({ name: baseName(program!.text), args, redirects: command.redirects });
        } else if (command.redirects.length > 0) {
          out.push({ name: '', args: [], redirects: command.redirects });
        }
        break;
      }
      words = peeled.words;
    }
    if (words !== command.words && command.redirects.length > 0 && !out.some((i) => i.redirects === command.redirects)) {
      out.push({ name: '', args: [], redirects: command.redirects });
    }
  }
  return undefined;
}

export function readCommandLine(src: string): ShellReadingRaw {
  const invocations: Invocation[] = [];
  const unparsable = invocationsOf(parseShell(src), 0, invocations);
  return unparsable ? { invocations: [], unparsable } : { invocations };
}
