import { hasOption, valuesOf, type Parsed } from '../../getopt';
import type { Classified, Effect, NamedReader, ReaderContext } from '../../read/classify';
import type { OptionSpec } from '../types';
import type { Word } from '../../syntax/word';
import { baseName, joinPath, opaque, reads, word, writer } from '../readers';
import { CONFIG_PLAIN } from '../programs/git';

/**
 * git, given its parsed arguments: the forms of branch, tag, remote, stash … that only read; what
 * a subcommand does to paths (its pathspecs, the whole work tree for a hard reset or a clean, the
 * tracked files a checkout replaces with another commit's); and which of its configuration makes
 * git run a command.
 */

/** Subcommands that may put another commit's version of every tracked file in the work tree. */
const REWRITES_TRACKED = new Set([
  'checkout',
  'switch',
  'reset',
  'merge',
  'pull',
  'rebase',
  'revert',
  'cherry-pick',
  'stash',
  'am',
  'read-tree',
  'checkout-index',
  'restore',
]);

const network = (ctx: ReaderContext, effects: Effect[] = []): Classified => ({ ...ctx.base, level: 'network', kind: 'network', effects });

/**
 * What a git pathspec may name: git matches `*` across directories and reads `:(magic)`; a glob
 * is checked anywhere below (`**\/spec`), and magic other than `glob`/`top`/`literal` as the whole tree.
 */
function pathspecEffects(p: Word): Effect[] {
  let text = p.text;
  const magic = /^:(\(([^)]*)\)|[/!^]*)/.exec(text);
  if (magic && text.startsWith(':')) {
    const words = (magic[2] ?? '').split(',').filter(Boolean);
    if (words.some((m) => !['glob', 'top', 'literal'].includes(m)) || /[!^]/.test(magic[1] ?? ''))
      return [{ path: word('.'), effect: 'destroy' }];
    text = text.slice(magic[0].length);
  }
  if (!/[*?[]/.test(text)) return [{ path: word(text, p), effect: 'destroy' }];
  const pattern = { ...p, pattern: true };
  return [
    { path: word(text, pattern), effect: 'destroy' },
    { path: word(text.includes('/') ? text.replace(/\*/g, '**') : `**/${text}`, pattern), effect: 'destroy' },
  ];
}

/** The work tree a git invocation acts on: its `-C DIR` options, joined, else the current directory. */
function workTree(ctx: ReaderContext): string {
  let dir = '.';
  for (const g of ctx.globals) for (const v of valuesOf(g, '-C')) dir = joinPath(dir, v.text);
  return dir;
}

/** Options that stop or inspect an operation in progress, or only try it. */
const NO_REWRITE = ['-n', '--dry-run', '--abort', '--quit', '--continue', '--skip', '--show-current', '--list', '-l'];

function config(ctx: ReaderContext): Classified {
  const { parsed } = ctx;
  const ops = [...parsed.operands];
  // git 2.46's subcommands (`git config get KEY`, `set KEY VALUE`) come first
  const action = ['get', 'list', 'set', 'unset', 'rename-section', 'remove-section', 'edit'].includes(ops[0]?.text ?? '')
    ? ops.shift()!.text
    : '';
  const writing =
    ['set', 'unset', 'rename-section', 'remove-section', 'edit'].includes(action) ||
    hasOption(parsed, '-e', '--edit', '--add', '--replace-all', '--unset', '--unset-all', '--rename-section', '--remove-section');
  const reading =
    !writing &&
    (action === 'get' ||
      action === 'list' ||
      ops.length <= 1 ||
      hasOption(parsed, '-l', '--list', '--get', '--get-all', '--get-regexp', '--get-urlmatch'));
  if (reading) return reads(ctx);
  const key = ops[0]?.text ?? '';
  // a section renamed (into `core`, `alias` …) or edited by hand may become anything
  if (action === 'rename-section' || action === 'edit' || !CONFIG_PLAIN.test(key) || hasOption(parsed, '-e', '--edit', '--rename-section'))
    return opaque(ctx, 'git_config_runs_command');
  return writer(
    ctx,
    valuesOf(parsed, '-f', '--file').map((path) => ({ path, effect: 'write' })),
  );
}

/** The subcommands of `git remote` that change the configuration of remotes. */
const REMOTE_CHANGES = new Set(['add', 'rename', 'remove', 'rm', 'set-head', 'set-branches', 'set-url']);

/** The first operand of a subcommand that has subcommands of its own (`git remote add`, `git stash list`). */
const verb = (parsed: Parsed<OptionSpec>) => parsed.operands[0]?.text ?? '';

export const gitReader: NamedReader = (ctx) => {
  const sub = ctx.path[0] ?? '';
  const { parsed } = ctx;
  const rest = parsed.operands;
  if (sub === '') return reads(ctx);
  switch (sub) {
    case 'config':
      return config(ctx);
    case 'branch': {
      const changes = hasOption(
        parsed,
        '-d',
        '--delete',
        '-D',
        '-m',
        '--move',
        '-M',
        '-c',
        '--copy',
        '-C',
        '-u',
        '--set-upstream-to',
        '--unset-upstream',
        '-f',
        '--force',
        '--create-reflog',
      );
      const lists = hasOption(
        parsed,
        '-l',
        '--list',
        '-a',
        '--all',
        '-r',
        '--remotes',
        '--show-current',
        '--contains',
        '--no-contains',
        '--merged',
        '--no-merged',
        '--points-at',
      );
      return changes || (rest.length > 0 && !lists) ? writer(ctx, []) : reads(ctx);
    }
    case 'tag': {
      const changes = hasOption(
        parsed,
        '-d',
        '--delete',
        '-a',
        '--annotate',
        '-s',
        '--sign',
        '-u',
        '--local-user',
        '-f',
        '--force',
        '-m',
        '--message',
        '-F',
        '--file',
      );
      const lists = hasOption(
        parsed,
        '-l',
        '--list',
        '-n',
        '--contains',
        '--no-contains',
        '--merged',
        '--no-merged',
        '--points-at',
        '-v',
        '--verify',
      );
      return changes || (rest.length > 0 && !lists) ? writer(ctx, []) : reads(ctx);
    }
    case 'remote': {
      const v = verb(parsed);
      if (v === '' || v === 'get-url') return reads(ctx);
      // `show` asks the remote, unless -n; `prune` asks it even with -n (its dry run); `update` fetches
      if (v === 'show') return hasOption(parsed, '-n') ? reads(ctx) : network(ctx);
      if (v === 'prune') return network(ctx);
      if (v === 'update') return network(ctx);
      if (REMOTE_CHANGES.has(v)) return writer(ctx, []);
      // what git remote does not know is read as any unknown subcommand, or one known only at run time
      const computed = rest[0]!.dynamic || rest[0]!.pattern;
      return {
        ...ctx.base,
        level: 'process_exec',
        kind: 'exec',
        effects: [],
        opaque: computed
          ? { id: 'subcommand_at_run_time', subject: 'git remote' }
          : { id: 'unknown_subcommand', subject: 'git remote', detail: v },
      };
    }
    case 'reflog': {
      const v = verb(parsed);
      return v === 'expire' || v === 'delete' ? writer(ctx, []) : reads(ctx);
    }
    case 'notes': {
      const v = verb(parsed);
      return v === '' || v === 'list' || v === 'show' || v === 'get-ref' ? reads(ctx) : writer(ctx, []);
    }
    case 'worktree': {
      const v = verb(parsed);
      if (v === 'list' || v === '') return reads(ctx);
      if (v === 'add' && rest[1]) return writer(ctx, [{ path: rest[1], effect: 'destroy' }]);
      return writer(ctx, []);
    }
    case 'sparse-checkout':
      return verb(parsed) === 'list' ? reads(ctx) : writer(ctx, [{ path: word(workTree(ctx)), effect: 'tracked' }]);
    case 'submodule': {
      const v = verb(parsed);
      if (v === 'foreach') return opaque(ctx, 'git_runs_given_commands', 'submodule');
      if (v === '' || v === 'status' || v === 'summary') return reads(ctx);
      if (v === 'init' || v === 'deinit' || v === 'absorbgitdirs' || v === 'set-branch' || v === 'set-url') return writer(ctx, []);
      return network(ctx);
    }
    case 'bisect': {
      const v = verb(parsed);
      if (v === 'run') return opaque(ctx, 'git_runs_given_commands', 'bisect');
      if (v === 'log' || v === 'visualize' || v === 'view' || v === 'terms') return reads(ctx);
      return writer(ctx, [{ path: word(workTree(ctx)), effect: 'tracked' }]);
    }
    case 'clone': {
      const dest =
        rest[1] ??
        (rest[0]
          ? word(baseName(rest[0].text.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').replace(/[?#].*$/, '')).replace(/\.git$/, ''), rest[0])
          : undefined);
      return network(ctx, dest ? [{ path: dest, effect: 'destroy' }] : []);
    }
    case 'commit':
      if (valuesOf(parsed, '--fixup', '--squash').some((w) => w.text.includes('!')))
        return opaque(ctx, 'git_runs_given_commands', 'commit');
      // --dry-run shows what would be committed, as git status does: no hook, no editor, no signing, the index untouched
      if (hasOption(parsed, '--dry-run')) return reads(ctx);
      break;
    case 'apply':
      // --stat, --numstat, --summary and --check only report, unless --apply is given too
      if (hasOption(parsed, '--stat', '--numstat', '--summary', '--check') && !hasOption(parsed, '--apply')) return reads(ctx);
      break;
    case 'clean':
      // `-x` removes ignored files anywhere: the whole work tree, whatever else is named
      return hasOption(parsed, '-n', '--dry-run') ? reads(ctx) : writer(ctx, [{ path: word('.'), effect: 'beneath' }]);
    case 'stash': {
      const v = verb(parsed);
      if (v === 'list' || v === 'show') return reads(ctx);
      break;
    }
    case 'format-patch':
      if (hasOption(parsed, '--stdout') && !hasOption(parsed, '-o', '--output-directory', '--output')) return reads(ctx);
      break;
    case 'bundle':
      if (['verify', 'list-heads'].includes(verb(parsed))) return reads(ctx);
      break;
    case 'rerere':
      if (['status', 'diff', 'remaining'].includes(verb(parsed))) return reads(ctx);
      break;
    case 'replace':
      if (
        (rest.length === 0 || hasOption(parsed, '-l', '--list')) &&
        !hasOption(parsed, '-d', '--delete', '-e', '--edit', '-g', '--graft', '--convert-graft-file')
      )
        return reads(ctx);
      break;
    case 'multi-pack-index':
    case 'commit-graph':
      if (verb(parsed) === 'verify') return reads(ctx);
      break;
    case 'symbolic-ref':
      if (rest.length <= 1 && !hasOption(parsed, '-d', '--delete')) return reads(ctx);
      break;
    case 'lfs':
      // `git lfs track` alone lists the patterns
      if (ctx.path[1] === 'track' && rest.length === 0) return reads(ctx);
      break;
    default:
      break;
  }
  if (ctx.base.kind === 'reader' || ctx.base.kind === 'network') return ctx.base;
  const effects: Effect[] = [...ctx.base.effects];
  if (sub === 'bundle' && rest[0]?.text === 'create' && rest[1]) effects.push({ path: rest[1], effect: 'write' });
  const paths = rest;
  // operations that rewrite the tracked files of the work tree to another commit
  const onlyPaths =
    sub === 'restore' ||
    ((sub === 'checkout' || sub === 'reset') && parsed.dashdash) ||
    ((sub === 'checkout' || sub === 'switch') &&
      hasOption(parsed, '-b', '-B', '-c', '-C', '--orphan', '--create', '--force-create') &&
      paths.length <= 2);
  const stashVerb = sub === 'stash' ? verb(parsed) || 'push' : '';
  if (
    REWRITES_TRACKED.has(sub) &&
    !onlyPaths &&
    !hasOption(parsed, ...NO_REWRITE) &&
    !(sub === 'stash' && ['list', 'show', 'drop', 'clear', 'create', 'store', 'push', 'save'].includes(stashVerb)) &&
    !(sub === 'reset' && !hasOption(parsed, '--hard', '--merge', '--keep') && paths.length === 0)
  ) {
    effects.push({ path: word(workTree(ctx)), effect: 'tracked' });
  }
  if (['checkout', 'restore', 'rm', 'reset', 'stash', 'switch'].includes(sub)) {
    for (const p of paths)
      if (!(
        sub === 'stash' && ['push', 'pop', 'apply', 'drop', 'save', 'list', 'show', 'clear', 'branch', 'create', 'store'].includes(p.text)
      ))
        effects.push(...pathspecEffects(p));
    if (sub === 'stash' && hasOption(parsed, '-u', '--include-untracked', '-a', '--all'))
      effects.push({ path: word('.'), effect: 'beneath' });
    // a hard reset rewrites every tracked file of the work tree
    if (sub === 'reset' && hasOption(parsed, '--hard', '--merge', '--keep')) effects.push({ path: word('.'), effect: 'beneath' });
  } else if (sub === 'mv') {
    if (paths.length >= 2) {
      const dest = paths[paths.length - 1]!;
      effects.push({ path: dest, effect: 'write' }, { path: dest, effect: 'into' });
      for (const source of paths.slice(0, -1))
        effects.push(
          { path: word(joinPath(dest.text, baseName(source.text)), dest), effect: 'destroy' },
          { path: source, effect: 'destroy' },
        );
    }
  } else if (sub === 'apply' || sub === 'am') effects.push({ path: valuesOf(parsed, '--directory')[0] ?? word('.'), effect: 'beneath' });
  else if (sub === 'init' && paths[0]) effects.push({ path: paths[0], effect: 'into' });
  // checkout-index and read-tree write the tracked files under a prefix of the caller's choosing
  if (sub === 'checkout-index' || sub === 'read-tree') {
    for (const u of parsed.used) {
      if (!u.option.names.includes('--prefix')) continue;
      if (u.value === undefined) return opaque(ctx, 'git_prefix_apart', sub);
      // the prefix is joined to each path as text (`--prefix=dir/` or `--prefix=name-`)
      effects.push({ path: word(`${u.value.text}**`, { ...u.value, pattern: true }), effect: 'destroy' });
    }
  }
  return { ...ctx.base, effects };
};
