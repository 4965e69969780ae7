import { options, type Family } from '../define';
import type { OptionLine } from '../define';
import type { CommandSpec, ProgramSpec, SubcommandEntry } from '../types';

/**
 * Package managers and build front ends: the subcommands that download packages (and run their
 * install scripts) reach the network; the others run the project's own scripts.
 */

interface Known {
  /** Subcommands that only read the project or the manager's own state. */
  reads?: readonly string[];
  /** Subcommands that only ask the registry (they download no package and run no script). */
  queries?: readonly string[];
  /** Subcommands with a spec of their own. */
  own?: Record<string, SubcommandEntry>;
  /** Subcommands whose options end at the first operand: what follows is the command they run (`docker run IMAGE CMD --help`). */
  runs?: readonly string[];
}

/** A subcommand that downloads and runs what it fetches (`npm install`, `docker pull`); `runs`: its options end at the first operand, the command it runs (`docker run IMAGE CMD`). */
const downloads = (runs = false): SubcommandEntry => ({
  level: 'network',
  kind: 'network',
  opaque: 'downloads_and_runs_scripts',
  ...(runs ? { stopAtOperand: true } : {}),
});

function manager(
  summary: string,
  network: readonly string[],
  valueOptions: OptionLine[] = [],
  known: Known = {},
): () => Omit<ProgramSpec, 'name'> {
  return () => {
    const subcommands: Record<string, SubcommandEntry> = Object.create(null);
    for (const sub of network) subcommands[sub] = downloads(known.runs?.includes(sub) === true);
    for (const sub of known.reads ?? []) subcommands[sub] = { level: 'read_only', kind: 'reader' };
    for (const sub of known.queries ?? []) subcommands[sub] = { level: 'network', kind: 'network' };
    Object.assign(subcommands, known.own);
    return {
      summary,
      level: 'process_exec',
      kind: 'exec',
      opaque: 'runs_project_scripts',
      options: options(...valueOptions),
      subcommands,
      unknownSubcommand: { level: 'process_exec', opaque: 'runs_project_scripts' },
    };
  };
}

/** A group of subcommands: those named read, the rest run what the project or the line names. */
function group(
  reads: readonly string[],
  queries: readonly string[] = [],
  valueOptions: OptionLine[] = [],
  unknown: { level: 'process_exec' | 'network'; opaque: string } = { level: 'process_exec', opaque: 'runs_project_scripts' },
): CommandSpec {
  const subcommands: Record<string, SubcommandEntry> = Object.create(null);
  for (const sub of reads) subcommands[sub] = { level: 'read_only', kind: 'reader' };
  for (const sub of queries) subcommands[sub] = { level: 'network', kind: 'network' };
  return {
    level: 'process_exec',
    kind: 'exec',
    opaque: unknown.opaque,
    options: options(...valueOptions),
    subcommands,
    unknownSubcommand: unknown,
  };
}

/** `config`: reading it reads; setting it may name a program it runs later (npm's script-shell, docker's credential helpers). */
const CONFIG = (): CommandSpec => group(['list', 'ls', 'get']);

/**
 * pip: what lists, shows and checks the installed packages reads; `list --outdated/--uptodate`,
 * index and search ask the index; wheel and lock download and build what they are given.
 */
const PIP: Known = {
  reads: ['show', 'freeze', 'check', 'inspect', 'help', 'hash', 'debug', 'version'],
  queries: ['index', 'search'],
  own: {
    // it removes installed packages' files and runs none of their code: what the environment
    // holds changes as with install, at install's level
    uninstall: () => ({
      level: 'network',
      kind: 'network',
      options: options('-y --yes', '-r= --requirement=', '--root-user-action=', '--break-system-packages'),
    }),
    list: () => ({
      level: 'read_only',
      kind: 'reader',
      options: options(
        ['-o --outdated -u --uptodate', { level: 'network' }],
        '--format= --path= --exclude= -i= --index-url= --extra-index-url= -f= --find-links=',
      ),
    }),
    config: () => group(['list', 'get', 'debug']),
    cache: () => group(['dir', 'list', 'info']),
  },
};
/** pip's own options: --python runs pip under another interpreter, --log writes a file. */
const PIP_OPTIONS: OptionLine[] = [
  ['-h -V', { help: true }],
  ['--python=', { role: 'runs', opaque: 'runs_named_program' }],
  ['--log=', { role: 'writes' }],
  '--cache-dir= --proxy= --retries= --timeout= --exists-action= --trusted-host= --cert= --client-cert= --use-feature= --use-deprecated=',
];

const NPM_QUERIES = [
  'view',
  'info',
  'show',
  'v',
  'search',
  's',
  'find',
  'outdated',
  'ping',
  'whoami',
  // logout revokes the token on the registry; star and unstar change what it records
  'logout',
  'star',
  'unstar',
  'dist-tag',
  'owner',
  'access',
  'token',
  'profile',
  'stars',
  'team',
  'org',
  // they ask the registry where the package's pages are, and open them in a browser
  'repo',
  'docs',
  'home',
  'bugs',
];
const NPM_READS = [
  'list',
  'ls',
  'll',
  'la',
  'help',
  'help-search',
  'root',
  'prefix',
  'bin',
  'explain',
  'why',
  'get',
  'query',
  'completion',
  'fund',
  'find-dupes',
  'sbom',
];
/** `npm run` and `npm version` alone list the scripts and print the versions; with an operand they run scripts. */
const LISTS_ALONE = (): CommandSpec => ({
  level: 'read_only',
  kind: 'reader',
  subcommands: Object.create(null),
  unknownSubcommand: { level: 'process_exec', opaque: 'runs_project_scripts' },
});

/** docker and podman: what reads the daemon's state reads; pulling, pushing, building and running reach the network; the rest changes containers. */
const DOCKER_GLOBALS: OptionLine[] = [
  '-H= --host=',
  '-c= --context=',
  '-l= --log-level=',
  '--config=',
  '--tlscacert=',
  '--tlscert=',
  '--tlskey=',
  '--url=',
  '--connection=',
  '--identity=',
  '--root=',
  '--runroot=',
  '--storage-driver=',
  '--cgroup-manager=',
  '--log-level=',
];
/** What a swarm keeps: changing it changes every node of the swarm, remote ones too. */
const SWARM = new Set(['service', 'secret', 'config', 'stack', 'node']);
const SWARM_CHANGES = { level: 'network', opaque: 'changes_cluster' } as const;
const DOCKER_READS = ['ps', 'images', 'inspect', 'logs', 'top', 'port', 'stats', 'history', 'events', 'diff', 'version', 'info', 'help'];
function docker(summary: string, network: readonly string[]): () => Omit<ProgramSpec, 'name'> {
  const EXPORT = (): CommandSpec => ({ level: 'read_only', kind: 'reader', options: options(['-o= --output=', { role: 'writes' }]) });
  const withExport = (reads: string[], name: string, net: Record<string, SubcommandEntry> = {}): CommandSpec => {
    const g = group(reads);
    g.subcommands![name] = EXPORT;
    Object.assign(g.subcommands!, net);
    return g;
  };
  const INSPECT = [
    'ls',
    'list',
    'inspect',
    'ps',
    'logs',
    'top',
    'port',
    'stats',
    'history',
    'diff',
    'show',
    'events',
    'info',
    'df',
    'version',
    'exists',
  ];
  return manager(summary, network, DOCKER_GLOBALS, {
    runs: ['run'],
    reads: DOCKER_READS,
    queries: ['search'],
    own: {
      // `export` and `save` write the archive to stdout, or to -o FILE
      export: EXPORT,
      save: EXPORT,
      // the long forms of run, pull, push and build are the short ones
      container: () => withExport(INSPECT, 'export', { run: downloads(true) }),
      // unlock-key, join-token and ca print what the swarm keeps, unless --rotate changes it; the
      // rest changes the swarm, on every node it has (the same for its services, stacks, nodes,
      // secrets and configs)
      swarm: () => {
        const prints = (): CommandSpec => ({
          level: 'read_only',
          kind: 'reader',
          options: options(['--rotate', SWARM_CHANGES], '-q --quiet', '--ca-cert=', '--ca-key=', '--cert-expiry=', '--external-ca='),
        });
        const g = group([], [], [], SWARM_CHANGES);
        g.subcommands!['unlock-key'] = prints;
        g.subcommands!['join-token'] = prints;
        g.subcommands!.ca = prints;
        return g;
      },
      image: () => withExport(INSPECT, 'save', { pull: downloads(), push: downloads(), build: downloads() }),
      ...Object.fromEntries(
        ['volume', 'network', 'context', 'system', 'service', 'secret', 'config', 'stack', 'node', 'plugin', 'pod', 'machine'].map((g) => [
          g,
          () => group(INSPECT, [], [], SWARM.has(g) ? SWARM_CHANGES : undefined),
        ]),
      ),
      buildx: () => ({
        ...group(['ls', 'inspect', 'du', 'version']),
        subcommands: { ...group(['ls', 'inspect', 'du', 'version']).subcommands, imagetools: () => group([], ['inspect']) },
      }),
      manifest: () => group([], ['inspect']),
      trust: () => group([], ['inspect']),
      compose: () =>
        group(
          ['ps', 'logs', 'config', 'images', 'top', 'version', 'ls', 'port', 'events'],
          [],
          [
            '-f= --file=',
            '-p= --project-name=',
            '--project-directory=',
            '--env-file=',
            '--profile=',
            '--ansi=',
            '--parallel=',
            '--progress=',
          ],
          { level: 'network', opaque: 'downloads_and_runs_scripts' },
        ),
    },
  });
}

const NODE_OPTIONS: OptionLine[] = ['--prefix=', '-C= --dir= --cwd=', '-w= --workspace=', '--filter='];

/**
 * cargo: tree, metadata, update, vendor and generate-lockfile resolve the dependencies (fetching the index)
 * and ask rustc for the target's configuration through the project's own `build.rustc-wrapper` or
 * `build.rustc` (.cargo/config.toml), which they run: network and opaque; `metadata --no-deps` reads
 * the manifests only. `--config` sets any of that on the line.
 */
const CARGO = manager(
  "Rust's build tool and package manager",
  ['publish', 'fetch', 'update', 'add', 'tree', 'generate-lockfile', 'vendor'],
  [
    ['--list -h -V', { help: true }],
    ['--config=', { role: 'runs', opaque: 'runs_named_program' }],
    ['-C=', { role: 'chdir' }],
    '-Z= --color= --manifest-path=',
  ],
  {
    reads: ['help', 'version', 'locate-project', 'pkgid', 'verify-project', 'read-manifest'],
    // these ask the registry and build nothing
    queries: ['search', 'info'],
    own: {
      // they ask or change the crate's owners and versions on the registry
      owner: () => ({
        level: 'network',
        kind: 'network',
        options: options('-a= --add= -r= --remove= -l --list --token= --index= --registry='),
      }),
      yank: () => ({ level: 'network', kind: 'network', options: options('--version= --vers= --undo --token= --index= --registry=') }),
      // `cargo install --version VER`: the version of the crate, not a request for cargo's
      install: () => ({
        level: 'network',
        kind: 'network',
        reader: 'reads-with',
        options: options(
          ['--list', { mode: 'reads' }],
          '--version= --vers= --git= --branch= --tag= --rev= --path= --root= --index= --registry= --features=',
        ),
      }),
      metadata: () => ({
        level: 'network',
        kind: 'network',
        reader: 'reads-with',
        options: options(['--no-deps', { mode: 'reads' }], '--format-version= --filter-platform= --features= --manifest-path='),
      }),
      // new makes the package's directory (Cargo.toml, src/, .gitignore, a repository with --vcs git
      // through libgit2) and adds it to the members of a workspace above; it builds and runs nothing
      new: () => ({
        level: 'workspace_write',
        kind: 'writer',
        reader: 'creates',
        options: options('--vcs=', '--name=', '--edition=', '--registry=', '--bin', '--lib', '-q --quiet', '-v --verbose'),
      }),
      // rustfmt reads its configuration and runs nothing
      fmt: () => ({
        level: 'workspace_write',
        kind: 'writer',
        reader: 'cargo-fmt',
        options: options(['--check', { mode: 'check' }], '-p= --package= --manifest-path= --message-format= --all -v --verbose -q --quiet'),
      }),
      // clippy builds the package, running its build scripts
      clippy: () => ({
        level: 'process_exec',
        kind: 'exec',
        opaque: 'runs_project_scripts',
        options: options(['-V --version', { help: true }]),
      }),
      // `cargo config get` (nightly) prints the configuration
      config: () => group(['get']),
      report: () => group(['future-incompatibilities', 'future-incompat']),
    },
  },
);

// make runs the makefile's recipes; even -n, -q and -p run its $(shell …) functions, the recipe
// lines marked + and those that remake an included makefile: opaque but for its help and version
const MAKE = (): Omit<ProgramSpec, 'name'> => ({
  summary: 'runs the recipes of a makefile',
  level: 'process_exec',
  kind: 'exec',
  opaque: 'runs_project_scripts',
  options: options(
    ['-v -h', { help: true }],
    ['-C= --directory=', { role: 'chdir' }],
    '-f= --file= --makefile= -I= --include-dir= -o= --old-file= --assume-old= -W= --what-if= --new-file= --assume-new= --eval= -O[=] --output-sync[=] -j[=] --jobs[=] -l[=] --load-average[=] --debug[=] --jobserver-style=',
  ),
});

/**
 * poetry: what reads the lock file or pyproject.toml reads under --no-plugins (readers.ts: poetry);
 * show --outdated/--latest asks the index; install, add, lock, update and sync resolve and install;
 * env info runs the environment's Python; run is a runner of the project's programs.
 */
const POETRY_READ = (extra: OptionLine[] = []): CommandSpec => ({
  level: 'read_only',
  kind: 'reader',
  reader: 'poetry',
  options: options(...extra),
});
const POETRY = (): Omit<ProgramSpec, 'name'> => ({
  ...manager(
    'the Python packaging and dependency manager',
    ['install', 'add', 'remove', 'lock', 'update', 'sync', 'build', 'publish', 'self', 'source'],
    [
      ['--no-plugins', { mode: 'no-plugins' }],
      ['-C= --directory= -P= --project=', { role: 'chdir' }],
      '-q --quiet -n --no-interaction --no-cache --ansi --no-ansi -v -vv -vvv --verbose',
    ],
    {
      reads: ['about', 'list', 'help'],
      own: {
        show: () =>
          POETRY_READ([
            ['-o --outdated -l --latest', { level: 'network' }],
            '--only= --with= --without= -t --tree -T --top-level -a --all --why --no-truncate',
          ]),
        check: () => POETRY_READ(['--lock --strict']),
        // alone it prints the project's version; with a rule or a version it rewrites pyproject.toml
        version: () => ({
          ...POETRY_READ(['-s --short --dry-run --next-phase']),
          subcommands: Object.create(null),
          unknownSubcommand: { level: 'network', opaque: 'downloads_and_runs_scripts' },
        }),
      },
    },
  )(),
});

export const PACKAGES: Family = {
  npm: manager(
    'the Node.js package manager',
    ['install', 'i', 'ci', 'add', 'update', 'up', 'upgrade', 'publish', 'unpublish', 'login', 'adduser', 'deprecate', 'pack'],
    [...NODE_OPTIONS, ['-v -h', { help: true }]],
    {
      reads: NPM_READS,
      queries: NPM_QUERIES,
      // `npm audit fix` installs what it updates
      own: {
        audit: () => ({
          level: 'network',
          kind: 'network',
          subcommands: {
            fix: downloads(),
            signatures: { level: 'network', kind: 'network' },
          },
          unknownSubcommand: { level: 'network', opaque: 'downloads_and_runs_scripts' },
        }),
        config: CONFIG,
        c: 'config',
        pkg: () => group(['get']),
        cache: () => group(['ls', 'list']),
        run: LISTS_ALONE,
        'run-script': 'run',
        version: LISTS_ALONE,
      },
    },
  ),
  // pnpm and yarn stay opaque even where they only list: pnpm runs the version package.json's
  // packageManager names, downloaded from the registry the project's .npmrc may set, and loads the
  // project's .pnpmfile.cjs (code) for any command, `pnpm ls` and `pnpm list` included; yarn runs
  // the file .yarnrc.yml's yarnPath (.yarnrc's yarn-path) names, for any command
  pnpm: manager(
    'a Node.js package manager',
    ['install', 'i', 'add', 'update', 'up', 'publish', 'outdated', 'view', 'info', 'audit'],
    NODE_OPTIONS,
  ),
  yarn: manager('a Node.js package manager', ['install', 'add', 'upgrade', 'up', 'publish', 'info', 'outdated', 'npm'], NODE_OPTIONS),
  // bun: pm ls, bin, cache and hash read the lockfile, node_modules and the cache; outdated, audit and
  // info ask the registry; pm trust runs the install scripts it trusts, pm version bumps and runs scripts
  bun: manager(
    'a JavaScript runtime and package manager',
    ['install', 'i', 'add', 'update', 'remove', 'rm', 'link', 'publish', 'patch'],
    NODE_OPTIONS,
    {
      reads: ['why'],
      queries: ['outdated', 'audit', 'info'],
      own: {
        pm: () => {
          const pm = group(['ls', 'bin', 'hash', 'hash-string', 'hash-print', 'untrusted'], ['whoami', 'view'], [], {
            level: 'network',
            opaque: 'downloads_and_runs_scripts',
          });
          // `bun pm cache` prints where the cache is; `bun pm cache rm` empties it
          pm.subcommands!.cache = {
            level: 'read_only',
            kind: 'reader',
            subcommands: Object.create(null),
            unknownSubcommand: { level: 'process_exec', opaque: 'runs_project_scripts' },
          };
          pm.subcommands!.pkg = () => group(['get']);
          return pm;
        },
      },
    },
  ),
  pip: manager('the Python package installer', ['install', 'download', 'wheel', 'lock'], PIP_OPTIONS, PIP),
  pip3: manager('the Python package installer', ['install', 'download', 'wheel', 'lock'], PIP_OPTIONS, PIP),
  pipx: manager('installs Python applications', ['install', 'run', 'upgrade'], [], { runs: ['run'] }),
  gem: manager('the Ruby package manager', ['install', 'update', 'push', 'fetch']),
  // an unlisted subcommand is cargo's own or a cargo-NAME plugin, which clap gives `--help` to as help
  cargo: () => ({
    ...CARGO(),
    unknownSubcommand: { level: 'process_exec', opaque: 'runs_project_scripts', help: true },
  }),
  // uv: locking resolves the dependencies, which can build source distributions (their scripts run);
  // tree and export read the lock but find a Python for its markers, which uv may download: network.
  // (`export --frozen` finds none from uv 0.4.28 on, but an older uv does: it stays network.)
  // venv finds the Python a .python-version of the project names (a version, or a path to a program,
  // which uv runs to ask it what it is) and downloads one when none is found, from a mirror the
  // project's configuration may set: network and opaque, whatever it is given.
  // What inspects the environment, the cache, the installed tools or Pythons reads; --outdated asks the index.
  uv: () => ({
    ...manager(
      'a Python package and project manager',
      ['sync', 'lock', 'add', 'remove', 'tree', 'export', 'build', 'publish'],
      [
        ['-h -V', { help: true }],
        ['--directory= --project=', { role: 'chdir' }],
        '-p= --python= --index-url= --extra-index-url= --index= --default-index= --cache-dir= --color= --config-file=',
      ],
      {
        reads: ['help'],
        own: {
          venv: () => ({
            level: 'network',
            kind: 'network',
            opaque: 'finds_project_python',
            options: options('--prompt= --seed --clear --allow-existing --relocatable --system-site-packages --no-project'),
          }),
          pip: () => {
            // alone it prints its help
            const pip: CommandSpec = {
              ...group(['freeze', 'show', 'check'], [], [], { level: 'network', opaque: 'downloads_and_runs_scripts' }),
              level: 'read_only',
              kind: 'reader',
              opaque: undefined,
            };
            for (const sub of ['list', 'tree'])
              pip.subcommands![sub] = {
                level: 'read_only',
                kind: 'reader',
                options: options(['--outdated', { level: 'network' }], '--format= --exclude= --depth= --prune= --package= --invert'),
              };
            return pip;
          },
          cache: () => group(['dir', 'size']),
          python: () => group(['list', 'find', 'dir']),
          // `uv self version` prints its version; `uv self update` downloads uv
          self: () => group(['version'], [], [], { level: 'network', opaque: 'downloads_and_runs_scripts' }),
          tool: () => {
            const tool = group(['dir'], [], [], { level: 'network', opaque: 'downloads_and_runs_scripts' });
            tool.subcommands!.list = {
              level: 'read_only',
              kind: 'reader',
              options: options(['--outdated', { level: 'network' }], '--show-paths --show-version-specifiers --show-with --show-extras'),
            };
            return tool;
          },
          // alone it prints the project's version (or uv's, before 0.7); a new version or --bump
          // rewrites pyproject.toml and locks and syncs the project again
          version: () => ({
            level: 'read_only',
            kind: 'reader',
            options: options(
              ['--bump=', { level: 'network', opaque: 'downloads_and_runs_scripts' }],
              '--output-format= --package= --short --dry-run',
            ),
            subcommands: Object.create(null),
            unknownSubcommand: { level: 'network', opaque: 'downloads_and_runs_scripts' },
          }),
        },
      },
    )(),
    // alone it prints its help
    level: 'read_only',
    kind: 'reader',
    opaque: undefined,
  }),
  // go: what loads packages or the module graph (list, doc, mod graph/why/verify) may download modules
  // into the cache, and runs none of their code: network. A go.mod asking for a newer Go makes any go
  // command fetch that toolchain (Go's own, checked against the checksum database) first; that is
  // read as part of the command. Building, testing, vet, generate and `go tool NAME` run code.
  go: () => ({
    ...manager("Go's build tool", ['get', 'install', 'mod'], [['-C=', { role: 'chdir' }]], {
      reads: ['version', 'help'],
      queries: ['list', 'doc'],
      own: {
        env: () => ({
          level: 'read_only',
          kind: 'reader',
          options: options(['-w -u', { level: 'process_exec', opaque: 'go_env_write' }], '-json -changed'),
        }),
        list: () => ({
          level: 'network',
          kind: 'network',
          options: options(
            ['-export -compiled -toolexec=', { level: 'process_exec', opaque: 'runs_project_scripts' }],
            '-f= -mod= -modfile= -tags= -json[=] -e -m -u -versions -retracted -deps -test -find -reuse= -pgo= -overlay=',
          ),
        }),
        mod: () => ({
          ...group([], ['graph', 'why', 'verify'], [], { level: 'network', opaque: 'downloads_and_runs_scripts' }),
        }),
        // alone it lists the tools; with a name it runs that tool, which go.mod's tool lines can name
        tool: () => ({
          level: 'read_only',
          kind: 'reader',
          subcommands: Object.create(null),
          unknownSubcommand: { level: 'process_exec', opaque: 'runs_project_scripts' },
        }),
      },
    })(),
    // each of go's subcommands takes -h/--help right after it as help
    unknownSubcommand: { level: 'process_exec', opaque: 'runs_project_scripts', help: true },
  }),
  poetry: POETRY,
  make: MAKE,
  gmake: MAKE,
  docker: docker('runs containers', ['pull', 'push', 'login', 'build', 'run']),
  podman: docker('runs containers', ['pull', 'push', 'login', 'build', 'run']),
  'apt-get': manager("Debian's package tool", ['install', 'update', 'upgrade', 'download', 'source']),
  apt: manager("Debian's package tool", ['install', 'update', 'upgrade']),
  // `brew --prefix` and the like print a path; after a subcommand they are that subcommand's (`brew install --env=std`)
  brew: () => ({
    ...manager(
      'the Homebrew package manager',
      ['install', 'update', 'upgrade', 'fetch'],
      [['--prefix --cellar --cache --caskroom --repository --repo --env --config --taps', { help: true }]],
      {
        reads: [
          'list',
          'ls',
          'deps',
          'uses',
          'leaves',
          'log',
          'desc',
          'doctor',
          'dr',
          'tap-info',
          'missing',
          'options',
          'config',
          'commands',
          'cat',
          'help',
          'formulae',
          'casks',
          'shellenv',
        ],
        queries: ['info', 'abv', 'outdated', 'search'],
        own: {
          // alone or with list or info it shows the services; start, stop, run and restart run them
          services: () => ({
            level: 'read_only',
            kind: 'reader',
            subcommands: { list: { level: 'read_only', kind: 'reader' }, info: { level: 'read_only', kind: 'reader' } },
            unknownSubcommand: { level: 'process_exec', opaque: 'runs_project_scripts' },
          }),
          // alone it lists the taps; with a name it clones that repository of formulae, code brew runs later
          tap: () => ({
            level: 'read_only',
            kind: 'reader',
            // --repair rewrites the taps' remotes and links
            options: options(['--repair', { level: 'process_exec' }], '--custom-remote --force --eval-all --shallow'),
            subcommands: Object.create(null),
            unknownSubcommand: { level: 'network', opaque: 'downloads_and_runs_scripts' },
          }),
          // with -n they only say what they would remove
          ...Object.fromEntries(
            ['cleanup', 'autoremove'].map((sub) => [
              sub,
              (): CommandSpec => ({
                level: 'process_exec',
                kind: 'exec',
                reader: 'reads-with-or-runs',
                options: options(['-n --dry-run', { mode: 'reads' }], '--prune= -s -q --quiet'),
              }),
            ]),
          ),
        },
      },
    )(),
    persistent: false,
  }),
};
