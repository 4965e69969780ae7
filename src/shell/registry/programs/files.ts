import { options, same, type Family } from '../define';

/**
 * Programs that change files in the workspace: level `workspace_write` (GNU coreutils, sed, the
 * archivers and compressors). The option tables list every option that takes a value, so that
 * the operands found are the ones the program takes.
 */

/** PowerShell's cmdlets that write, remove or create what their operands and -Path name. */
const POWERSHELL_CHANGES = ['set-content', 'add-content', 'out-file', 'remove-item', 'new-item', 'rename-item', 'clear-content', 'set-acl', 'set-itemproperty', 'new-itemproperty', 'ri', 'rni', 'del', 'erase', 'rd', 'sc', 'ac', 'ni', 'md'];
const POWERSHELL_PATHS = ['-Path= -LiteralPath=', { role: 'destroys' }] as const;

const GZIP = options('-c --stdout --to-stdout', '-d --decompress --uncompress', '-f --force', '-k --keep', '-l --list', '-L --license', '-n --no-name', '-N --name', '-q --quiet', '-r --recursive', '--rsyncable', '-S= --suffix=', '--synchronous', '-t --test', '-v --verbose', '--fast', '--best');
const BZIP2 = options('-c --stdout', '-d --decompress', '-z --compress', '-k --keep', '-f --force', '-t --test', '-s --small', '-q --quiet', '-v --verbose', '-L --license', '--fast', '--best');
const XZ = options('-z --compress', '-d --decompress --uncompress', '-t --test', '-l --list', '-k --keep', '-f --force', '-c --stdout --to-stdout', '-e --extreme', '-T= --threads=', '-S= --suffix=', '-F= --format=', '-C= --check=', '-M= --memlimit= --memory=', '--memlimit-compress=', '--memlimit-decompress=', '--files[=]', '--files0[=]', '-q --quiet', '-v --verbose', '-H --long-help', '--block-size=', '--block-list=', '--flush-timeout=', '--lzma1[=]', '--lzma2[=]', '--x86[=]', '--delta[=]', '--single-stream', '--no-sparse', '--robot', '--info-memory', '--ignore-check', '--no-adjust');
const ZSTD = options('-z --compress', '-d --decompress --uncompress', '-t --test', '-l --list', '-k --keep', '-f --force', '-c --stdout', '-o=', '-q --quiet', '-v --verbose', '-r', '-T[=] --threads=', '--rm', '--output-dir-flat=', '--output-dir-mirror=', '--filelist=', '-D=', '--patch-from=', '--trace=', '-M= --memory=', '--format=', '-B[=]', '-b[=]', '-e[=]', '-i[=]', '-S', '--ultra', '--long[=]', '--fast[=]', '--adapt[=]', '--exclude-compressed', '--no-progress', '--progress', '--sparse', '--no-sparse', '--single-thread', '--auto-threads=', '--size-hint=', '--stream-size=', '--target-compressed-block-size=', '--no-check', '--check', '--no-dictID', '--no-content-size', '--content-size', '--priority=', '--mmap-dict', '--no-mmap-dict');

/** PowerShell's cmdlets and aliases that change files. */
export const POWERSHELL_FILES: Family = {
  ...same([...POWERSHELL_CHANGES, 'rm', 'rmdir'], () => ({ summary: 'writes, removes or creates what it names', level: 'workspace_write', kind: 'writer', operands: 'destroys', options: options([...POWERSHELL_PATHS], '-Filter= -Include= -Exclude= -Encoding= -ItemType= -Value=') })),
  ...same(['move-item', 'mi', 'move', 'mv'], () => ({ summary: 'moves items', level: 'workspace_write', kind: 'writer', reader: 'move', options: options('-Path= -LiteralPath= -Filter= -Include= -Exclude=', ['-Destination=', { role: 'target' }]) })),
  ...same(['copy-item', 'cpi', 'copy', 'cp'], () => ({ summary: 'copies items', level: 'workspace_write', kind: 'writer', reader: 'copy', options: options('-Path= -LiteralPath= -Filter= -Include= -Exclude=', ['-Destination=', { role: 'target' }]) })),
};

export const FILES: Family = {
  tee: () => ({ summary: 'copies its input to files', level: 'workspace_write', kind: 'writer', operands: 'writes', options: options('-a --append', '-i --ignore-interrupts', '-p', '--output-error[=]') }),
  touch: () => ({ summary: 'creates files or changes their times', level: 'workspace_write', kind: 'writer', operands: 'writes', options: options('-a', '-c --no-create', '-d= --date=', '-f', '-h --no-dereference', '-m', '-r= --reference=', '-t=', '--time=') }),
  truncate: () => ({ summary: 'sets the size of files', level: 'workspace_write', kind: 'writer', operands: 'writes', options: options('-c --no-create', '-o --io-blocks', '-r= --reference=', '-s= --size=') }),
  mkdir: () => ({ summary: 'makes directories', level: 'workspace_write', kind: 'writer', operands: 'writes', options: options('-m= --mode=', '-p --parents', '-v --verbose', '-Z', '--context[=]') }),
  mkfifo: () => ({ summary: 'makes named pipes', level: 'workspace_write', kind: 'writer', operands: 'writes', options: options('-m= --mode=', '-Z', '--context[=]') }),
  mktemp: () => ({ summary: 'makes a temporary file or directory', level: 'workspace_write', kind: 'writer', operands: 'writes', options: options('-d --directory', '-u --dry-run', '-q --quiet', '-p=', '--tmpdir[=]', '-t', '--suffix=') }),
  rm: () => ({ summary: 'removes files', level: 'workspace_write', kind: 'writer', operands: 'destroys', options: options('-f --force', '-i', '-I', '--interactive[=]', '--one-file-system', '--no-preserve-root', '--preserve-root[=]', '-r -R --recursive', '-d --dir', '-v --verbose') }),
  rmdir: () => ({ summary: 'removes empty directories', level: 'workspace_write', kind: 'writer', operands: 'destroys', options: options('--ignore-fail-on-non-empty', '-p --parents', '-v --verbose') }),
  unlink: () => ({ summary: 'removes a file', level: 'workspace_write', kind: 'writer', operands: 'destroys' }),
  shred: () => ({ summary: 'overwrites and removes files', level: 'workspace_write', kind: 'writer', operands: 'destroys', options: options('-f --force', '-n= --iterations=', '--random-source=', '-s= --size=', '-u', '--remove[=]', '-v --verbose', '-x --exact', '-z --zero') }),
  cp: () => ({
    summary: 'copies files',
    level: 'workspace_write',
    kind: 'writer',
    reader: 'copy',
    options: options(
      '-a --archive', '--attributes-only', '-b', '--backup[=]', '-S= --suffix=',
      '--copy-contents', '-d', '--debug', '-f --force', '-i --interactive', '-H', '-l --link', '-L --dereference', '-n --no-clobber', '-P --no-dereference',
      '-p', '--preserve[=]', '--no-preserve=', '--parents', '-R -r --recursive', '--reflink[=]', '--remove-destination', '--sparse=',
      '--strip-trailing-slashes', '-s --symbolic-link', ['-t= --target-directory=', { role: 'target' }], '-T --no-target-directory', '-u', '--update[=]', '-v --verbose',
      '--keep-directory-symlink', '-x --one-file-system', '-Z', '--context[=]',
    ),
  }),
  install: () => ({
    summary: 'copies files and sets their attributes',
    level: 'workspace_write',
    kind: 'writer',
    reader: 'copy',
    options: options(
      '-b', '--backup[=]', '-S= --suffix=', '-c', '-C --compare', '-d --directory', '-D', '-g= --group=', '-m= --mode=', '-o= --owner=', '-p --preserve-timestamps',
      '-s --strip', ['--strip-program=', { role: 'runs', opaque: 'runs_named_program' }], ['-t= --target-directory=', { role: 'target' }], '-T --no-target-directory', '-v --verbose',
      '--preserve-context', '-Z', '--context[=]', '--debug',
    ),
  }),
  mv: () => ({
    summary: 'moves files',
    level: 'workspace_write',
    kind: 'writer',
    reader: 'move',
    options: options(
      '-b', '--backup[=]', '-S= --suffix=', '--exchange', '-f --force', '-i --interactive', '-n --no-clobber', '--no-copy', '--strip-trailing-slashes',
      ['-t= --target-directory=', { role: 'target' }], '-T --no-target-directory', '-u', '--update[=]', '-v --verbose', '-Z', '--context',
    ),
  }),
  ln: () => ({
    summary: 'makes links',
    level: 'workspace_write',
    kind: 'writer',
    reader: 'link',
    options: options('-b', '--backup[=]', '-S= --suffix=', '-d -F --directory', '-f --force', '-i --interactive', '-L --logical', '-n --no-dereference', '-P --physical', '-r --relative', '-s --symbolic', ['-t= --target-directory=', { role: 'target' }], '-T --no-target-directory', '-v --verbose'),
  }),
  link: () => ({ summary: 'makes a hard link', level: 'workspace_write', kind: 'writer', reader: 'link' }),
  chmod: () => ({ summary: 'changes the mode of files', level: 'workspace_write', kind: 'writer', reader: 'mode', options: options('-c --changes', '-f --silent --quiet', '-v --verbose', '--no-preserve-root', '--preserve-root', ['--reference=', { mode: 'reference' }], '-R --recursive') }),
  chown: () => ({ summary: 'changes the owner of files', level: 'workspace_write', kind: 'writer', reader: 'mode', options: options('-c --changes', '-f --silent --quiet', '-v --verbose', '--dereference', '-h --no-dereference', '--from=', '--no-preserve-root', '--preserve-root', ['--reference=', { mode: 'reference' }], '-R --recursive', '-H', '-L', '-P') }),
  chgrp: () => ({ summary: 'changes the group of files', level: 'workspace_write', kind: 'writer', reader: 'mode', options: options('-c --changes', '-f --silent --quiet', '-v --verbose', '--dereference', '-h --no-dereference', '--no-preserve-root', '--preserve-root', ['--reference=', { mode: 'reference' }], '-R --recursive', '-H', '-L', '-P') }),
  chattr: () => ({ summary: 'changes file attributes', level: 'workspace_write', kind: 'writer', reader: 'attributes', options: options('-R', '-V', '-f', '-v=', '-p=') }),
  setfacl: () => ({ summary: 'changes access control lists', level: 'workspace_write', kind: 'writer', operands: 'destroys', options: options('-m= --modify=', '-M= --modify-file=', '-x= --remove=', '-X= --remove-file=', '-b --remove-all', '-k --remove-default', '--set=', '--set-file=', '--mask', '-n --no-mask', '-d --default', '--restore=', '--test', '-R --recursive', '-L --logical', '-P --physical', ['-v --version', { help: true }], ['-h --help', { help: true }]) }),
  sed: () => ({
    summary: 'edits text; with -i, files in place',
    level: 'read_only',
    kind: 'reader',
    reader: 'sed',
    options: options(
      '-n --quiet --silent', '--debug', '-e= --expression=', '-f= --file=', '--follow-symlinks', ['-i[=] --in-place[=]', { mode: 'in-place' }], '-l= --line-length=',
      '--posix', '-E -r --regexp-extended', '-s --separate', '--sandbox', '-u --unbuffered', '-z --null-data --zero-terminated',
    ),
  }),
  dd: () => ({ summary: 'copies and converts a file (of=FILE)', level: 'workspace_write', kind: 'writer', reader: 'dd' }),
  sort: () => ({
    summary: 'sorts lines; -o writes the result to a file',
    level: 'read_only',
    kind: 'reader',
    options: options(
      '-b --ignore-leading-blanks', '-d --dictionary-order', '-f --ignore-case', '-g --general-numeric-sort', '-i --ignore-nonprinting', '-M --month-sort', '-h --human-numeric-sort',
      '-n --numeric-sort', '-R --random-sort', '--random-source=', '-r --reverse', '--sort=', '-V --version-sort', '--batch-size=', '-c', '-C', '--check[=]',
      ['--compress-program=', { role: 'runs', opaque: 'runs_named_program' }], '--debug', '--files0-from=', '-k= --key=', '-m --merge', ['-o= --output=', { role: 'writes' }],
      '-s --stable', '-S= --buffer-size=', '-t= --field-separator=', '-T= --temporary-directory=', '--parallel=', '-u --unique', '-z --zero-terminated',
    ),
  }),
  shuf: () => ({ summary: 'shuffles lines; -o writes the result to a file', level: 'read_only', kind: 'reader', options: options('-e --echo', '-i= --input-range=', '-n= --head-count=', ['-o= --output=', { role: 'writes' }], '--random-source=', '-r --repeat', '-z --zero-terminated') }),
  iconv: () => ({ summary: 'converts text between encodings; -o writes the result to a file', level: 'read_only', kind: 'reader', options: options('-f= --from-code=', '-t= --to-code=', '-l --list', '-c', ['-o= --output=', { role: 'writes' }], '-s --silent', '--verbose') }),
  uniq: () => ({ summary: 'filters repeated lines; a second operand is the file it writes', level: 'read_only', kind: 'reader', operands: 'second-writes', options: options('-c --count', '-d --repeated', '-D', '--all-repeated[=]', '-f= --skip-fields=', '--group[=]', '-i --ignore-case', '-s= --skip-chars=', '-u --unique', '-z --zero-terminated', '-w= --check-chars=') }),
  xxd: () => ({
    summary: 'a hex dump; a second operand is the file it writes',
    level: 'read_only',
    kind: 'reader',
    operands: 'second-writes',
    options: options('-a -autoskip', '-b -bits', '-C -capitalize', '-c= -cols= --cols=', '-E -EBCDIC', '-e', '-g= -groupsize= --groupsize=', '-h -help', '-i -include', '-l= -len= --len=', '-n= -name= --name=', '-o= -offset= --offset=', '-p -ps -postscript -plain', '-r -revert', '-R=', '-d', '-s= -seek= --seek=', '-u', '-v -version'),
  }),
  tar: () => ({ summary: 'makes, lists and extracts archives', level: 'workspace_write', kind: 'writer', reader: 'tar' }),
  unzip: () => ({ summary: 'lists and extracts zip archives', level: 'workspace_write', kind: 'writer', reader: 'unzip' }),
  '7z': () => ({ summary: 'makes, lists and extracts archives', level: 'workspace_write', kind: 'writer', reader: '7z' }),
  patch: () => ({
    summary: 'applies a diff to files',
    level: 'workspace_write',
    kind: 'writer',
    reader: 'patch',
    options: options(
      '-p= --strip=', '-i= --input=', '-o= --output=', '-d= --directory=', '-F= --fuzz=', '-B= --prefix=', '-D= --ifdef=', '-r= --reject-file=', '-V= --version-control=', '-z= --suffix=',
      '-Y= --basename-prefix=', '-b --backup', '--backup-if-mismatch', '--no-backup-if-mismatch', '-R --reverse', '-N --forward', '-f --force', '-s --silent --quiet', '-t --batch', '-u --unified',
      '-c --context', '-e --ed', '-n --normal', '-E --remove-empty-files', '-l --ignore-whitespace', '--dry-run', '--merge[=]', '--binary', '--posix', '--quoting-style=', '--read-only=',
      '--follow-symlinks', '--reject-format=', '-g= --get=', '-T --set-time', '-Z --set-utc', '--verbose',
    ),
  }),
  gzip: () => ({ summary: 'compresses files in place', level: 'workspace_write', kind: 'writer', reader: 'pack', numeric: true, options: GZIP }),
  gunzip: () => ({ summary: 'decompresses files in place', level: 'workspace_write', kind: 'writer', reader: 'pack', numeric: true, options: GZIP }),
  bzip2: () => ({ summary: 'compresses files in place', level: 'workspace_write', kind: 'writer', reader: 'pack', numeric: true, options: BZIP2 }),
  bunzip2: () => ({ summary: 'decompresses files in place', level: 'workspace_write', kind: 'writer', reader: 'pack', numeric: true, options: BZIP2 }),
  xz: () => ({ summary: 'compresses files in place', level: 'workspace_write', kind: 'writer', reader: 'pack', numeric: true, options: XZ }),
  unxz: () => ({ summary: 'decompresses files in place', level: 'workspace_write', kind: 'writer', reader: 'pack', numeric: true, options: XZ }),
  zstd: () => ({ summary: 'compresses files', level: 'workspace_write', kind: 'writer', reader: 'pack', numeric: true, options: ZSTD }),
  split: () => ({ summary: 'splits a file into pieces', level: 'workspace_write', kind: 'writer', reader: 'split', options: options('-a= --suffix-length=', '--additional-suffix=', '-b= --bytes=', '-C= --line-bytes=', '-d', '--numeric-suffixes[=]', '-x', '--hex-suffixes[=]', '-e --elide-empty-files', '--filter=', '-l= --lines=', '-n= --number=', '-t= --separator=', '-u --unbuffered', '--verbose') }),
  csplit: () => ({ summary: 'splits a file by context', level: 'workspace_write', kind: 'writer', reader: 'split', options: options('-b= --suffix-format=', '-f= --prefix=', '-k --keep-files', '--suppress-matched', '-n= --digits=', '-s --quiet --silent', '-z --elide-empty-files') }),
};
