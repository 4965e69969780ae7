import { options, type Family } from '../define';
import type { CommandSpec, SubcommandEntry } from '../types';

/**
 * macOS's own programs for inspecting a Mac: what lists, gets, prints or verifies reads; what
 * changes the machine beyond the project (network settings, services, disks, the keychain, the
 * preferences, power settings, kernel variables) is `process_exec`, as other system changes are
 * (`dmesg -c`, `journalctl --rotate`); what writes a file names it. Most of these programs are
 * `strict`: their options are their commands, so an option the spec does not list is opaque.
 */

const READ = (): CommandSpec => ({ level: 'read_only', kind: 'reader' });
/** Changes the machine beyond the project. */
const CHANGES = (): CommandSpec => ({ level: 'process_exec', kind: 'exec', summary: 'changes the system' });

function table(
  names: readonly string[],
  entry: SubcommandEntry,
  more: Record<string, SubcommandEntry> = {},
): Record<string, SubcommandEntry> {
  const out: Record<string, SubcommandEntry> = Object.create(null);
  for (const n of names) out[n] = entry;
  return Object.assign(out, more);
}

const CHANGE = { level: 'process_exec' } as const;
const OPAQUE_SUB = { level: 'process_exec', opaque: 'unknown_subcommand' } as const;

export const MACOS: Family = {
  networksetup: () => ({
    summary: 'reads or changes the network settings',
    level: 'read_only',
    kind: 'reader',
    strict: true,
    options: options(
      ['-help -printcommands', { help: true }],
      '-version',
      '-listnetworkserviceorder -listallnetworkservices -listallhardwareports -listlocations -getcurrentlocation',
      '-getmacaddress -getcomputername -getinfo -getadditionalroutes -getv6additionalroutes -getdnsservers -getsearchdomains',
      '-getwebproxy -getsecurewebproxy -getftpproxy -getsocksfirewallproxy -getstreamingproxy -getgopherproxy',
      '-getproxyautodiscovery -getautoproxyurl -getproxybypassdomains -getpassiveftp',
      '-getairportnetwork -getairportpower -listpreferredwirelessnetworks -getnetworkserviceenabled',
      '-getMTU -listvalidMTUrange -getmedia -listvalidmedia -listVLANs -listdevicesthatsupportVLAN',
      '-isBondSupported -listBonds -showBondStatus -listpppoeservices -showpppoestatus -getv6additionaladdresses',
      // every -set…, -create…, -remove… changes the machine's network configuration
      [
        '-detectnewhardware -setmanual -setdhcp -setbootp -setmanualwithdhcprouter -setadditionalroutes -setv4off -setv6off -setv6automatic -setv6linklocal -setv6manual',
        CHANGE,
      ],
      ['-setdnsservers -setsearchdomains -setcomputername -setnetworkserviceenabled -ordernetworkservices', CHANGE],
      ['-createnetworkservice -renamenetworkservice -duplicatenetworkservice -removenetworkservice', CHANGE],
      ['-setwebproxy -setwebproxystate -setsecurewebproxy -setsecurewebproxystate -setftpproxy -setftpproxystate', CHANGE],
      [
        '-setsocksfirewallproxy -setsocksfirewallproxystate -setstreamingproxy -setstreamingproxystate -setgopherproxy -setgopherproxystate',
        CHANGE,
      ],
      ['-setproxyautodiscovery -setautoproxyurl -setautoproxystate -setproxybypassdomains -setpassiveftp', CHANGE],
      [
        '-setairportnetwork -setairportpower -addpreferredwirelessnetworkatindex -removepreferredwirelessnetwork -removeallpreferredwirelessnetworks',
        CHANGE,
      ],
      [
        '-setMTU -setMTUAndMediaAutomatically -setmedia -createVLAN -deleteVLAN -createBond -deleteBond -addDeviceToBond -removeDeviceFromBond',
        CHANGE,
      ],
      [
        '-createpppoeservice -deletepppoeservice -setpppoeaccountname -setpppoepassword -connectpppoeservice -disconnectpppoeservice',
        CHANGE,
      ],
      ['-createlocation -deletelocation -switchtolocation -set6to4automatic -set6to4manual', CHANGE],
    ),
  }),

  security: () => {
    return {
      summary: 'reads or changes keychains, certificates and trust settings',
      level: 'read_only',
      kind: 'reader',
      // without a subcommand (or with -i) it reads commands at a terminal
      opaque: 'takes_commands_at_terminal',
      persistent: false,
      options: options(['-h', { help: true }], ['-i', { opaque: 'takes_commands_at_terminal' }], '-l -q -v', '-p='),
      subcommands: {
        help: READ,
        error: READ,
        'show-keychain-info': READ,
        'get-identity-preference': () => ({ ...READ(), strict: true, options: options('-c -p -Z', '-s=') }),
        'list-smartcards': READ,
        'requirement-evaluate': READ,
        'translocate-policy-check': READ,
        'translocate-status-check': READ,
        'translocate-original-path': READ,
        // runs leaks(1) on the security process itself, which prints
        leaks: READ,
        'find-certificate': () => ({ ...READ(), strict: true, options: options('-a -m -p -Z -Y', '-c= -e=') }),
        'find-identity': () => ({ ...READ(), strict: true, options: options('-v', '-p= -s=') }),
        'find-generic-password': () => ({
          ...READ(),
          strict: true,
          options: options('-g -w', '-a= -c= -C= -D= -G= -j= -l= -s='),
        }),
        'find-internet-password': () => ({
          ...READ(),
          strict: true,
          options: options('-g -w', '-a= -c= -C= -d= -D= -j= -l= -p= -P= -r= -s= -t='),
        }),
        'find-key': () => ({ ...READ(), strict: true, options: options('-a= -c= -d= -e= -j= -k= -l= -t= -s= -u=') }),
        'dump-keychain': () => ({ ...READ(), strict: true, options: options('-a -d -i -r') }),
        'dump-trust-settings': () => ({ ...READ(), strict: true, options: options('-s -d') }),
        // with -s each sets the search list, the default or the login keychain
        'list-keychains': () => ({ ...READ(), strict: true, options: options('-d=', ['-s', CHANGE]) }),
        'default-keychain': () => ({ ...READ(), strict: true, options: options('-d=', ['-s', CHANGE]) }),
        'login-keychain': () => ({ ...READ(), strict: true, options: options('-d=', ['-s', CHANGE]) }),
        // a certificate's evaluation may fetch issuers and revocation lists
        'verify-cert': () => ({ level: 'network', kind: 'network', options: options('-L -l -q -N', '-c= -r= -p= -k= -n= -s= -d= -R=') }),
        authorizationdb: () => ({
          level: 'read_only',
          kind: 'reader',
          subcommands: { read: READ, write: CHANGES, remove: CHANGES, merge: CHANGES, smartcard: CHANGES },
          unknownSubcommand: OPAQUE_SUB,
        }),
        cms: () => ({
          summary: 'decodes (-D) or signs and encrypts a message',
          level: 'read_only',
          kind: 'reader',
          strict: true,
          options: options(
            '-D -n -t -G -N',
            ['-i=', { role: 'reads' }],
            ['-o=', { role: 'writes' }],
            '-Y',
            '-h= -c= -u= -e= -k=',
            ['-S -E -C', CHANGE],
            ['-r= -Z= -H=', CHANGE],
          ),
        }),
        smartcards: () => ({
          level: 'read_only',
          kind: 'reader',
          subcommands: { token: () => ({ ...READ(), strict: true, options: options('-l', ['-s', CHANGE], ['-e= -d=', CHANGE]) }) },
          unknownSubcommand: OPAQUE_SUB,
        }),
        ...table(
          [
            'add-certificates',
            'add-generic-password',
            'add-internet-password',
            'add-trusted-cert',
            'remove-trusted-cert',
            'create-keychain',
            'delete-keychain',
            'delete-certificate',
            'delete-identity',
            'delete-generic-password',
            'delete-internet-password',
            'lock-keychain',
            'unlock-keychain',
            'set-keychain-settings',
            'set-keychain-password',
            'set-generic-password-partition-list',
            'set-internet-password-partition-list',
            'set-key-partition-list',
            'set-identity-preference',
            'import',
            'create-filevaultmaster-keychain',
            'trust-settings-import',
            'install-mds',
            'translocate-create',
          ],
          CHANGES,
        ),
        // export writes the file -o names; without it, standard output
        export: () => ({ ...READ(), strict: true, options: options('-w -p -q', '-k= -t= -f= -P=', ['-o=', { role: 'writes' }]) }),
        'trust-settings-export': () => ({ ...READ(), strict: true, options: options('-s -d'), operands: 'writes' }),
        'execute-with-privileges': () => ({ level: 'process_exec', kind: 'exec', opaque: 'runs_named_program' }),
      },
      unknownSubcommand: OPAQUE_SUB,
    };
  },

  launchctl: () => ({
    summary: 'reads or changes launchd services',
    level: 'read_only',
    kind: 'reader',
    // without a subcommand, launchctl of older systems reads subcommands from its input
    opaque: 'runs_commands_from_input',
    subcommands: {
      ...table(
        [
          'list',
          'print',
          'print-cache',
          'print-disabled',
          'print-token',
          'blame',
          'procinfo',
          'hostinfo',
          'resolveport',
          'dumpstate',
          'dumpjpcategory',
          'managerpid',
          'manageruid',
          'managername',
          'error',
          'variant',
          'version',
          'help',
          'getenv',
          'plist',
        ],
        READ,
      ),
      ...table(
        [
          'load',
          'unload',
          'bootstrap',
          'bootout',
          'enable',
          'disable',
          'kickstart',
          'kill',
          'start',
          'stop',
          'remove',
          'setenv',
          'unsetenv',
          'config',
          'reboot',
          'attach',
          'debug',
          'uncache',
          // with values it sets a resource limit; not read apart from its reads
          'limit',
          'umask',
          'bootshell',
        ],
        CHANGES,
      ),
      // these run a command they are given
      asuser: () => ({ level: 'process_exec', kind: 'exec', opaque: 'runs_named_program' }),
      bsexec: () => ({ level: 'process_exec', kind: 'exec', opaque: 'runs_named_program' }),
      submit: () => ({ level: 'process_exec', kind: 'exec', opaque: 'runs_named_program' }),
      examine: () => ({ level: 'process_exec', kind: 'exec', opaque: 'runs_named_program' }),
    },
    unknownSubcommand: OPAQUE_SUB,
  }),

  tmutil: () => ({
    summary: 'reads or changes Time Machine backups',
    level: 'read_only',
    kind: 'reader',
    options: options('-X -a -d -e -q -t'),
    subcommands: {
      ...table(
        [
          'version',
          'help',
          'destinationinfo',
          'isexcluded',
          'latestbackup',
          'listbackups',
          'listlocalsnapshots',
          'listlocalsnapshotdates',
          'machinedirectory',
          'compare',
          'calculatedrift',
          'uniquesize',
          'verifychecksums',
          'status',
          'currentphase',
        ],
        READ,
      ),
      ...table(
        [
          'enable',
          'disable',
          'startbackup',
          'stopbackup',
          'enablelocal',
          'disablelocal',
          'snapshot',
          'localsnapshot',
          'deletelocalsnapshots',
          'thinlocalsnapshots',
          'delete',
          'restore',
          'setdestination',
          'removedestination',
          'addexclusion',
          'removeexclusion',
          'setquota',
          'associatedisk',
          'inheritbackup',
          'deleteinprogress',
          'verifybackups',
          'duplicate',
        ],
        CHANGES,
      ),
    },
    unknownSubcommand: OPAQUE_SUB,
  }),

  pkgutil: () => ({
    summary: 'reads the installer receipts; forgets them, expands or flattens packages',
    level: 'read_only',
    kind: 'reader',
    strict: true,
    reader: 'pkgutil',
    options: options(
      ['-h', { help: true }],
      '--pkgs-plist --files --export-plist --pkg-info --pkg-info-plist --pkg-groups --groups --groups-plist --group-pkgs',
      '--pkgs[=] --packages[=]',
      '--file-info --file-info-plist --payload-files --check-signature',
      // extracts the package's bills of materials into /tmp
      ['--bom', { mode: 'bom' }],
      '--regexp --only-files --only-dirs -v --verbose -f --force',
      '--volume= --edition=',
      ['--forget --learn --unlink', CHANGE],
      ['--expand --expand-full', { mode: 'expands' }],
      ['--flatten', { mode: 'flattens' }],
    ),
  }),

  profiles: () => ({
    summary: 'reads or changes configuration profiles',
    level: 'read_only',
    kind: 'reader',
    reader: 'profiles',
    options: options(
      '-all -forced -verbose -quiet',
      '-type= -user= -path= -identifier= -uuid=',
      ['-o= -output=', { mode: 'output' }],
      '-L -P -C -v',
    ),
    subcommands: {
      list: () => ({ ...READ(), reader: 'profiles', strict: true }),
      show: () => ({ ...READ(), reader: 'profiles', strict: true }),
      status: () => ({ ...READ(), reader: 'profiles', strict: true }),
      validate: () => ({ ...READ(), reader: 'profiles', strict: true }),
      version: READ,
      help: READ,
      install: CHANGES,
      remove: CHANGES,
      renew: CHANGES,
      sync: CHANGES,
    },
    unknownSubcommand: OPAQUE_SUB,
    strict: true,
  }),

  diskutil: () => ({
    summary: 'reads or changes disks, volumes and APFS containers',
    level: 'read_only',
    kind: 'reader',
    subcommands: {
      ...table(['list', 'info', 'information', 'activity', 'listFilesystems', 'verifyVolume', 'verifyDisk', 'help'], READ),
      apfs: () => ({
        level: 'read_only',
        kind: 'reader',
        subcommands: table(['list', 'listSnapshots', 'listCryptoUsers', 'listVolumeGroups', 'listUsers'], READ),
        // creating, deleting, resizing, encrypting, unlocking: each changes the disk
        unknownSubcommand: CHANGE,
      }),
      appleRAID: () => ({ level: 'read_only', kind: 'reader', subcommands: { list: READ }, unknownSubcommand: CHANGE }),
      ar: 'appleRAID',
      coreStorage: () => ({ level: 'read_only', kind: 'reader', subcommands: { list: READ, info: READ }, unknownSubcommand: CHANGE }),
      cs: 'coreStorage',
      image: () => ({ level: 'read_only', kind: 'reader', subcommands: { info: READ }, unknownSubcommand: CHANGE }),
    },
    // mount, unmount, eject, erase, partition, repair, rename, resize: each changes a disk
    unknownSubcommand: CHANGE,
  }),

  hdiutil: () => ({
    summary: 'reads, makes, converts or mounts disk images',
    level: 'read_only',
    kind: 'reader',
    subcommands: {
      ...table(['help', 'info', 'imageinfo', 'isencrypted', 'plugins', 'pmap', 'verify', 'checksum'], () => ({
        ...READ(),
        // -shadow writes a shadow file beside the image: not listed, so opaque
        strict: true,
        options: options(
          '-plist -verbose -quiet -debug -puppetstrings',
          '-stdinpass',
          '-srcimagekey= -type= -format= -passphrase= -certificate=',
        ),
      })),
      // writes the image its operand names
      create: () => ({
        level: 'workspace_write',
        kind: 'writer',
        strict: true,
        operands: 'writes',
        options: options(
          '-stdinpass -agentpass',
          '-size= -sectors= -megabytes= -fs= -fsargs= -volname= -uid= -gid= -mode= -type= -layout= -format=',
          '-encryption[=]',
          '-ov -nospotlight -spotlight -anyowners -skipunreadable',
          '-certificate= -pubkey= -imagekey= -srcfolder= -srcdir= -srcdevice= -align= -copyuid=',
          '-plist -puppetstrings -verbose -quiet -debug -nocrossdev -scrub -noscrub',
          ['-attach', CHANGE],
        ),
      }),
      convert: () => ({
        level: 'read_only',
        kind: 'reader',
        strict: true,
        options: options(
          '-pmap -stdinpass -ov',
          '-format= -align= -segmentSize= -tasks= -certificate= -pubkey= -imagekey= -srcimagekey=',
          '-encryption[=]',
          '-plist -puppetstrings -verbose -quiet -debug',
          ['-o=', { role: 'writes' }],
        ),
      }),
      // attach, mount, detach, eject, compact, resize, burn, erase, makehybrid -o …: not read apart
    },
    unknownSubcommand: CHANGE,
  }),

  codesign: () => ({
    summary: 'displays, verifies or signs code signatures',
    level: 'read_only',
    kind: 'reader',
    strict: true,
    reader: 'codesign',
    options: options(
      '--validate-constraint -d --display -v --verify --deep --all-architectures',
      // asks Apple's notary service
      ['--check-notarization', { level: 'network' }],
      '-R= --test-requirement=',
      '--strict[=]',
      ['-r= --requirements=', { mode: 'requirements' }],
      ['-D= --detached=', { mode: 'detached' }],
      '--xml --der --ignore-resources --no-strict -h --hosting -q --quiet',
      '--arch= -a= --architecture=',
      '--verbose[=]',
      ['--entitlements=', { mode: 'entitlements' }],
      ['--extract-certificates[=]', { mode: 'certificates' }],
      ['-s= --sign=', { mode: 'signs' }],
      ['--remove-signature', { mode: 'signs' }],
      '-f --force --generate-entitlement-der',
      '-i= --identifier= -o= --options= --keychain= --prefix= --runtime-version= --launch-constraint-self= --launch-constraint-parent= --launch-constraint-responsible= --library-constraint=',
      '--timestamp[=] --preserve-metadata[=]',
    ),
  }),

  spctl: () => ({
    summary: "reads or changes Gatekeeper's assessment policy",
    level: 'read_only',
    kind: 'reader',
    strict: true,
    options: options(
      '-a --assess --status --ignore-cache --no-cache --raw -v --list --continue',
      '-t= --type= --context= --label= --rule= --path= -R= --requirement= --anchor= --hash= --priority=',
      '--verbose[=]',
      ['--add --remove --enable --disable --master-enable --master-disable --global-enable --global-disable --reset-default', CHANGE],
    ),
  }),

  defaults: () => ({
    summary: "reads or changes the user's and the system's preferences",
    level: 'read_only',
    kind: 'reader',
    persistent: false,
    options: options('-currentHost', '-host='),
    subcommands: {
      ...table(['read', 'read-type', 'domains', 'find', 'help'], () => ({ ...READ(), options: options('-g', '-app=') })),
      // writes the file its second operand names, unless it is -
      export: () => ({ ...READ(), reader: 'defaults-export', options: options('-g', '-app=') }),
      write: CHANGES,
      delete: CHANGES,
      import: CHANGES,
      rename: CHANGES,
    },
    unknownSubcommand: OPAQUE_SUB,
  }),

  scutil: () => ({
    summary: 'reads or changes the system configuration',
    level: 'read_only',
    kind: 'reader',
    strict: true,
    // without an option it takes commands (which can set values) at a terminal or from its input
    reader: 'commands-by-option',
    options: options(['--get --dns --proxy --nwi -r -w --version --help', { mode: 'reads' }], '-W', '-t=', [
      '--set --renew --prefs --allow-new-interfaces --disable-until-needed --log --lb',
      CHANGE,
    ]),
  }),

  dscl: () => ({
    summary: 'reads or changes directory service records (users, groups)',
    level: 'read_only',
    kind: 'reader',
    strict: true,
    // without a command it takes commands at a terminal
    reader: 'commands-by-option',
    options: options(
      '-p -q -raw -plist -url',
      '-u= -P= -f=',
      ['-read -readall -readpl -readpli -list -search -diff -cd -ls -cat', { mode: 'reads' }],
      ['-create -createpl -createpli -append -appendpl -appendpli -merge -mergepl -mergepli', CHANGE],
      ['-delete -deletepl -deletepli -change -changei -passwd -authonly -auth', CHANGE],
    ),
  }),

  dscacheutil: () => ({
    summary: 'reads the directory service cache',
    level: 'read_only',
    kind: 'reader',
    strict: true,
    options: options('-h -configuration -statistics -cachedump -buckets', '-q= -a=', '-entries[=]', ['-flushcache', CHANGE]),
  }),

  sysctl: () => ({
    summary: 'reads or sets kernel variables',
    level: 'read_only',
    kind: 'reader',
    strict: true,
    reader: 'sysctl',
    options: options('-a -A -b -d -e -h -n -N -o -q -x -X', ['-w', CHANGE], ['-f=', { role: 'reads', level: 'process_exec' }]),
  }),

  plutil: () => ({
    summary: 'checks, prints or edits property lists',
    level: 'read_only',
    kind: 'reader',
    strict: true,
    reader: 'plutil',
    options: options(
      ['-help', { help: true }],
      '-p -lint -s -r -type -n',
      // each rewrites its operands, unless -o names the output
      ['-convert -insert -replace -remove -extract -create', { mode: 'edits' }],
      '-bool -integer -float -string -date -data -xml -json -array -dictionary -append',
      ['-o=', { mode: 'output' }],
      ['-e=', { mode: 'extension' }],
    ),
  }),

  xattr: () => ({
    summary: "reads or changes files' extended attributes",
    level: 'read_only',
    kind: 'reader',
    strict: true,
    reader: 'xattr',
    options: options('-l -p -r -s -v -x -h', ['-w', { mode: 'write' }], ['-d', { mode: 'delete' }], ['-c', { mode: 'clear' }]),
  }),

  sips: () => ({
    summary: 'reads or edits images',
    level: 'read_only',
    kind: 'reader',
    strict: true,
    reader: 'sips',
    options: options(
      ['-h --help -H --helpProperties', { help: true }],
      '-1 --oneLine --debug --verify',
      '-g= --getProperty=',
      ['-o= --out=', { role: 'writes' }],
      ['-x= --extractProfile=', { role: 'writes' }],
      [
        '-s= --setProperty= -d= --deleteProperty= -r= --rotate= -f= --flip= -c= --cropToHeightWidth= --cropOffset= -p= --padToHeightWidth= --padColor=',
        { mode: 'edits' },
      ],
      ['-i --addIcon', { mode: 'edits' }],
      [
        '-z= --resampleHeightWidth= --resampleWidth= --resampleHeight= -Z= --resampleHeightWidthMax= -e= --embedProfile=',
        { mode: 'edits' },
      ],
      ['--deleteColorManagementProperties --optimizeColorForSharing', { mode: 'edits' }],
      ['-E= --embedProfileIfNone= -m= --matchTo= -M= --matchToWithIntent=', { mode: 'edits' }],
    ),
  }),

  mdls: () => ({
    summary: "prints a file's Spotlight metadata",
    level: 'read_only',
    kind: 'reader',
    strict: true,
    options: options('-raw -r', '-name= -n= -nullMarker=', ['-plist=', { role: 'writes' }]),
  }),
  mdfind: () => ({
    summary: 'searches the Spotlight index',
    level: 'read_only',
    kind: 'reader',
    strict: true,
    options: options('-count -0 -live -literal -interpret -reprocess', '-onlyin= -name= -s= -attr='),
  }),
  // importing files asks the Spotlight server to index them
  mdimport: () => ({
    summary: 'lists importers, or imports files into the Spotlight index',
    level: 'process_exec',
    kind: 'exec',
    strict: true,
    reader: 'reads-by-option',
    options: options(['-L -A -X -t', { mode: 'reads' }], '-n -p -y', '-d= -g= -o=', ['-r -i', CHANGE]),
  }),
  mdutil: () => ({
    summary: "reads or changes Spotlight's indexing",
    level: 'process_exec',
    kind: 'exec',
    strict: true,
    reader: 'reads-by-option',
    options: options(['-s', { mode: 'reads' }], '-a -v -d', '-V=', ['-E -p -X -L -P', CHANGE], ['-i=', CHANGE]),
  }),

  qlmanage: () => ({
    summary: 'previews files, prints Quick Look statistics, or writes thumbnails',
    level: 'read_only',
    kind: 'reader',
    strict: true,
    options: options(['-h', { help: true }], '-p -m -x -i -z -t', '-c= -g= -s= -f=', ['-o=', { role: 'into' }], ['-r', CHANGE]),
  }),

  lipo: () => ({
    summary: "reads or changes universal binaries' architectures",
    level: 'read_only',
    kind: 'reader',
    strict: true,
    options: options(
      '-info -detailed_info -archs -verify_arch -arch -arch_blank -hideARM64',
      ['-output= -o=', { role: 'writes' }],
      '-create',
      '-thin= -extract= -extract_family= -remove= -replace= -segalign=',
    ),
  }),

  otool: () => ({ summary: 'prints parts of object files', level: 'read_only', kind: 'reader', options: options('-p= -arch=') }),
  nm: () => ({
    summary: 'prints the symbols of object files',
    level: 'read_only',
    kind: 'reader',
    options: options('-s= -arch= -t= --format= -f='),
  }),
  symbols: () => ({
    summary: 'prints the symbols of a binary or a process',
    level: 'read_only',
    kind: 'reader',
    strict: true,
    options: options(
      '-w -uuid -noHeaders -printSignature -noSources -noDemangling -onlyNListSymbols -printDemangled -fullSourcePath -mangled -noTrapCopy -v -h -help',
      '-arch= -lookup= -cutoff=',
      ['-symbolsPackageDir=', { role: 'into' }],
      ['-saveSignature=', { role: 'writes' }],
    ),
  }),

  sample: () => ({
    summary: 'samples a running process and writes where it spends its time',
    level: 'read_only',
    kind: 'reader',
    strict: true,
    reader: 'sample',
    options: options(
      '-mayDie -fullPaths -wait -noRetry -q',
      ['-file= -f=', { role: 'writes' }],
      // opens the report in TextEdit
      ['-e', { opaque: 'runs_named_program' }],
    ),
  }),

  say: () => ({
    summary: 'speaks text aloud, or writes it as an audio file',
    level: 'read_only',
    kind: 'reader',
    strict: true,
    options: options(
      '--progress -i',
      '-v= --voice= -r= --rate= -a= --audio-device= --file-format= --data-format= --channels= --bit-rate= --quality=',
      '--interactive[=]',
      ['-f= --input-file=', { role: 'reads' }],
      ['-o= --output-file=', { role: 'writes' }],
      ['-n= --network-send=', { level: 'network' }],
    ),
  }),

  // it hands files and URLs to the applications that open them: an app, a script (.command), a browser
  open: () => ({
    summary: 'opens files and URLs with their applications',
    level: 'process_exec',
    kind: 'exec',
    opaque: 'runs_named_program',
    options: options(
      // -h opens a header file, not help
      '-h -e -t -f -F -W -R -n -g -j --args -u -H',
      '-a= -b= -o= --stdin= --stdout= --stderr= --env= -s=',
    ),
  }),

  textutil: () => ({
    summary: 'prints information on documents, or converts them',
    level: 'read_only',
    kind: 'reader',
    strict: true,
    reader: 'textutil',
    options: options(
      ['-help', { help: true }],
      '-info -strip -noload -nostore',
      '-format= -encoding= -inputencoding= -fontsize= -font= -extension= -excludedelements= -prefixspaces= -baseurl=',
      '-title= -author= -subject= -keywords= -comment= -editor= -company= -creationtime= -modificationtime=',
      ['-convert=', { mode: 'converts' }],
      ['-cat=', { mode: 'concatenates' }],
      ['-stdout', { mode: 'stdout' }],
      ['-output=', { role: 'writes' }],
    ),
  }),

  sw_vers: () => ({
    summary: "prints macOS's version",
    level: 'read_only',
    kind: 'reader',
    options: options('-productName -productVersion -productVersionExtra -buildVersion --productName --productVersion --buildVersion'),
  }),
  system_profiler: () => ({
    summary: "prints the machine's hardware and software",
    level: 'read_only',
    kind: 'reader',
    strict: true,
    options: options('-xml -json -listDataTypes -usage', '-detailLevel= -timeout='),
  }),
  ioreg: () => ({
    summary: 'prints the I/O Kit registry',
    level: 'read_only',
    kind: 'reader',
    strict: true,
    options: options('-a -b -f -i -l -r -t -x', '-c= -d= -k= -n= -p= -w='),
  }),
  // every form but -g sets a power setting or schedules an event
  pmset: () => ({
    summary: 'reads or changes power settings',
    level: 'process_exec',
    kind: 'exec',
    strict: true,
    reader: 'reads-by-option',
    options: options(['-g', { mode: 'reads' }], ['-a -b -c -u', CHANGE]),
  }),
  csrutil: () => ({
    summary: 'reads or changes System Integrity Protection',
    level: 'read_only',
    kind: 'reader',
    subcommands: {
      status: READ,
      help: READ,
      'authenticated-root': () => ({ level: 'read_only', kind: 'reader', subcommands: { status: READ }, unknownSubcommand: CHANGE }),
    },
    unknownSubcommand: CHANGE,
  }),
  log: () => ({
    summary: 'reads the unified log, or collects, configures or erases it',
    level: 'read_only',
    kind: 'reader',
    subcommands: {
      help: READ,
      ...table(['show', 'stream', 'stats'], () => ({
        ...READ(),
        options: options(
          '--source --info --debug --signpost --backtrace --loss --no-pager --mach-continuous-time',
          '--predicate= --style= --color= --process= --type= --level= --last= --start= --end= --archive= --file= --timezone=',
          '--overview --per-book --per-file --help',
          '--sort= --count=',
        ),
      })),
      // writes a .logarchive (with --output, where it names)
      collect: () => ({
        level: 'workspace_write',
        kind: 'writer',
        strict: true,
        options: options('--device', '--last= --start= --size= --device-name= --device-udid=', ['--output=', { role: 'writes' }]),
      }),
      config: CHANGES,
      erase: CHANGES,
    },
    unknownSubcommand: OPAQUE_SUB,
  }),
};
