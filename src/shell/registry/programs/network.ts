import { options, same, type Family } from '../define';

/** Programs that reach the network: level `network`. */

const net = (summary: string) => () => ({ summary, level: 'network' as const, kind: 'network' as const });

export const NETWORK: Family = {
  ...same(['ftp', 'telnet', 'dig', 'nslookup', 'host', 'ping', 'traceroute', 'aria2c'], net('reaches the network')),
  curl: () => ({
    summary: 'transfers URLs; -o, -O and friends write files',
    level: 'network',
    kind: 'network',
    reader: 'curl',
    options: options(
      ['-o= --output=', { role: 'writes' }], ['-D= --dump-header=', { role: 'writes' }], ['-c= --cookie-jar=', { role: 'writes' }], ['--trace=', { role: 'writes' }], ['--trace-ascii=', { role: 'writes' }],
      ['--stderr=', { role: 'writes' }], ['--libcurl=', { role: 'writes' }], ['--etag-save=', { role: 'writes' }], ['--hsts=', { role: 'writes' }], ['--alt-svc=', { role: 'writes' }],
      ['-O --remote-name', { mode: 'remote-name' }], ['--remote-name-all', { mode: 'remote-name' }], ['-J --remote-header-name', { mode: 'remote-name' }], '--output-dir=',
      '-H= --header=', '-d= --data=', '--data-raw=', '--data-binary=', '--data-urlencode=', '--data-ascii=', '-X= --request=', '-u= --user=', '-A= --user-agent=', '-e= --referer=',
      '-b= --cookie=', '-x= --proxy=', '-m= --max-time=', '--connect-timeout=', '-w= --write-out=', '-F= --form=', '--form-string=', '-T= --upload-file=',
      ['-K= --config=', { role: 'runs', opaque: 'reads_options_from_file' }], '-r= --range=', '-Y= --speed-limit=', '-y= --speed-time=', '-z= --time-cond=', '--retry=', '--retry-delay=', '--retry-max-time=',
      '--cacert=', '--capath=', '-E= --cert=', '--key=', '--cert-type=', '--key-type=', '--resolve=', '--connect-to=', '--interface=', '-U= --proxy-user=', '--noproxy=', '--limit-rate=',
      '--max-filesize=', '--max-redirs=', '-Q= --quote=', '--url=', '--unix-socket=', '--abstract-unix-socket=', '--oauth2-bearer=', '--ciphers=', '--netrc-file=', ['-V --version', { help: true }], ['-h --help', { help: true }],
    ),
  }),
  wget: () => ({
    summary: 'downloads URLs into files',
    level: 'network',
    kind: 'network',
    reader: 'wget',
    options: options(
      ['-O= --output-document=', { role: 'writes' }], ['-o= --output-file=', { role: 'writes' }], ['-a= --append-output=', { role: 'writes' }], '-P= --directory-prefix=',
      ['-r --recursive', { mode: 'tree' }], ['-m --mirror', { mode: 'tree' }], ['-p --page-requisites', { mode: 'tree' }],
      ['-e= --execute=', { role: 'runs', opaque: 'reads_options_from_file' }], ['--config=', { role: 'runs', opaque: 'reads_options_from_file' }], ['--use-askpass[=]', { role: 'runs', opaque: 'runs_named_program' }],
      '-t= --tries=', '-T= --timeout=', '-w= --wait=', '-U= --user-agent=', '--header=', '--user=', '--password=', '-i= --input-file=', '-B= --base=', '-l= --level=', '-A= --accept=', '-R= --reject=',
      '-D= --domains=', '--exclude-domains=', '-I= --include-directories=', '-X= --exclude-directories=', '--limit-rate=', '-Q= --quota=', '--post-data=', '--post-file=', '--method=', '--body-data=',
      '--ca-certificate=', '--certificate=', '--private-key=', ['-V --version', { help: true }], ['-h --help', { help: true }],
    ),
  }),
  scp: () => ({ summary: 'copies files over ssh', level: 'network', kind: 'network', reader: 'remote-copy', options: options(['-o=', { role: 'runs', opaque: 'ssh_options_run_programs' }], ['-S=', { role: 'runs', opaque: 'ssh_options_run_programs' }], ['-F=', { role: 'runs', opaque: 'ssh_options_run_programs' }], '-P=', '-i=', '-J=', '-l=', '-c=', '-D=', '-X=') }),
  sftp: () => ({ summary: 'transfers files over ssh', level: 'network', kind: 'network', options: options(['-o=', { role: 'runs', opaque: 'ssh_options_run_programs' }], ['-S=', { role: 'runs', opaque: 'ssh_options_run_programs' }], ['-F=', { role: 'runs', opaque: 'ssh_options_run_programs' }], ['-D=', { role: 'runs', opaque: 'ssh_options_run_programs' }], '-P=', '-i=', '-J=', '-l=', '-c=', '-b=', '-B=', '-R=', '-s=', '-X=') }),
  rsync: () => ({
    summary: 'copies files, locally or over the network',
    level: 'network',
    kind: 'network',
    reader: 'remote-copy',
    options: options(
      ['-e= --rsh=', { role: 'runs', opaque: 'remote_shell_given' }], ['--rsync-path=', { role: 'runs', opaque: 'remote_shell_given' }], ['--log-file=', { role: 'writes' }], ['--remove-source-files', { mode: 'remove-sources' }],
      '--exclude=', '--include=', '-f= --filter=', '--files-from=', '--exclude-from=', '--include-from=', '--backup-dir=', '-T= --temp-dir=', '--partial-dir=', '--port=', '--chmod=', '--chown=',
      '--log-file-format=', '--password-file=', '--compare-dest=', '--copy-dest=', '--link-dest=', '-B= --block-size=', '--max-size=', '--min-size=', '--timeout=', '--contimeout=', '--bwlimit=',
      '--suffix=', '--out-format=', '-M= --remote-option=', '--usermap=', '--groupmap=', '--iconv=', '--info=', '--debug=', '--max-delete=', '--modify-window=', '--sockopts=', '--address=', '--outbuf=',
    ),
  }),
  ssh: () => ({ summary: 'runs a command on another host', level: 'network', kind: 'network', opaque: 'runs_on_another_host' }),
  ...same(['nc', 'ncat', 'netcat'], () => ({ summary: 'netcat', level: 'network', kind: 'network', opaque: 'netcat_runs_programs' })),
  socat: () => ({ summary: 'relays data between two addresses', level: 'network', kind: 'network', opaque: 'socat_runs_programs' }),
  http: () => ({ summary: 'HTTPie', level: 'network', kind: 'network', options: options(['-o= --output=', { role: 'writes' }]) }),
  https: () => ({ summary: 'HTTPie', level: 'network', kind: 'network', options: options(['-o= --output=', { role: 'writes' }]) }),
};

export const POWERSHELL_NETWORK: Family = same(['invoke-webrequest', 'iwr', 'invoke-restmethod', 'irm', 'curl', 'wget'], () => ({ summary: 'a web request', level: 'network', kind: 'network', options: options(['-OutFile= -outfile=', { role: 'writes' }]) }));
