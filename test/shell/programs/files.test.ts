import { programRows } from '../../helpers/program-rows';

// Programs that write their operands, or remove them.
programRows('writers of their operands', [
  ['tee out.txt', { level: 'workspace_write', effects: ['write out.txt'] }],
  ['tee -a log.txt', { level: 'workspace_write', effects: ['write log.txt'] }],
  ['tee', { level: 'read_only', opaque: false, effects: [] }],
  ['tee -a', { level: 'read_only', opaque: false, effects: [] }],
  ['tee /dev/null', { level: 'read_only', opaque: false, effects: [] }],
  ['tee /dev/stdout /dev/stderr', { level: 'read_only', opaque: false, effects: [] }],
  ['tee /dev/null out.txt', { level: 'workspace_write', effects: ['write out.txt'] }],
  // /dev/stdin opened for writing is the file its input was redirected from; `-` is a file of that name
  ['tee /dev/stdin < notes.txt', { level: 'workspace_write' }],
  ['tee -', { level: 'workspace_write', effects: ['write -'] }],
  // standard error opened on a file for reading is reopened for writing through /dev/stderr
  ['tee /dev/stderr 2<notes.txt', { level: 'workspace_write', effects: ['write notes.txt'] }],
  ['touch a b', { level: 'workspace_write', effects: ['write a', 'write b'] }],
  ['touch -r ref.txt stamp', { level: 'workspace_write', effects: ['write stamp'] }],
  ['touch -d 2024-01-01 stamp', { level: 'workspace_write', effects: ['write stamp'] }],
  ['truncate -s 0 log.txt', { level: 'workspace_write', effects: ['write log.txt'] }],
  ['mkdir -p build/out', { level: 'workspace_write', effects: ['write build/out'] }],
  ['mkdir -m 700 secret', { level: 'workspace_write', effects: ['write secret'] }],
  ['mkfifo -m 600 pipe', { level: 'workspace_write', effects: ['write pipe'] }],
  ['mktemp -p /tmp x.XXXX', { level: 'workspace_write', effects: ['write x.XXXX'] }],
  ['mktemp', { level: 'workspace_write' }],
  ['mktemp -d', { level: 'workspace_write' }],
  ['mktemp -u', { level: 'read_only', opaque: false, effects: [] }],
  ['mktemp -u template.XXXX', { level: 'read_only', opaque: false, effects: [] }],
  ['mktemp --dry-run -d -p /tmp build.XXXX', { level: 'read_only', opaque: false, effects: [] }],
  ['rm -rf build', { level: 'workspace_write', effects: ['destroy build'] }],
  ['rm -- -weird-name', { level: 'workspace_write', effects: ['destroy -weird-name'] }],
  // a variable the line gives literal values is read as each of them
  ['for target in /tmp/a /tmp/b; do rm -r -f "$target"; done', { level: 'workspace_write', effects: ['destroy /tmp/a', 'destroy /tmp/b'] }],
  ['D=build; rm -rf "$D"', { level: 'workspace_write', effects: ['destroy build'] }],
  ['for d in .claude; do rm -rf "$d"; done', { level: 'workspace_write', effects: ['destroy .claude'] }],
  ['rm -rf "$D"', { unparsable: 'computed at run time' }],
  ['rmdir -p a/b', { level: 'workspace_write', effects: ['destroy a/b'] }],
  ['unlink old.txt', { level: 'workspace_write', effects: ['destroy old.txt'] }],
  ['shred -u -n 3 secret.txt', { level: 'workspace_write', effects: ['destroy secret.txt'] }],
  ['setfacl -m u:alice:r file.txt', { level: 'workspace_write', effects: ['destroy file.txt'] }],
]);

// cp, mv, install and ln: the last operand, or -t DIR, receives the others.
programRows('copy, move and link', [
  ['cp src/a.ts /tmp/a.ts', { level: 'workspace_write', effects: ['write /tmp/a.ts', 'into /tmp/a.ts', 'destroy /tmp/a.ts/a.ts'] }],
  ['cp -t out a b', { level: 'workspace_write', effects: ['write out', 'into out', 'destroy out/a', 'destroy out/b'] }],
  ['cp -rt out a', { level: 'workspace_write', effects: ['write out', 'into out', 'destroy out/a'] }],
  ['cp --target-directory=out a', { level: 'workspace_write', effects: ['write out', 'into out', 'destroy out/a'] }],
  ['cp -b -S .bak a b', { level: 'workspace_write', effects: ['write b', 'into b', 'destroy b/a', 'write b.bak', 'write b/a.bak'] }],
  ['cp -l a b', { level: 'workspace_write', effects: ['write b', 'into b', 'destroy b/a', 'link a'] }],
  ['mv a b', { level: 'workspace_write', effects: ['write b', 'into b', 'destroy b/a', 'destroy a'] }],
  ['mv -t dir a', { level: 'workspace_write', effects: ['write dir', 'into dir', 'destroy dir/a', 'destroy a'] }],
  ['install -m 755 tool bin/tool', { level: 'workspace_write', effects: ['write bin/tool', 'into bin/tool', 'destroy bin/tool/tool'] }],
  ['install -d out/dir', { level: 'workspace_write', effects: ['write out/dir'] }],
  ['install -t bin tool', { level: 'workspace_write', effects: ['write bin', 'into bin', 'destroy bin/tool'] }],
  ['install -s --strip-program=./strip tool bin/tool', { level: 'process_exec', opaque: 'runs the program its options name' }],
  ['ln -s target link', { level: 'workspace_write', effects: ['write link', 'into link', 'destroy link/target', 'link ./target'] }],
  ['ln -t dir target', { level: 'workspace_write', effects: ['write dir', 'into dir', 'destroy dir/target', 'link target'] }],
  ['link a b', { level: 'workspace_write', effects: ['write b', 'into b', 'destroy b/a', 'link a'] }],
]);

// chmod, chown, chgrp, chattr: the files they change.
programRows('modes and owners', [
  ['chmod 644 a b', { level: 'workspace_write', effects: ['destroy a', 'destroy b'] }],
  ['chmod -R u+x bin', { level: 'workspace_write', effects: ['destroy bin'] }],
  // a mode written as an option: every operand is a file it changes
  ['chmod -w file.txt', { level: 'workspace_write', effects: ['destroy file.txt'] }],
  ['chmod --reference=ref a', { level: 'workspace_write', effects: ['destroy a'] }],
  ['chown alice:staff a', { level: 'workspace_write', effects: ['destroy a'] }],
  ['chown --reference=ref a', { level: 'workspace_write', effects: ['destroy a'] }],
  ['chgrp staff a', { level: 'workspace_write', effects: ['destroy a'] }],
  ['chgrp --reference=ref a', { level: 'workspace_write', effects: ['destroy a'] }],
  ['chattr +i a', { level: 'workspace_write', effects: ['destroy +i', 'destroy a'] }],
]);

// sed: its script read as sed reads it; -i edits the files in place.
programRows('sed', [
  ["sed 's/a/b/' f", { level: 'read_only', effects: [], opaque: false }],
  ["sed -n '1,5p' f", { level: 'read_only', effects: [] }],
  ["sed 'r header.txt' f", { level: 'read_only', effects: [], opaque: false }],
  ["sed -e 's/a/b/' -e 'w out.txt' f", { level: 'workspace_write', effects: ['write out.txt'] }],
  ["sed 's/a/b/w out.txt' f", { level: 'workspace_write', effects: ['write out.txt'] }],
  // the i inside -e's value is sed's insert command, not -i
  ['sed -einstall f', { level: 'read_only', effects: [] }],
  // after --, -i is no option: it is the script, which sed refuses (no command `-`), or a file it reads
  ['sed -- -i file', { level: 'read_only', effects: [], opaque: false }],
  ['sed -n -- -i.bak f', { level: 'read_only', effects: [], opaque: false }],
  ['sed -e p -- -i', { level: 'read_only', effects: [], opaque: false }],
  ["sed -- 's/a/b/' -i", { level: 'read_only', effects: [], opaque: false }],
  ["sed -e 'w out.txt' -e -i f", { level: 'workspace_write', effects: ['write out.txt'] }],
  // e COMMAND runs COMMAND with sh -c: read as that line; e alone runs the pattern space
  ["sed -- '1e date' -i", { level: 'read_only', opaque: false }],
  ["sed 'e rm -rf out' f", { level: 'workspace_write', effects: ['destroy out'] }],
  ["sed '1e' f", { level: 'process_exec', opaque: true }],
  ["sed 's/x/y/e' f", { level: 'process_exec', opaque: true }],
  ["sed '1e printf a\\tb' f", { level: 'process_exec', opaque: true }],
  ["sed '1e [[ a > out ]]' f", { unparsable: 'POSIX sh' }],
  // -n, then -e with the script `wout`: writes out
  ['sed -newout input', { level: 'workspace_write', effects: ['write out'] }],
  ["sed -i 's/a/b/' f", { level: 'workspace_write', effects: ['write f'] }],
  ["sed -i.bak 's/a/b/' f", { level: 'workspace_write', effects: ['write f', 'write f.bak'] }],
  // BSD sed (macOS): -I EXT edits in place too
  ["sed -I.bak 's/a/b/' f", { level: 'workspace_write', effects: ['write f', 'write f.bak'] }],
  ["sed -nI.bak 's/a/b/p' f", { level: 'workspace_write', effects: ['write f', 'write f.bak'] }],
  ["sed -I .bak 's/a/b/' f", { level: 'workspace_write', effects: ['write f', 'write f.bak'] }],
  ["sed --in-place=.orig 's/a/b/' f", { level: 'workspace_write', effects: ['write f', 'write f.orig'] }],
  ["sed --expression='s/a/b/' f", { level: 'read_only' }],
  ['sed -f script.sed f', { level: 'process_exec', opaque: 'a sed script' }],
  ['sed --file=script.sed f', { level: 'process_exec', opaque: true }],
  ["sed '1e date' f", { level: 'read_only', opaque: false }],
  ["sed 's/x/date/e' f", { level: 'process_exec', opaque: true }],
]);

// dd, sort, shuf, iconv, uniq, xxd: what they write.
programRows('programs that write where told', [
  ['dd if=/dev/zero of=disk.img bs=1M count=1', { level: 'workspace_write', effects: ['write disk.img'] }],
  // without of= it writes its standard output
  ['dd if=input bs=512 count=1', { level: 'read_only', effects: [] }],
  ['dd if=input "$OUT"', { level: 'workspace_write', effects: [] }],
  ['sort -o sorted.txt in.txt', { level: 'workspace_write', effects: ['write sorted.txt'] }],
  ['sort --output=sorted.txt in.txt', { level: 'workspace_write', effects: ['write sorted.txt'] }],
  ['sort -mo out a b', { level: 'workspace_write', effects: ['write out'] }],
  ['sort -o /dev/stdout in.txt', { level: 'read_only', opaque: false, effects: [] }],
  ['sort -o /dev/null in.txt', { level: 'read_only', opaque: false, effects: [] }],
  ['sort -o - in.txt', { level: 'workspace_write', effects: ['write -'] }],
  ['sort -o /dev/stdin in.txt', { level: 'workspace_write' }],
  ['sort -o /dev/stdout in.txt 1<notes.txt', { level: 'workspace_write', effects: ['write notes.txt'] }],
  ['sort -k 2 -t , data.csv', { level: 'read_only', effects: [] }],
  ['sort --compress-program=./z big.txt', { level: 'process_exec', opaque: true }],
  ['sort --co=cat big.txt', { level: 'read_only', opaque: false }],
  // sort starts it as `gzip` and `gzip -d`: a filter of standard input, whatever its name would do to a path
  ['sort --compress-program=gzip big.txt', { level: 'read_only', opaque: false }],
  ['sort --compress-program zstd -S 1M big.txt', { level: 'read_only', opaque: false }],
  ['sort --compress-program=sh big.txt', { level: 'process_exec', opaque: 'reads commands from stdin' }],
  ['sort --compress-program=rm big.txt', { level: 'workspace_write' }],
  ['sort --compress-program="$Z" big.txt', { level: 'process_exec', opaque: true }],
  ['shuf -o out.txt in.txt', { level: 'workspace_write', effects: ['write out.txt'] }],
  ['iconv -f latin1 -t utf8 -o out.txt in.txt', { level: 'workspace_write', effects: ['write out.txt'] }],
  ['uniq in.txt out.txt', { level: 'workspace_write', effects: ['write out.txt'] }],
  ['uniq -c in.txt', { level: 'read_only', effects: [] }],
  // one word that may become two files: the second is written
  ['uniq *', { level: 'workspace_write', effects: ['write *'] }],
  // a brace expansion that makes options: -o output
  ['sort {-o,output} input', { level: 'process_exec', opaque: true }],
  // a value only known at run time may be an option that writes or runs
  ['sort "$FLAGS" input', { level: 'process_exec', opaque: true }],
  ['sort "$HOME/data.txt"', { level: 'read_only', effects: [] }],
  ['xxd in.bin dump.txt', { level: 'workspace_write', effects: ['write dump.txt'] }],
  ['xxd -c 16 in.bin', { level: 'read_only', effects: [] }],
]);

// GNU ddrescue: reads its first operand, writes the image and the map.
programRows('ddrescue', [
  ['ddrescue -n /dev/sda disk.img map.log', { level: 'workspace_write', effects: ['write disk.img', 'write map.log'] }],
  ['ddrescue -d -r3 /dev/sda disk.img map.log', { level: 'workspace_write', effects: ['write disk.img', 'write map.log'] }],
  ['ddrescue -b 2048 /dev/sr0 cd.iso', { level: 'workspace_write', effects: ['write cd.iso'] }],
  ['ddrescue -m domain.map -i 1M /dev/sda part.img part.map', { level: 'workspace_write', effects: ['write part.img', 'write part.map'] }],
  ['ddrescue --log-events=events.txt in.img out.img', { level: 'workspace_write', effects: ['write out.img', 'write events.txt'] }],
  ['ddrescue /dev/sd* out.img', { level: 'workspace_write', effects: ['write /dev/sd*', 'write out.img'] }],
  ['ddrescue -V', { level: 'read_only', effects: [] }],
  ['ddrescue -h', { level: 'read_only', effects: [] }],
]);

// Archives and compressors.
programRows('archives', [
  ['tar czf backup.tgz src', { level: 'workspace_write', effects: ['write backup.tgz'] }],
  ['tar -cvf x.tar src', { level: 'workspace_write', effects: ['write x.tar'] }],
  ['tar -tf x.tar', { level: 'read_only', effects: [] }],
  ['tar -xf x.tar', { level: 'workspace_write', effects: ['beneath .'] }],
  ['tar -xf x.tar -C out', { level: 'workspace_write', effects: ['beneath out'] }],
  ['tar --extract --file=x.tar --directory=out', { level: 'workspace_write', effects: ['beneath out'] }],
  ['tar -xPf x.tar', { level: 'process_exec', opaque: 'absolute' }],
  ['tar -cf x.tar --use-compress-program=./z src', { level: 'process_exec', opaque: 'runs a program' }],
  ['tar -cf x.tar --remove-files a', { level: 'workspace_write', effects: ['write x.tar', 'destroy a'] }],
  ['unzip x.zip', { level: 'workspace_write', effects: ['beneath .'] }],
  ['unzip -d out x.zip', { level: 'workspace_write', effects: ['beneath out'] }],
  ['unzip -l x.zip', { level: 'read_only', effects: [] }],
  // members to standard output (-c, -p), the comment (-z): nothing written, -d ignored
  ['unzip -c x.zip', { level: 'read_only', effects: [] }],
  ['unzip -p x.zip a.txt', { level: 'read_only', effects: [] }],
  ['unzip -qc -d sub x.zip', { level: 'read_only', effects: [] }],
  ['unzip -z x.zip', { level: 'read_only', effects: [] }],
  ['unzip -o x.zip', { level: 'workspace_write', effects: ['beneath .'] }],
  // a - before a letter negates it: --c turns -c off again
  ['unzip -c --c -o x.zip', { level: 'workspace_write', effects: ['beneath .'] }],
  ['unzip -l -l- x.zip', { level: 'workspace_write', effects: ['beneath .'] }],
  ['unzip -: x.zip', { level: 'process_exec', opaque: true }],
  ['7z x a.7z -oout', { level: 'workspace_write', effects: ['beneath out'] }],
  ['7z x a.7z', { level: 'workspace_write', effects: ['beneath .'] }],
  ['7za e -y a.7z', { level: 'workspace_write', effects: ['beneath .'] }],
  ['7z x -so a.7z', { level: 'read_only', effects: [] }],
  ['7z l -slt archive.7z', { level: 'read_only', opaque: false, effects: [] }],
  ['7zz t -pSECRET archive.7z', { level: 'read_only', opaque: false, effects: [] }],
  ['7zr h -scrcSHA256 notes.txt', { level: 'read_only', opaque: false, effects: [] }],
  ['7z i', { level: 'read_only', opaque: false, effects: [] }],
  ['7z b -mmt=4', { level: 'read_only', opaque: false, effects: [] }],
  ['7z', { level: 'read_only', opaque: false, effects: [] }],
  ['7zz -h', { level: 'read_only', opaque: false, effects: [] }],
  ['7z a backup.7z src', { level: 'workspace_write', effects: ['write backup.7z', 'write backup.7z*'] }],
  ['7z a -wtmp backup src', { level: 'workspace_write', effects: ['write backup', 'write backup*', 'into tmp'] }],
  ['7z a -so backup.7z src', { level: 'read_only', effects: [] }],
  ['7z a -sdel backup.7z src', { level: 'workspace_write', effects: ['write backup.7z', 'write backup.7z*', 'destroy src'] }],
  ['7z u backup.7z src', { level: 'workspace_write', effects: ['write backup.7z', 'write backup.7z*'] }],
  ['7z d backup.7z old.txt', { level: 'workspace_write', effects: ['write backup.7z', 'write backup.7z*'] }],
  ['7z rn backup.7z a.txt b.txt', { level: 'workspace_write', effects: ['write backup.7z', 'write backup.7z*'] }],
  ['7z a', { level: 'process_exec', opaque: true }],
  ['7z a -mhe=on archive.7z notes.txt', { level: 'workspace_write', effects: ['write archive.7z', 'write archive.7z*'] }],
  ['7z -h', { level: 'read_only', effects: [] }],
  ['7z zz a.7z', { level: 'process_exec', opaque: true }],
  ['7z "$MODE" a.7z', { level: 'process_exec', opaque: true }],
  ['7z x -spf a.7z', { level: 'process_exec', opaque: true }],
  ['patch -p1 -i fix.diff', { level: 'workspace_write', effects: ['beneath .'] }],
  ['patch -p1 --dry-run -i fix.diff', { level: 'read_only', effects: [] }],
  ['patch file.c fix.diff', { level: 'workspace_write', effects: ['write file.c'] }],
  ['patch -o out.c file.c fix.diff', { level: 'workspace_write', effects: ['write out.c'] }],
  ['patch -d sub -p1 -i fix.diff', { level: 'workspace_write', effects: ['beneath sub', 'beneath .'] }],
  ['gzip notes.txt', { level: 'workspace_write' }],
  ['gzip -c notes.txt', { level: 'read_only', effects: [] }],
  // no file: standard input to standard output
  ['gzip', { level: 'read_only', effects: [] }],
  ['gzip -d -', { level: 'read_only', effects: [] }],
  ['xz -9', { level: 'read_only', effects: [] }],
  ['gzip "$F"', { unparsable: 'computed at run time' }],
  ['gzip -S .z notes.txt', { level: 'workspace_write' }],
  ['gunzip -c x.gz', { level: 'read_only', effects: [] }],
  ['bzip2 -k notes.txt', { level: 'workspace_write' }],
  ['bunzip2 -c x.bz2', { level: 'read_only', effects: [] }],
  ['xz -T 2 notes.txt', { level: 'workspace_write' }],
  ['xz --files=list.txt', { level: 'process_exec', opaque: true }],
  ['unxz -c x.xz', { level: 'read_only', effects: [] }],
  ['zstd -o out.zst notes.txt', { level: 'workspace_write' }],
  ['zstd --output-dir-flat=out notes.txt', { level: 'workspace_write' }],
  ['split -l 100 big.txt part-', { level: 'workspace_write', effects: ['write part-*'] }],
  ['split --filter="cat > x" big.txt', { level: 'process_exec', opaque: true }],
  ['csplit -f piece big.txt /x/', { level: 'workspace_write', effects: ['write piece*'] }],
]);

// PowerShell's cmdlets that change files.
programRows('PowerShell writers', [
  ['Remove-Item old.txt', { level: 'workspace_write', effects: ['destroy old.txt'], powershell: true }],
  ['Set-Content -Path out.txt -Value hi', { level: 'workspace_write', effects: ['destroy out.txt'], powershell: true }],
  ['Copy-Item a.txt -Destination out', { level: 'workspace_write', powershell: true }],
  ['Move-Item a.txt -Destination out', { level: 'workspace_write', powershell: true }],
]);
