import { options, type Family, type OptionLine } from '../define';
import type { CommandSpec } from '../types';

/**
 * git: every subcommand, with its level — read-only forms read, forms that reach a remote are
 * `network`, forms that start an editor or run what the command line names are `process_exec` —
 * and the options that matter to what it writes. The git reader (readers/git.ts) adds what it does
 * to paths and what of its configuration makes it run commands.
 */

const RUNS = { role: 'runs', opaque: 'git_option_runs_program' } as const;
/** Options any subcommand may take that run a program of the caller's choosing. */
const RUNS_PROGRAM: OptionLine[] = [
  ['--upload-pack=', RUNS], ['--receive-pack=', RUNS], ['--exec=', RUNS], ['--open-files-in-pager[=]', RUNS], ['--ext-diff', RUNS], ['--textconv', RUNS], ['--filters', RUNS],
];
const OUTPUT: OptionLine = ['--output=', { role: 'writes' }];
const DIFF_OPTIONS: OptionLine[] = [OUTPUT, '-U= --unified=', '--stat[=]', '-M[=] --find-renames[=]', '-C[=] --find-copies[=]', '-S=', '-G=', '--diff-filter=', '-O=', '--relative[=]', '--color[=]', '--word-diff[=]', '--src-prefix=', '--dst-prefix=', '--line-prefix=', '--abbrev[=]', '--format= --pretty[=]', '-n= --max-count=', '--since= --after=', '--until= --before=', '--author=', '--committer=', '--grep=', '-L=', '--date=', '--decorate[=]', '--skip=', '--encoding='];
const MESSAGE = '-m= --message=';
const read = (summary: string, extra: OptionLine[] = []): CommandSpec => ({ summary, level: 'read_only', kind: 'reader', options: options(...RUNS_PROGRAM, ...extra) });
const write = (summary: string, extra: OptionLine[] = [], reader = 'git'): CommandSpec => ({ summary, level: 'workspace_write', kind: 'writer', reader, options: options(...RUNS_PROGRAM, ...extra) });
const net = (summary: string, extra: OptionLine[] = []): CommandSpec => ({ summary, level: 'network', kind: 'network', reader: 'git', options: options(...RUNS_PROGRAM, ...extra) });
const exec = (summary: string, opaque = 'git_runs_given_commands'): CommandSpec => ({ summary, level: 'process_exec', kind: 'exec', opaque });

const READS: Record<string, () => CommandSpec> = {
  status: () => read('shows the work tree status', ['-u[=] --untracked-files[=]', '--ignore-submodules[=]', '--column[=]', '--porcelain[=]', '--ignored[=]', '--find-renames[=]']),
  diff: () => read('shows changes', DIFF_OPTIONS),
  log: () => read('shows commits', DIFF_OPTIONS),
  show: () => read('shows objects', DIFF_OPTIONS),
  whatchanged: () => read('shows commits', DIFF_OPTIONS),
  'diff-tree': () => read('compares trees', DIFF_OPTIONS),
  'diff-files': () => read('compares the index and the work tree', DIFF_OPTIONS),
  'diff-index': () => read('compares a tree and the index', DIFF_OPTIONS),
  'range-diff': () => read('compares two ranges of commits', DIFF_OPTIONS),
  blame: () => read('shows who changed each line', ['-L=', '-S=', '--contents=', '--ignore-rev=', '--ignore-revs-file=', '-C[=]', '-M[=]', '--date=', '--abbrev[=]']),
  annotate: () => read('shows who changed each line', ['-L=', '--contents=']),
  'ls-files': () => read('lists tracked files', ['-x= --exclude=', '-X= --exclude-from=', '--exclude-per-directory=', '--format=', '--with-tree=', '--abbrev[=]']),
  'ls-tree': () => read('lists a tree', ['--format=', '--abbrev[=]']),
  'rev-parse': () => read('parses revisions', ['--prefix=', '--default=', '--since=', '--until=', '--short[=]', '--abbrev-ref[=]']),
  'rev-list': () => read('lists commits', DIFF_OPTIONS),
  describe: () => read('names a commit', ['--match=', '--exclude=', '--abbrev=', '--candidates=', '--dirty[=]', '--broken[=]']),
  shortlog: () => read('summarises commits', DIFF_OPTIONS),
  grep: () => read('searches tracked files', [['-O[=] --open-files-in-pager[=]', RUNS], '-e=', '-f=', '--max-depth=', '-A= --after-context=', '-B= --before-context=', '-C= --context=', '--threads=', '-m= --max-count=']),
  'cat-file': () => read('shows an object', ['--batch[=]', '--batch-check[=]', '--path=']),
  'name-rev': () => read('names revisions', ['--refs=', '--exclude=']),
  'merge-base': () => read('finds a common ancestor'),
  'show-ref': () => read('lists references', ['--hash[=]', '--abbrev[=]', '--exclude-existing[=]']),
  'for-each-ref': () => read('lists references', ['--format=', '--sort=', '--count=', '--points-at=', '--merged[=]', '--no-merged[=]', '--contains[=]', '--no-contains[=]', '--exclude=']),
  'count-objects': () => read('counts objects'),
  'check-ignore': () => read('checks ignore rules'),
  'check-attr': () => read('checks attributes', ['--source=']),
  'check-mailmap': () => read('checks the mailmap'),
  'check-ref-format': () => read('checks a reference name'),
  var: () => read('shows a git variable'),
  version: () => read('prints the version'),
  help: () => read('prints help'),
  cherry: () => read('finds commits not applied upstream', ['--abbrev[=]']),
  'verify-commit': () => read('checks a commit signature'),
  'verify-tag': () => read('checks a tag signature'),
  'verify-pack': () => read('checks a pack'),
  'show-branch': () => read('shows branches', ['--more[=]', '--merge-base', '--independent', '--reflog[=]', '--color[=]']),
  'get-tar-commit-id': () => read('reads an archive id'),
  column: () => read('formats in columns', ['--mode=', '--raw-mode=', '--width=', '--indent=', '--nl=', '--padding=']),
  'patch-id': () => read('computes a patch id'),
  stripspace: () => read('removes trailing whitespace'),
  'merge-tree': () => read('merges without touching the index or work tree', ['--merge-base=', '-X= --strategy-option=']),
  'fast-export': () => read('exports history as a stream', ['--export-marks=', '--import-marks=', '--refspec=', '--anonymize-map=']),
  fsck: () => read('checks the object database', ['--lost-found']),
  'interpret-trailers': () => ({ ...read('reads trailers'), options: options(...RUNS_PROGRAM, ['--in-place', { level: 'workspace_write' }], '--trailer=', '--where=', '--if-exists=', '--if-missing=') }),
  'ls-remote': () => net('lists the references of a remote', [['-u= --upload-pack=', RUNS], '--sort=', '-o= --server-option=']),
  'request-pull': () => net('summarises changes for a pull request'),
};

const WRITES: Record<string, () => CommandSpec> = {
  add: () => write('adds to the index', ['--chmod=', '--pathspec-from-file=']),
  commit: () => write('records a commit', ['-a --all', '-p --patch', '--amend', '--no-edit', '-e --edit', '-n --no-verify', '--verify', '-q --quiet', '-v --verbose', '-s --signoff', '--no-signoff', '--allow-empty', '--allow-empty-message', '--dry-run', '--short', '--branch', '--porcelain', '--long', '-z --null', '-o --only', '-i --include', '--reset-author', '--no-post-rewrite', '--status', '--no-status', '--no-gpg-sign', '--pathspec-file-nul', MESSAGE, '-F= --file=', '-C= --reuse-message=', '-c= --reedit-message=', '--fixup=', '--squash=', '--author=', '--date=', '-t= --template=', '--cleanup=', '-u[=] --untracked-files[=]', '-S[=] --gpg-sign[=]', '--pathspec-from-file=', '--trailer=']),
  checkout: () => write('switches branches or restores files', ['-b=', '-B=', '--orphan=', '--conflict=', '--pathspec-from-file=', '--track[=]', '-t', '-q --quiet', '-f --force', '-m --merge', '--detach', '--ours', '--theirs', '-p --patch', '-l', '--progress', '--no-progress', '--ignore-other-worktrees', '--overwrite-ignore', '--recurse-submodules', '--overlay', '--no-overlay', '--guess', '--no-guess', '--pathspec-file-nul', '-2', '-3']),
  switch: () => write('switches branches', ['-c= --create=', '-C= --force-create=', '--orphan=', '--conflict=', '--track[=]', '-t', '-q --quiet', '-f --force --discard-changes', '-m --merge', '-d --detach', '--guess', '--no-guess', '--ignore-other-worktrees', '--recurse-submodules', '--progress', '--no-progress']),
  restore: () => write('restores files', ['-s= --source=', '--conflict=', '--pathspec-from-file=', '-p --patch', '-W --worktree', '-S --staged', '-q --quiet', '--progress', '--ours', '--theirs', '-m --merge', '--ignore-unmerged', '--overlay', '--no-overlay', '--recurse-submodules', '--pathspec-file-nul']),
  reset: () => write('resets HEAD, the index, the work tree', ['--pathspec-from-file=', '-q --quiet', '--soft', '--mixed', '--hard', '--merge', '--keep', '-p --patch', '-N --intent-to-add', '--recurse-submodules', '--no-refresh', '--pathspec-file-nul']),
  merge: () => write('merges branches', [MESSAGE, '-F= --file=', '-s= --strategy=', '-X= --strategy-option=', '-S[=] --gpg-sign[=]', '--into-name=', '--cleanup=', '--abort', '--quit', '--continue', '--commit', '--no-commit', '--ff', '--no-ff', '--ff-only', '--squash', '--no-squash', '-e --edit', '--no-edit', '-n', '--stat', '--no-stat', '--log[=]', '--no-log', '--signoff', '--no-signoff', '--verify', '--no-verify', '-q --quiet', '-v --verbose', '--progress', '--no-progress', '--autostash', '--no-autostash', '--allow-unrelated-histories', '--rerere-autoupdate', '--no-rerere-autoupdate', '--overwrite-ignore']),
  rebase: () => write('reapplies commits', [['-x= --exec=', { role: 'runs', opaque: 'git_runs_given_commands' }], ['-i --interactive', { level: 'process_exec', opaque: 'starts_editor' }], ['--edit-todo', { level: 'process_exec', opaque: 'starts_editor' }], '--onto=', '-s= --strategy=', '-X= --strategy-option=', '-S[=] --gpg-sign[=]', '--rebase-merges[=]', '--empty=', '-C=', '--whitespace=', '--abort', '--continue', '--skip', '--quit', '--show-current-patch', '--root', '--autosquash', '--no-autosquash', '--autostash', '--no-autostash', '-f --force-rebase --no-ff', '--fork-point', '--no-fork-point', '-q --quiet', '-v --verbose', '--stat', '-n --no-stat', '--signoff', '--committer-date-is-author-date', '--ignore-date --reset-author-date', '--keep-base', '--update-refs', '--no-update-refs', '--apply', '--merge', '-m', '--reapply-cherry-picks', '--allow-empty-message', '--no-verify', '--verify']),
  'cherry-pick': () => write('applies commits', ['-m= --mainline=', '-s= --strategy=', '-X= --strategy-option=', '-S[=] --gpg-sign[=]', '--cleanup=', '--abort', '--continue', '--skip', '--quit', '-n --no-commit', '-e --edit', '--no-edit', '-x', '--signoff', '--ff', '--allow-empty', '--allow-empty-message', '--keep-redundant-commits', '--empty=', '--rerere-autoupdate', '--no-rerere-autoupdate']),
  revert: () => write('reverts commits', ['-m= --mainline=', '-s= --strategy=', '-X= --strategy-option=', '-S[=] --gpg-sign[=]', '--cleanup=', '--abort', '--continue', '--skip', '--quit', '-n --no-commit', '-e --edit', '--no-edit', '--signoff', '--reference', '--rerere-autoupdate', '--no-rerere-autoupdate']),
  rm: () => write('removes tracked files', ['--pathspec-from-file=', '-f --force', '-n --dry-run', '-r', '--cached', '--ignore-unmatch', '--sparse', '-q --quiet', '--pathspec-file-nul']),
  mv: () => write('moves tracked files', ['-f --force', '-k', '-n --dry-run', '-v --verbose']),
  apply: () => write('applies a patch', ['--directory=', '-p=', '-C=', '--exclude=', '--include=', '--whitespace=', '--build-fake-ancestor=', '--stat', '--numstat', '--summary', '--check', '--apply', '--index', '--intent-to-add', '--cached', '-3 --3way', '--ours', '--theirs', '--union', '-R --reverse', '--reject', '-z', '--unidiff-zero', '--no-add', '--allow-binary-replacement --binary', '--ignore-space-change --ignore-whitespace', '--inaccurate-eof', '-v --verbose', '-q --quiet', '--recount', '--allow-empty']),
  am: () => write('applies patches from mail', ['--directory=', '-p=', '-C=', '--exclude=', '--include=', '--whitespace=', '--patch-format=', '-S[=] --gpg-sign[=]', '--resolvemsg=', '--quoted-cr=', '--empty=', '--abort', '--continue', '--skip', '--quit', '--show-current-patch[=]', '--retry', '-r --resolved', '-s --signoff', '-k --keep', '--keep-non-patch', '-m --message-id', '-3 --3way', '-q --quiet', '-i --interactive', '--committer-date-is-author-date', '--ignore-date', '--reject']),
  clean: () => write('removes untracked files', ['-e= --exclude=', '-n --dry-run', '-f --force', '-d', '-x', '-X', '-i --interactive', '-q --quiet']),
  init: () => write('makes a repository', [['--template=', { role: 'runs', opaque: 'git_template' }], ['--separate-git-dir=', { role: 'runs', opaque: 'git_template' }], ['--bare', { role: 'runs', opaque: 'git_template' }], '-b= --initial-branch=', '--shared[=]', '--object-format=', '--ref-format=']),
  worktree: () => write('manages work trees', ['-b=', '-B=', '--reason=', '--expire=']),
  notes: () => write('manages notes', [MESSAGE, '-F= --file=', '-C= --reuse-message=', '-c= --reedit-message=', '--ref=']),
  gc: () => write('cleans up the repository', ['--prune[=]']),
  prune: () => write('prunes unreachable objects', ['--expire=']),
  repack: () => write('packs objects'),
  'pack-refs': () => write('packs references'),
  'prune-packed': () => write('removes packed loose objects'),
  'update-server-info': () => write('updates auxiliary files'),
  maintenance: () => write('runs maintenance tasks', ['--task=', '--schedule=']),
  'update-index': () => write('changes the index', ['--chmod=', '--cacheinfo=', '--index-info']),
  'update-ref': () => write('changes a reference', [MESSAGE]),
  'symbolic-ref': () => write('changes a symbolic reference', [MESSAGE]),
  'read-tree': () => write('reads a tree into the index', ['--prefix[=]', '--index-output=', '--exclude-per-directory=']),
  'checkout-index': () => write('copies files from the index', ['--prefix[=]', '--stage=']),
  'write-tree': () => write('writes a tree object', ['--prefix=']),
  'commit-tree': () => write('writes a commit object', ['-p=', MESSAGE, '-F=', '-S[=] --gpg-sign[=]']),
  'hash-object': () => read('computes an object id', [['-w', { level: 'workspace_write' }], '-t=', '--path=']),
  mktag: () => write('writes a tag object'),
  mktree: () => write('writes a tree object'),
  'format-patch': () => write('writes patches', [['-o= --output-directory=', { role: 'writes' }], OUTPUT, '--subject-prefix=', '--signature=', '--signature-file=', '--cover-letter', '--in-reply-to=', '--to=', '--cc=', '--from[=]', '-v= --reroll-count=', '--base=', '--suffix=', '--start-number=', '--interdiff=', '--range-diff=', '--creation-factor=']),
  bundle: () => write('makes bundles'),
  archive: () => write('writes an archive', [['-o= --output=', { role: 'writes' }], ['--remote=', { level: 'network' }], ['--exec=', RUNS], '--format=', '--prefix=', '--add-file=', '--add-virtual-file=', '--mtime=']),
  'fast-import': () => write('imports history from a stream', ['--export-marks=', '--import-marks=']),
  'merge-file': () => write('merges three files', ['-L=', '--marker-size=']),
  'unpack-file': () => write('writes a blob to a file'),
  'unpack-objects': () => write('unpacks objects'),
  rerere: () => write('reuses recorded resolutions'),
  replace: () => write('replaces objects', ['-f --force', '--format=']),
  'sparse-checkout': () => write('restricts the work tree'),
  'mailsplit': () => write('splits mail into files', ['-o=']),
  'mailinfo': () => read('reads a mail'),
  bugreport: () => write('writes a bug report', [['-o= --output-directory=', { role: 'into' }], '-s= --suffix=']),
  diagnose: () => write('writes a diagnostic archive', [['-o= --output-directory=', { role: 'into' }], '-s= --suffix=', '--mode=']),
  'multi-pack-index': () => write('maintains a multi-pack index'),
  'commit-graph': () => write('maintains the commit graph'),
  'pack-objects': () => write('writes packs'),
  'index-pack': () => write('indexes a pack', ['-o=']),
};

/** git's configuration, branches, tags, remotes and the like: read or changed by their arguments (readers/git.ts). */
const BY_ARGUMENTS: Record<string, () => CommandSpec> = {
  config: () => ({ summary: 'reads or sets configuration', level: 'workspace_write', kind: 'writer', reader: 'git', options: options('-f= --file=', '--blob=', '--type=', '--default=', '--comment=', '--global', '--system', '--local', '--worktree', '-l --list', '-e --edit', '--get', '--get-all', '--get-regexp', '--get-urlmatch', '--add', '--replace-all', '--unset', '--unset-all', '--rename-section', '--remove-section', '--show-origin', '--show-scope', '-z --null', '--name-only', '--includes', '--no-includes', '--bool', '--int', '--bool-or-int', '--path', '--expiry-date', '--fixed-value', '--all', '--regexp', '--value=', '--url=') }),
  branch: () => ({ summary: 'lists, makes or removes branches', level: 'read_only', kind: 'reader', reader: 'git', options: options(...RUNS_PROGRAM, '-d --delete', '-D', '-m --move', '-M', '-c --copy', '-C', '-f --force', '-u= --set-upstream-to=', '--unset-upstream', '-t[=] --track[=]', '--no-track', ['--edit-description', { level: 'process_exec', opaque: 'starts_editor' }], '--contains[=]', '--no-contains[=]', '--merged[=]', '--no-merged[=]', '--points-at=', '--format=', '--sort=', '--color[=]', '--column[=]', '--abbrev[=]', '-l --list', '-a --all', '-r --remotes', '--show-current', '-v -vv --verbose', '-q --quiet', '-i --ignore-case', '--create-reflog', '--recurse-submodules', '--omit-empty') }),
  tag: () => ({ summary: 'lists, makes or removes tags', level: 'read_only', kind: 'reader', reader: 'git', options: options(...RUNS_PROGRAM, '-a --annotate', '-s --sign', '-u= --local-user=', '-f --force', '-d --delete', '-v --verify', '-n[=]', '-l --list', '--sort=', '--contains[=]', '--no-contains[=]', '--merged[=]', '--no-merged[=]', '--points-at=', MESSAGE, '-F= --file=', '--cleanup=', '--format=', '--color[=]', '--column[=]', '-e --edit', '-i --ignore-case', '--create-reflog', '--trailer=') }),
  remote: () => ({ summary: 'lists or changes remotes', level: 'read_only', kind: 'reader', reader: 'git', options: options('-v --verbose', '-n', '-f', '--tags', '--no-tags', '-t=', '-m=', '--mirror[=]', '--push', '--add', '--delete', '--all', '--dry-run', '--no-fetch') }),
  stash: () => ({ summary: 'stashes changes', level: 'workspace_write', kind: 'writer', reader: 'git', options: options(MESSAGE, '--pathspec-from-file=', '-u --include-untracked', '--no-include-untracked', '-a --all', '-k --keep-index', '--no-keep-index', '-p --patch', '-q --quiet', '-S --staged', '--index', '--only-untracked', '--pathspec-file-nul') }),
  reflog: () => ({ summary: 'shows or changes reference logs', level: 'read_only', kind: 'reader', reader: 'git', options: options(...DIFF_OPTIONS, '--expire=', '--expire-unreachable=') }),
  submodule: () => ({ summary: 'manages submodules', level: 'network', kind: 'network', reader: 'git', options: options('-b= --branch=', '--name=', '--reference=', '--depth=', '-j= --jobs=') }),
  bisect: () => ({ summary: 'finds a commit by bisection', level: 'workspace_write', kind: 'writer', reader: 'git'}),
  clone: () => net('copies a repository', [['-u= --upload-pack=', RUNS], ['--template=', { role: 'runs', opaque: 'git_template' }], ['-c= --config=', { role: 'runs', opaque: 'git_config_runs_command' }], '-b= --branch=', '-o= --origin=', '--depth=', '--shallow-since=', '--shallow-exclude=', '--reference=', '--reference-if-able=', '--separate-git-dir=', '-j= --jobs=', '--filter=', '--server-option=', '--bundle-uri=', '--ref-format=']),
  fetch: () => net('downloads from a remote', [['-u= --upload-pack=', RUNS], '--depth=', '--deepen=', '--shallow-since=', '--shallow-exclude=', '-j= --jobs=', '--refmap=', '-o= --server-option=', '--negotiation-tip=', '--filter=']),
  pull: () => net('fetches and merges', [['-u= --upload-pack=', RUNS], '--depth=', '-s= --strategy=', '-X= --strategy-option=', '-j= --jobs=', '-S[=] --gpg-sign[=]']),
  push: () => net('uploads to a remote', [['--receive-pack= --exec=', RUNS], '-o= --push-option=', '--repo=', '--force-with-lease[=]', '--signed[=]', '--recurse-submodules=']),
  'send-email': () => net('sends patches by mail', ['--to=', '--cc=', '--bcc=', '--from=', '--subject=', '--in-reply-to=', '--smtp-server=', '--smtp-server-port=', '--smtp-user=', '--smtp-pass[=]', '--identity=', '--annotate', '--compose']),
};

const EXEC: Record<string, () => CommandSpec> = {
  'filter-branch': () => exec('rewrites history with commands given on its command line'),
  difftool: () => exec('runs a diff tool'),
  mergetool: () => exec('runs a merge tool'),
  'merge-index': () => exec('runs a merge program for each file'),
  instaweb: () => exec('starts a web server and a browser'),
  gui: () => exec('starts a graphical tool'),
  citool: () => exec('starts a graphical tool'),
  gitk: () => exec('starts a graphical tool'),
  'credential': () => exec('runs the configured credential helpers'),
  svn: () => net('works with a Subversion repository'),
  p4: () => net('works with a Perforce depot'),
  cvsimport: () => net('imports a CVS repository'),
  'fetch-pack': () => net('receives objects from a remote'),
  'send-pack': () => net('sends objects to a remote'),
  'http-fetch': () => net('downloads over HTTP'),
  'http-push': () => net('uploads over HTTP'),
  daemon: () => exec('serves repositories', 'git_runs_given_commands'),
  'upload-pack': () => exec('serves objects', 'git_runs_given_commands'),
  'receive-pack': () => exec('receives objects and runs hooks', 'git_runs_given_commands'),
  shell: () => exec('a restricted login shell', 'git_runs_given_commands'),
};

export const GIT: Family = {
  git: () => ({
    summary: 'the version control system',
    level: 'read_only',
    kind: 'reader',
    reader: 'git',
    options: options(
      ['-C=', { role: 'chdir' }],
      ['-c=', { role: 'runs', opaque: 'git_runs_configured_command' }],
      ['--config-env=', { role: 'runs', opaque: 'git_runs_configured_command' }],
      ['--exec-path[=]', { role: 'runs', opaque: 'git_runs_configured_command' }],
      ['--git-dir=', { role: 'runs', opaque: 'git_other_directory' }],
      ['--work-tree=', { role: 'runs', opaque: 'git_other_directory' }],
      ['--bare', { role: 'runs', opaque: 'git_other_directory' }],
      '--namespace=', '--super-prefix=', '--list-cmds=', '--attr-source=',
      '-p --paginate', '-P --no-pager', '--no-replace-objects', '--no-lazy-fetch', '--literal-pathspecs', '--glob-pathspecs', '--noglob-pathspecs', '--icase-pathspecs', '--no-optional-locks',
      '--html-path', '--man-path', '--info-path', ['-h', { help: true }],
    ),
    // git's own options come before the subcommand only
    persistent: false,
    subcommands: { ...READS, ...WRITES, ...BY_ARGUMENTS, ...EXEC },
    unknownSubcommand: { level: 'process_exec', opaque: 'unknown_subcommand' },
  }),
};
