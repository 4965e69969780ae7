import { describe, expect, it } from 'vitest';
import { programRows, readLine } from '../../helpers/program-rows';
import { expectStartsAsRun } from '../../helpers/redteam';

// The programs that run another command: read as the command they run, their own writes and
// directories taken from their options; an option a spec does not list makes the call opaque.

programRows('privilege and user switchers', [
  ['sudo -u deploy make', { level: 'process_exec', opaque: 'make' }],
  ['sudo -u deploy ls -la', { level: 'read_only', opaque: false }],
  ['sudo -E -H ls', { level: 'read_only', opaque: false }],
  ['sudo --preserve-env=PATH,HOME ls', { level: 'read_only', opaque: false }],
  ['sudo -D /srv ls', { level: 'read_only', opaque: false }],
  ['sudo --chdir=/srv rm -f x', { level: 'workspace_write', effects: ['destroy x'] }],
  ['sudo -s', { level: 'process_exec', opaque: 'starts a shell' }],
  ['sudo -i', { level: 'process_exec', opaque: 'starts a shell' }],
  ['sudo -u root -s ls', { level: 'process_exec', opaque: 'sudo -s hands the command to a shell' }],
  ['sudo --login ls', { level: 'process_exec', opaque: 'sudo --login hands the command to a shell' }],
  ['sudo --shell ls', { level: 'process_exec', opaque: true }],
  ['sudo -e /etc/hosts', { level: 'process_exec', opaque: 'sudo -e runs a program it names' }],
  ['sudo --edit /etc/hosts', { level: 'process_exec', opaque: true }],
  ['sudo -R /srv/root ls', { level: 'process_exec', opaque: 'under another root directory' }],
  ['sudo --chroot=/srv/root ls', { level: 'process_exec', opaque: true }],
  ['sudo -np echo rm -f x', { level: 'workspace_write', effects: ['destroy x'], opaque: false }],
  ['sudo --user=deploy cat x', { level: 'read_only', opaque: false }],
  // an abbreviation is not guessed: it could stand for an option the spec does not list
  ['sudo --us deploy ls', { level: 'process_exec', opaque: 'an option the gate does not read' }],
  ['sudo -Z ls', { level: 'process_exec', opaque: 'sudo -Z' }],
  ['sudo', { level: 'none', opaque: false }],
  ['sudo --help', { level: 'read_only', opaque: false }],
  ['doas -u deploy ls', { level: 'read_only', opaque: false }],
  ['doas -s', { level: 'process_exec', opaque: 'starts a shell' }],
  ['doas -n rm -f x', { level: 'workspace_write', effects: ['destroy x'] }],
  ['pkexec --user deploy ls', { level: 'read_only', opaque: false }],
  // it runs the command in the target user's home: a relative path is not the one the line names
  ['pkexec rm -f x', { unparsable: 'a directory known only at run time' }],
  ['pkexec --keep-cwd rm -f x', { level: 'workspace_write', effects: ['destroy x'] }],
  // without a command, a root shell reading stdin
  ['pkexec', { level: 'process_exec', opaque: 'starts a shell' }],
  ["su -c 'rm -f x' deploy", { level: 'workspace_write', effects: ['destroy x'] }],
  ["su deploy -c 'ls'", { level: 'read_only', opaque: false }],
  ["su -lc 'ls' deploy", { level: 'read_only', opaque: false }],
  ["su --session-command='ls' deploy", { level: 'read_only', opaque: false }],
  ['su', { level: 'process_exec', opaque: 'starts a shell' }],
  ['su -', { level: 'process_exec', opaque: 'starts a shell' }],
  ['su - deploy', { level: 'process_exec', opaque: 'starts a shell for another user' }],
  ["su -s ./x.sh -c 'echo hi'", { level: 'process_exec', opaque: 'su -s runs a program it names' }],
  ["su --shell=/bin/zsh -c 'echo hi'", { level: 'process_exec', opaque: true }],
  ['runuser -u deploy -- ls', { level: 'process_exec', opaque: 'starts a shell for another user' }],
  ["runuser -l deploy -c 'ls'", { level: 'read_only', opaque: false }],
  ["runuser --command='rm -f x' deploy", { level: 'workspace_write', effects: ['destroy x'] }],
  ["runuser --session-command='ls' deploy", { level: 'read_only', opaque: false }],
  ["runuser -s ./x.sh -c 'ls' deploy", { level: 'process_exec', opaque: true }],
  ['runuser', { level: 'process_exec', opaque: 'starts a shell' }],
  ["sg staff -c 'rm -f x'", { level: 'workspace_write', effects: ['destroy x'] }],
  ['sg staff ls -la', { level: 'read_only', opaque: false }],
  // without a command, sg starts a shell that reads stdin
  ['sg staff', { level: 'process_exec', opaque: 'starts a shell' }],
]);

programRows('environment, scheduling and session wrappers', [
  ['env FOO=1 make', { level: 'process_exec', opaque: 'make' }],
  ['env FOO=1 ls', { level: 'read_only', opaque: false }],
  ['env -i LANG=C ls', { level: 'read_only', opaque: false }],
  ['env - LANG=C ls', { level: 'read_only', opaque: false }],
  ['env -u HOME --unset=PATH ls', { level: 'read_only', opaque: false }],
  // `--` ends env's options: what follows is the command, assignments first
  ['env -- ls', { level: 'read_only', opaque: false }],
  ['env -i -- LANG=C ls -la', { level: 'read_only', opaque: false }],
  ['env -- rm -f x', { level: 'workspace_write', effects: ['destroy x'] }],
  ['env -- PATH=/tmp ls', { level: 'process_exec', opaque: true }],
  ['env -C /srv rm -f x', { level: 'workspace_write', effects: ['destroy x'] }],
  ['env --chdir=/srv rm -f x', { level: 'workspace_write', effects: ['destroy x'] }],
  ['env -vu echo rm -f x', { level: 'workspace_write', effects: ['destroy x'] }],
  ["env -S 'ls -la'", { level: 'read_only', opaque: false }],
  ["env --split-string='rm -f x'", { level: 'workspace_write', effects: ['destroy x'] }],
  ["env -S'rm\\_-f x'", { level: 'process_exec', opaque: 'env -S with escapes' }],
  ['env --uns HOME ls', { level: 'process_exec', opaque: 'env --uns' }],
  ['env PATH=/tmp ls', { level: 'process_exec', opaque: true }],
  ['env', { level: 'none', opaque: false }],
  ['nohup ls', { level: 'read_only', opaque: false }],
  ['nohup rm -f x', { level: 'workspace_write', effects: ['destroy x'] }],
  // busybox runs the applet its first word names, read as that program
  ['busybox ls', { level: 'read_only', opaque: false }],
  ['busybox find . -name x', { level: 'read_only', opaque: false, effects: [] }],
  ['busybox find . -name x -delete', { level: 'workspace_write', effects: ['destroy ./**/x'] }],
  ['busybox rm -rf build', { level: 'workspace_write', effects: ['destroy build'] }],
  ["busybox sh -c 'rm -f x'", { level: 'workspace_write', effects: ['destroy x'] }],
  ['busybox wget https://example.com/a.txt', { level: 'network' }],
  ['busybox nosuchapplet', { level: 'process_exec', opaque: true }],
  ['busybox --list', { level: 'read_only', opaque: false }],
  ['busybox', { level: 'none', opaque: false }],
  ['busybox --install -s /usr/local/bin', { level: 'process_exec', opaque: 'puts links named after its programs' }],
  ['busybox --install', { level: 'process_exec', opaque: true }],
  ['time cargo build', { level: 'process_exec', opaque: 'cargo' }],
  ['time ls', { level: 'read_only', opaque: false }],
  ['time -o t.txt ls', { level: 'workspace_write', effects: ['write t.txt'] }],
  ['time --output=t.txt -a ls', { level: 'workspace_write', effects: ['write t.txt'] }],
  ['time -pf %e ls', { level: 'read_only', opaque: false }],
  ['time -ao t.txt ls', { level: 'workspace_write', effects: ['write t.txt'] }],
  ['nice -n 10 make -j4', { level: 'process_exec', opaque: 'make' }],
  ['nice -n 10 ls', { level: 'read_only', opaque: false }],
  ['nice -10 ls', { level: 'read_only', opaque: false }],
  ['nice --adjustment=5 rm -f x', { level: 'workspace_write', effects: ['destroy x'] }],
  ['ionice -c 3 ls', { level: 'read_only', opaque: false }],
  ['ionice -c2 -n7 rm -f x', { level: 'workspace_write', effects: ['destroy x'] }],
  ['chrt -f 10 ls', { level: 'read_only', opaque: false }],
  ['chrt --idle 0 rm -f x', { level: 'workspace_write', effects: ['destroy x'] }],
  ['taskset -c 0,1 ls', { level: 'read_only', opaque: false }],
  ['taskset 0x3 rm -f x', { level: 'workspace_write', effects: ['destroy x'] }],
  ['timeout 30 npm test', { level: 'process_exec', opaque: 'npm' }],
  ['timeout 30 ls', { level: 'read_only', opaque: false }],
  ['timeout -k 5 -s KILL 10 rm -f x', { level: 'workspace_write', effects: ['destroy x'] }],
  // options end at the duration: what follows it is the command
  ['timeout 10 --foreground ls', { level: 'process_exec', opaque: true }],
  ['stdbuf -oL ls', { level: 'read_only', opaque: false }],
  ['stdbuf --output=L rm -f x', { level: 'workspace_write', effects: ['destroy x'] }],
  ['setsid -f ls', { level: 'read_only', opaque: false }],
  ['setsid rm -f x', { level: 'workspace_write', effects: ['destroy x'] }],
  ['chronic ls', { level: 'read_only', opaque: false }],
  ['unbuffer ls', { level: 'read_only', opaque: false }],
  ['caffeinate -i ls', { level: 'read_only', opaque: false }],
  ['catchsegv ls', { level: 'read_only', opaque: false }],
  ['then-run ls', { level: 'read_only', opaque: false }],
  ['exec ls', { level: 'read_only', opaque: false }],
  ['exec -la echo rm -f x', { level: 'workspace_write', effects: ['destroy x'] }],
  ['command ls', { level: 'read_only', opaque: false }],
  ['command -v rm', { level: 'none', opaque: false }],
  ['command -V rm', { level: 'none', opaque: false }],
  ['command -p rm -f x', { level: 'workspace_write', effects: ['destroy x'] }],
  ['builtin echo hi', { level: 'none', opaque: false }],
  ['prlimit --nofile=1024 ls', { level: 'read_only', opaque: false }],
  ['prlimit -n1024 rm -f x', { level: 'workspace_write', effects: ['destroy x'] }],
  ['xvfb-run -a ls', { level: 'read_only', opaque: false }],
  ['xvfb-run -e err.log ls', { level: 'workspace_write', effects: ['write err.log'] }],
  ['xvfb-run --error-file=err.log ls', { level: 'workspace_write', effects: ['write err.log'] }],
  ['xvfb-run -f auth ls', { level: 'workspace_write', effects: ['write auth'] }],
  ['xvfb-run --auth-file=auth ls', { level: 'workspace_write', effects: ['write auth'] }],
  ['dbus-run-session ls', { level: 'read_only', opaque: false }],
  ['dbus-run-session --dbus-daemon=./evil.sh true', { level: 'process_exec', opaque: 'runs a program it names' }],
  ['dbus-run-session --config-file=x.conf true', { level: 'process_exec', opaque: true }],
  ['fakeroot make', { level: 'process_exec', opaque: 'make' }],
  ['fakeroot -u ls', { level: 'read_only', opaque: false }],
  ['fakeroot -s state ls', { level: 'workspace_write', effects: ['write state'] }],
  ['fakeroot -i state ls', { level: 'read_only', opaque: false }],
  ['fakeroot -l ./lib.so ls', { level: 'process_exec', opaque: true }],
  ['fakeroot --lib ./lib.so ls', { level: 'process_exec', opaque: true }],
  ['fakeroot -f ./faked ls', { level: 'process_exec', opaque: true }],
  ['fakeroot --faked ./faked ls', { level: 'process_exec', opaque: true }],
]);

programRows('namespaces and roots', [
  ['unshare -r ls', { level: 'read_only', opaque: false }],
  ['unshare -rw/tmp rm -f x', { level: 'workspace_write', effects: ['destroy x'] }],
  ['unshare --wd=/tmp rm -f x', { level: 'workspace_write', effects: ['destroy x'] }],
  ['unshare --mount=x true', { level: 'none', opaque: false }],
  // the command is found under the new root: not the system's program of that name
  ['unshare -rR ./root ls', { level: 'process_exec', opaque: 'under another root directory' }],
  ['unshare --root=./root ls', { level: 'process_exec', opaque: true }],
  ['nsenter -t 1 -m ls', { level: 'read_only', opaque: false }],
  ['nsenter -Fw/tmp -t 1 rm -f x', { level: 'workspace_write', effects: ['destroy x'] }],
  ['nsenter -t 1 --wd=/tmp rm -f x', { level: 'workspace_write', effects: ['destroy x'] }],
  // -w alone: the target's directory, known only at run time
  ['nsenter -t 1 -w rm -f x', { unparsable: 'a directory known only at run time' }],
  ['nsenter -t 1 -W /tmp rm -f x', { level: 'workspace_write', effects: ['destroy x'] }],
  ['nsenter -t 1 --wdns=/tmp rm -f x', { level: 'workspace_write', effects: ['destroy x'] }],
  ['nsenter -t 1 -r ls', { level: 'process_exec', opaque: 'under another root directory' }],
  ['nsenter -t 1 --root=/x ls', { level: 'process_exec', opaque: true }],
  ['chroot / ls', { level: 'read_only', opaque: false }],
  ['chroot ./root ls', { level: 'process_exec', opaque: 'chroot ./root finds and runs the command under another root directory' }],
  ['chroot --userspec=1000:1000 /srv/root ls', { level: 'process_exec', opaque: true }],
]);

programRows('tracers', [
  ['strace -f -e trace=open ls', { level: 'read_only', opaque: false }],
  ['strace -fo trace.txt ls', { level: 'workspace_write', effects: ['write trace.txt'] }],
  ['strace --output=trace.txt ls', { level: 'workspace_write', effects: ['write trace.txt'] }],
  ["strace -o '|rm -f x' true", { level: 'process_exec', opaque: 'writes its output into a command' }],
  ['strace -E LD_PRELOAD=./x.so ls', { level: 'process_exec', opaque: 'strace -E runs a program it names' }],
  ['strace --env=LD_PRELOAD=./x.so ls', { level: 'process_exec', opaque: true }],
  ['strace -qq -tt -yy ls', { level: 'read_only', opaque: false }],
  ['ltrace -o calls.txt ls', { level: 'workspace_write', effects: ['write calls.txt'] }],
  ['ltrace --output=calls.txt -f ls', { level: 'workspace_write', effects: ['write calls.txt'] }],
  ['valgrind --tool=memcheck ./a.out', { level: 'process_exec', opaque: 'also takes options from' }],
  ['valgrind --log-file=vg.%p.log true', { level: 'process_exec', effects: ['write vg.*.log'] }],
  ['valgrind --xml-file=vg.xml true', { level: 'process_exec', effects: ['write vg.xml'] }],
  ['valgrind --massif-out-file=m.out true', { level: 'process_exec', effects: ['write m.out'] }],
  ['valgrind --cachegrind-out-file=c.out true', { level: 'process_exec', effects: ['write c.out'] }],
  ['valgrind --callgrind-out-file=c.out true', { level: 'process_exec', effects: ['write c.out'] }],
  ['valgrind --dhat-out-file=d.out true', { level: 'process_exec', effects: ['write d.out'] }],
  ['valgrind --xtree-memory-file=x.out true', { level: 'process_exec', effects: ['write x.out'] }],
  ['valgrind --xtree-leak-file=x.out true', { level: 'process_exec', effects: ['write x.out'] }],
  ['valgrind --db-command=./x true', { level: 'process_exec', opaque: true }],
]);

programRows('locks, sessions and repeaters', [
  ['flock /tmp/l ls', { level: 'workspace_write', effects: ['write /tmp/l'] }],
  ['flock -n /srv/l ls', { level: 'workspace_write', effects: ['write /srv/l'] }],
  ["flock /tmp/l -c 'rm -f x'", { level: 'workspace_write', effects: ['write /tmp/l', 'destroy x'] }],
  ["flock -x /tmp/l --command 'ls'", { level: 'workspace_write', effects: ['write /tmp/l'] }],
  ['flock -nw 1 echo rm -f x', { level: 'workspace_write', effects: ['write echo', 'destroy x'] }],
  // -c is not one of flock's options before the file: it refuses the call
  ["flock -c 'ls' /tmp/l", { level: 'process_exec', opaque: 'flock -c' }],
  ["script -qc 'ls' /dev/null", { level: 'read_only', opaque: false }],
  ["script -q -c 'rm -f x' log.txt", { level: 'workspace_write', effects: ['write log.txt', 'destroy x'] }],
  ["script --command='ls' log.txt", { level: 'workspace_write', effects: ['write log.txt'] }],
  ['script log.txt', { level: 'process_exec', opaque: 'starts a shell', effects: ['write log.txt'] }],
  ["script -I in.log -c 'ls'", { level: 'workspace_write', effects: ['write in.log'] }],
  ["script --log-in=in.log -c 'ls'", { level: 'workspace_write', effects: ['write in.log'] }],
  ["script -O out.log -c 'ls'", { level: 'workspace_write', effects: ['write out.log'] }],
  ["script --log-out=out.log -c 'ls'", { level: 'workspace_write', effects: ['write out.log'] }],
  ["script -B io.log -c 'ls'", { level: 'workspace_write', effects: ['write io.log'] }],
  ["script --log-io=io.log -c 'ls'", { level: 'workspace_write', effects: ['write io.log'] }],
  ["script -T t.log -c 'ls'", { level: 'workspace_write', effects: ['write t.log'] }],
  ["script --log-timing=t.log -c 'ls'", { level: 'workspace_write', effects: ['write t.log'] }],
  ["script -tt.log -c 'ls'", { level: 'workspace_write', effects: ['write t.log'] }],
  ["script --timing=t.log -c 'ls'", { level: 'workspace_write', effects: ['write t.log'] }],
  ["script -q --comm='rm -f x' log.txt", { level: 'process_exec', opaque: 'script --comm' }],
  ['watch -n 1 ls', { level: 'read_only', opaque: false }],
  ["watch 'rm -f x; ls'", { level: 'workspace_write', effects: ['destroy x'] }],
  ['watch -d ls', { level: 'read_only', opaque: false }],
  // -x runs the command itself, not through sh -c: its words are not joined again
  ["watch -x sh -c 'rm -f x'", { level: 'workspace_write', effects: ['destroy x'] }],
  ["watch --exec sh -c 'ls'", { level: 'read_only', opaque: false }],
]);

// `bash -c` with no string exits 2 before reading a command or a start-up file; xargs hands it one
programRows('shells given no command string', [
  ['bash -c', { level: 'none', opaque: false }],
  ['bash -lc', { level: 'none', opaque: false }],
  ['sh -ic', { level: 'none', opaque: false }],
  ['bash -c; ls', { level: 'read_only', opaque: false }],
  ['echo "rm -rf x" | xargs bash -c', { level: 'process_exec', opaque: true }],
  ['find . -exec bash -c {} +', { unparsable: 'built at run time' }],
  ['zsh -c', { level: 'process_exec', opaque: true }],
  ['bash -c < script.sh', { level: 'read_only', opaque: false }],
]);

programRows('xargs', [
  ['xargs -0 grep -l foo', { level: 'read_only', opaque: false }],
  ['find . -print0 | xargs -0 wc -l', { level: 'read_only', opaque: false }],
  ['cat l | xargs -rn1 grep -l TODO', { level: 'read_only', opaque: false }],
  ['cat l | xargs -P4 -n 1 cat', { level: 'read_only', opaque: false }],
  // BSD's replacement options
  ['xargs -I {} -R 5 -S 255 head {}', { level: 'read_only', opaque: false }],
  ['xargs -J % cp % dest/', { level: 'workspace_write', effects: ['destroy dest/%', 'into dest/', 'write dest/'] }],
  // as high as the program it runs can reach
  ['ls | xargs aws s3 rm', { level: 'network', opaque: true }],
  ['ls | xargs kubectl delete pod', { level: 'network', opaque: true }],
  ['cat l | xargs', { level: 'read_only', opaque: false }],
  ['cat l | xargs rm', { level: 'process_exec', opaque: 'xargs runs rm with arguments it reads at run time' }],
  // git status takes no option that writes or runs: what xargs appends is read
  ['ls | xargs git status', { level: 'read_only', opaque: false }],
  ['ls | xargs git status --porcelain', { level: 'read_only', opaque: false }],
  ['ls | xargs git -c core.fsmonitor=./x status', { level: 'network', opaque: true }],
  ['ls | xargs git log', { level: 'process_exec', opaque: 'reads at run time' }],
  // what xargs appends to git is its subcommand, push among them
  ['ls | xargs git', { level: 'network', opaque: true }],
  ['echo delete pod x | xargs kubectl', { level: 'network', opaque: true }],
  ['ls | xargs kubectl get', { level: 'network', opaque: true }],
  // a wrapper given no command runs what the appended arguments name
  ["printf 'rm\\n-rf\\nx\\n' | xargs sudo", { level: 'process_exec', opaque: 'xargs runs sudo with arguments it reads at run time' }],
  ['echo ok | xargs sudo --', { level: 'process_exec', opaque: 'xargs runs sudo with arguments it reads at run time' }],
  ['cat l | xargs env', { level: 'process_exec', opaque: 'xargs runs env with arguments it reads at run time' }],
  ['cat l | xargs -n1 nohup', { level: 'process_exec', opaque: 'xargs runs nohup with arguments it reads at run time' }],
  ['cat l | xargs timeout 5', { level: 'process_exec', opaque: 'xargs runs timeout with arguments it reads at run time' }],
  ['cat l | xargs nice', { level: 'process_exec', opaque: 'xargs runs nice with arguments it reads at run time' }],
  // what xargs appends to sh -c CODE is $0, $1 …: CODE is read with them unknown
  ["cat l | xargs sh -c 'echo $0'", { level: 'read_only', opaque: false }],
  ['find src -type f | xargs -n1 sh -c \'wc -l "$1"\' _', { level: 'read_only', opaque: false }],
  ['cat l | xargs sh -c \'rm "$@"\' _', { unparsable: 'a path computed at run time' }],
  ['cat l | xargs sh -c \'eval "$1"\' _', { unparsable: 'at run time' }],
  ['cat l | xargs sh -c', { level: 'process_exec', opaque: true }],
  // …but -I puts what it reads into the code itself
  ["cat l | xargs -I{} sh -c 'echo {}'", { unparsable: 'a command string built at run time' }],
  ["cat l | xargs -IX sh -c 'echo hi' X", { level: 'read_only', opaque: false }],
  // -I: the token stands for a name read at run time
  ['xargs -I {} rm {}', { unparsable: 'a path computed at run time' }],
  // a cluster is read as its options written apart
  ['xargs -0I {} rm {}', { unparsable: 'a path computed at run time' }],
  ['xargs -I {} cat {}', { level: 'read_only', opaque: false }],
  ['xargs -i cat {}', { level: 'read_only', opaque: false }],
  ['xargs --replace=@ cat @', { level: 'read_only', opaque: false }],
  ['xargs -i@ rm @', { unparsable: 'a path computed at run time' }],
  ['xargs -a list.txt cat', { level: 'read_only', opaque: false }],
  ['cat l | xargs --frob cat', { level: 'process_exec', opaque: 'xargs --frob' }],
]);

// GNU parallel: each job of the argument lists the line gives (`:::`) is a command of its own; the
// arguments of files (`::::`, -a) or stdin are appended at run time, as xargs's.
programRows('parallel', [
  ['parallel gzip ::: *.log', { level: 'workspace_write', opaque: false }],
  ['parallel -j4 echo {} ::: a b c', { level: 'none', opaque: false }],
  ['ls | parallel wc -l', { level: 'read_only', opaque: false }],
  ["find . -name '*.txt' | parallel grep -l TODO", { level: 'read_only', opaque: false }],
  ['parallel rm ::: a b', { level: 'workspace_write', effects: ['destroy a', 'destroy b'] }],
  ['parallel -k -j 2 rm -f ::: a ::: b', { level: 'workspace_write', effects: ['destroy a', 'destroy b'] }],
  ['parallel sudo rm ::: x', { level: 'workspace_write', effects: ['destroy x'] }],
  ["parallel 'rm -f' ::: x", { level: 'workspace_write', effects: ['destroy x'] }],
  // a replacement string takes the argument where it stands
  ['parallel rm {}.bak ::: a b', { level: 'workspace_write', effects: ['destroy a.bak', 'destroy b.bak'] }],
  ['parallel rm {.}.o {/.} ::: src/a.c', { level: 'workspace_write', effects: ['destroy src/a.o', 'destroy a'] }],
  ['parallel rm {2} ::: a ::: b', { level: 'workspace_write', effects: ['destroy b'] }],
  ['parallel -I XX rm XX.tmp ::: a', { level: 'workspace_write', effects: ['destroy a.tmp'] }],
  ['parallel -i rm {} ::: a', { level: 'workspace_write', effects: ['destroy a'] }],
  ['parallel rm {#} ::: a', { unparsable: 'path computed at run time' }],
  // -q quotes each word of the command for the shell: they stand as written
  ["parallel -q rm 'a b' ::: c", { level: 'workspace_write', effects: ['destroy a b', 'destroy c'] }],
  // without -q the shell reads the command again: its expansions, operators and braces run
  ["parallel 'echo $HOME' ::: a", { level: 'process_exec', opaque: 'hands the command to a shell' }],
  ["parallel 'echo x > out' ::: a", { level: 'process_exec', opaque: true }],
  ['parallel echo {a,b} ::: x', { level: 'process_exec', opaque: true }],
  ["parallel echo '{= s/a/b/ =}' ::: a", { level: 'process_exec', opaque: true }],
  ['parallel rm "$f" ::: a', { level: 'process_exec', opaque: true }],
  // arguments read at run time: from stdin, a file, several to a job
  ['cat list | parallel rm', { level: 'process_exec', opaque: 'rm' }],
  ['parallel -a list.txt rm', { level: 'process_exec', opaque: true }],
  ['parallel rm :::: list.txt', { level: 'process_exec', opaque: true }],
  ['parallel -n 2 rm ::: a b c', { level: 'process_exec', opaque: true }],
  ['parallel -l1 rm ::: a b', { level: 'process_exec', opaque: true }],
  ['parallel -X rm ::: a b', { level: 'process_exec', opaque: true }],
  ['cat list | parallel -X wc -l', { level: 'read_only', opaque: false }],
  // --pipe hands blocks of stdin to the command: nothing is appended
  ['parallel --pipe wc -l < big', { level: 'read_only', opaque: false }],
  // without a command each job's arguments, joined with spaces, are the line its shell runs
  ["parallel ::: ls 'rm x'", { level: 'workspace_write', opaque: false, effects: ['destroy x'] }],
  ["parallel ::: 'echo ok' 'true'", { level: 'none', opaque: false }],
  ["parallel ::: echo ::: 'hi; touch y'", { level: 'workspace_write', opaque: false, effects: ['write y'] }],
  ["parallel ::: 'echo x > .claude/settings.json'", { level: 'workspace_write', effects: ['write .claude/settings.json'] }],
  ['parallel ::: *.sh', { unparsable: 'run time' }],
  ['parallel ::: "$CMD"', { unparsable: 'run time' }],
  ['ls | parallel', { level: 'process_exec', opaque: 'runs commands its input gives it' }],
  ['parallel :::: jobs.txt', { level: 'process_exec', opaque: 'runs commands its input gives it' }],
  ['parallel --pipe ::: a', { level: 'process_exec', opaque: 'runs commands its input gives it' }],
  // it only prints
  ['parallel --dry-run rm ::: a b', { level: 'read_only', opaque: false, effects: [] }],
  ['parallel --shellquote ::: a', { level: 'read_only', opaque: false }],
  ['parallel --number-of-cpus', { level: 'read_only', opaque: false }],
  ['parallel --help', { level: 'read_only', opaque: false }],
  ['parallel -V', { level: 'read_only', opaque: false }],
  // what it writes, runs or reaches itself
  ['parallel --joblog jobs.log echo ::: a', { level: 'workspace_write', effects: ['write jobs.log'] }],
  ['parallel --joblog +jobs.log echo ::: a', { level: 'workspace_write', effects: ['write jobs.log'] }],
  ['parallel --results out echo ::: a', { level: 'process_exec', opaque: true }],
  ['parallel --ssh ./x echo ::: a', { level: 'process_exec', opaque: true }],
  ['parallel --tmux echo ::: a', { level: 'process_exec', opaque: true }],
  ['parallel -J myprofile echo ::: a', { level: 'process_exec', opaque: true }],
  ['parallel -S server1 echo ::: a', { level: 'network', opaque: true }],
  ['parallel --nonall -S server1 uptime', { level: 'network', opaque: true }],
  ['parallel --dry echo ::: a', { level: 'process_exec', opaque: 'an option the gate does not read' }],
  ['PARALLEL=-S,server1 parallel echo ::: a', { level: 'process_exec', opaque: true }],
  // moreutils' parallel: `-- CMDS` or `CMD -- ARGS`
  ['parallel -j2 -- ls df', { level: 'process_exec', opaque: "moreutils' parallel" }],
  ['parallel rm -- ::: a', { level: 'process_exec', opaque: true }],
  ['parallel -j2 wc -l -- a b', { level: 'read_only', opaque: false }],
  ['parallel -j2 rm -- a b', { level: 'process_exec', opaque: true }],
]);

programRows('npx, bunx, pnpx', [
  ['npx prettier --write .', { level: 'process_exec', opaque: "runs the project's own programs" }],
  ['bunx cat x', { level: 'process_exec', opaque: true }],
  ['pnpx eslint .', { level: 'process_exec', opaque: true }],
]);

describe('a wrapper is read with the options it is written with', () => {
  it.each([
    ['sudo -np echo rm -f x', 'sudo -n -p echo rm -f x'],
    ['env -vu echo rm -f x', 'env -v -u echo rm -f x'],
    ['/usr/bin/time -pf echo rm -f x', '/usr/bin/time -p -f echo rm -f x'],
    ['flock -nw 1 echo rm -f x', 'flock -n -w 1 echo rm -f x'],
    ['unshare -rw/tmp rm -f x', 'unshare -r -w /tmp rm -f x'],
    ['ls | xargs -0I {} cat {}', 'ls | xargs -0 -I {} cat {}'],
    ['cat l | xargs -rn1 grep -l TODO', 'cat l | xargs -r -n 1 grep -l TODO'],
  ])('%j reads as %j', (cluster, apart) => {
    const a = readLine(cluster);
    const b = readLine(apart);
    expect(a.invocations.map((i) => [i.program, i.args, i.level])).toEqual(b.invocations.map((i) => [i.program, i.args, i.level]));
    expect(a.effects).toEqual(b.effects);
    expect(a.opaque).toEqual(b.opaque);
  });
});

// GNU parallel given no command runs each job as a shell line: the starts read are the ones it makes
describe('parallel without a command, for real', () => {
  it.each(["parallel -j1 ::: 'aeat one' 'aeat two; aeat three'", "parallel -j1 ::: aeat ::: 'x; aeat y'"])('%s', (line) => {
    expectStartsAsRun(line, readLine(line));
  });
});
