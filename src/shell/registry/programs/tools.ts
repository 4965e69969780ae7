import { options, same, type Family } from '../define';
import type { CommandSpec, ProgramSpec } from '../types';

type Spec = Omit<ProgramSpec, 'name'>;

const reads = (extra: Partial<CommandSpec> = {}): CommandSpec => ({ level: 'read_only', kind: 'reader', ...extra });
const help = options(['-h', { help: true }], ['--help', { help: true }], ['--version', { help: true }]);

/**
 * Query tools for YAML, JSON and TOML: they print. yq (mikefarah's and the Python one) and jaq
 * rewrite their files with -i; yq --split-exp writes files under names its expression makes;
 * dasel put and delete write the file they read, unless -o names another.
 */
const QUERY: Family = {
  yq: () => ({
    summary: 'queries and edits YAML, JSON and XML',
    level: 'read_only',
    kind: 'reader',
    reader: 'rewrites',
    options: options(
      ['-i --inplace[=] --in-place', { mode: 'in-place' }],
      ['--from-file=', { mode: 'script' }],
      ['-s= --split-exp=', { level: 'process_exec', opaque: 'writes_unnamed_files' }],
      ['-V -v --version', { help: true }],
      '-o= --output-format=',
      '-p= --input-format=',
      '-I= --indent=',
      '--expression=',
      '--csv-separator=',
      '--properties-separator=',
      '--xml-attribute-prefix=',
      '--xml-content-name=',
      '--xml-directive-name=',
      '--xml-proc-inst-prefix=',
      '--lua-prefix=',
      '--front-matter=',
      '-w= --width=',
      '--arg=',
      '--argjson=',
      '--indentless-lists --indentless',
    ),
  }),
  gojq: () => ({
    summary: 'queries JSON and YAML',
    level: 'read_only',
    kind: 'reader',
    options: options(['-h --help -v --version', { help: true }], '--arg=', '--argjson=', '--indent=', '-f= --from-file=', '-L='),
  }),
  jaq: () => ({
    summary: 'queries JSON',
    level: 'read_only',
    kind: 'reader',
    reader: 'rewrites',
    options: options(
      ['-i --in-place', { mode: 'in-place' }],
      ['-f= --from-file=', { mode: 'script' }],
      ['-h --help -V --version', { help: true }],
      '--arg=',
      '--argjson=',
      '--indent=',
      '-L= --library-path=',
    ),
  }),
  // v1 and v2: select (the default), put, delete, validate; a first word it does not know is a selector (readers.ts)
  dasel: () => ({
    summary: 'queries and edits JSON, YAML, TOML and XML',
    level: 'read_only',
    kind: 'reader',
    reader: 'dasel',
    options: options(
      '-r= --read=',
      '-w= --write=',
      '-s= --selector=',
      '-t= --type=',
      '-v= --value=',
      ['-f= --file=', { mode: 'file' }],
      ['-o= --out=', { role: 'writes' }],
      ['-h --help', { help: true }],
    ),
  }),
};

/**
 * Formatters and linters. A formatter that prints its result by default (gofmt, shfmt,
 * clang-format) writes only with its in-place option; one that rewrites by default (black, isort,
 * rustfmt) only reads with its check or diff option. Their configuration is data (pyproject.toml,
 * rustfmt.toml, .clang-format, .shellcheckrc, .yamllint, .hadolint.yaml). Prettier, ESLint and
 * markdownlint load the project's configuration and plugins, which are JavaScript: they run the
 * project's code even when they only check.
 */
const FORMAT: Family = {
  black: () => ({
    summary: 'rewrites Python files in its style',
    level: 'read_only',
    kind: 'reader',
    reader: 'formats',
    options: options(
      ['--check --diff', { mode: 'check' }],
      ['-c= --code=', { mode: 'check' }],
      ['-h --help --version', { help: true }],
      '-l= --line-length=',
      '-t= --target-version=',
      '--config=',
      '--include=',
      '--exclude=',
      '--extend-exclude=',
      '--force-exclude=',
      '--stdin-filename=',
      '-W= --workers=',
      '--python-cell-magics=',
      '--required-version=',
      '--line-ranges=',
      '--enable-unstable-feature=',
    ),
  }),
  isort: () => ({
    summary: 'sorts the imports of Python files',
    level: 'read_only',
    kind: 'reader',
    reader: 'formats',
    options: options(
      ['-c --check-only --check -d --stdout --df --diff', { mode: 'check' }],
      ['-h --help -V --version', { help: true }],
      '--settings-path= --settings-file= --settings= --sp=',
      '--profile=',
      '-l= -w= --line-length= --line-width=',
      '-m= --multi-line=',
      '-p= --project=',
      '-o= --thirdparty=',
      '-b= --builtin=',
      '-a= --add-import=',
      '--rm= --remove-import=',
      '-s= --skip=',
      '--sg= --skip-glob=',
      '--filename=',
      '-j= --jobs=',
      '--src= --src-path=',
      '--virtual-env=',
      '--conda-env=',
      '--py= --python-version=',
    ),
  }),
  rustfmt: () => ({
    summary: 'rewrites Rust files (and the modules they name) in its style',
    level: 'read_only',
    kind: 'reader',
    reader: 'formats',
    options: options(
      ['--check', { mode: 'check' }],
      ['-h --help -V --version', { help: true }],
      '--edition=',
      '--emit=',
      '--backup',
      '--config-path=',
      '--config=',
      '--color=',
      '--style-edition=',
      '-l --files-with-diff',
      '--print-config=',
    ),
  }),
  gofmt: () => ({
    summary: 'prints Go files in the canonical style; -w rewrites them',
    level: 'read_only',
    kind: 'reader',
    reader: 'rewrites',
    options: options(['-w', { mode: 'in-place' }], '-r=', '-cpuprofile=', ['-h --help', { help: true }]),
  }),
  shfmt: () => ({
    summary: 'prints shell scripts in its style; -w rewrites them',
    level: 'read_only',
    kind: 'reader',
    reader: 'rewrites',
    options: options(
      ['-w --write', { mode: 'in-place' }],
      ['--version', { help: true }],
      '-ln= --language-dialect=',
      '-i= --indent=',
      '--filename=',
      '--apply-ignore',
      '-f --find',
    ),
  }),
  'clang-format': () => ({
    summary: 'prints C, C++ and others in a style; -i rewrites them',
    level: 'read_only',
    kind: 'reader',
    reader: 'rewrites',
    singleDashLong: true,
    options: options(
      ['-i', { mode: 'in-place' }],
      ['--help -help --version -version', { help: true }],
      '--style= -style=',
      '--fallback-style= -fallback-style=',
      '--assume-filename= -assume-filename=',
      '--lines= -lines=',
      '--offset= -offset=',
      '--length= -length=',
      '--cursor= -cursor=',
      '--files= -files=',
      '--qualifier-alignment= -qualifier-alignment=',
      '--ferror-limit= -ferror-limit=',
    ),
  }),
  shellcheck: () => ({
    summary: 'reports problems in shell scripts',
    level: 'read_only',
    kind: 'reader',
    options: options(
      ['-V --version', { help: true }],
      '-e= --exclude=',
      '-i= --include=',
      '-f= --format=',
      '-s= --shell=',
      '-S= --severity=',
      '-o= --enable=',
      '-P= --source-path=',
      '-W= --wiki-link-count=',
      '--rcfile=',
      '-C[=] --color[=]',
    ),
  }),
  // pre-commit: run installs each hook's environment from its repository and runs the hooks;
  // install and the like write .git/hooks; help, sample-config and validate-* only read
  'pre-commit': () => ({
    summary: 'runs the hooks a repository configures, before a commit or on demand',
    level: 'network',
    kind: 'network',
    opaque: 'downloads_and_runs_scripts',
    options: options(['-h --help -V --version', { help: true }], '-c= --config=', '--color='),
    subcommands: {
      help: { level: 'read_only', kind: 'reader' },
      'sample-config': { level: 'read_only', kind: 'reader' },
      'validate-config': { level: 'read_only', kind: 'reader' },
      'validate-manifest': { level: 'read_only', kind: 'reader' },
    },
    unknownSubcommand: { level: 'network', opaque: 'downloads_and_runs_scripts' },
  }),
  yamllint: () => ({
    summary: 'reports problems in YAML files',
    level: 'read_only',
    kind: 'reader',
    options: options(['-h --help -v --version', { help: true }], '-c= --config-file=', '-d= --config-data=', '-f= --format='),
  }),
  hadolint: () => ({
    summary: 'reports problems in Dockerfiles',
    level: 'read_only',
    kind: 'reader',
    options: options(
      ['-h --help -v --version', { help: true }],
      '-c= --config=',
      '-f= --format=',
      '-t= --failure-threshold=',
      '--ignore=',
      '--error=',
      '--warning=',
      '--info=',
      '--style=',
      '--trusted-registry=',
      '--require-label=',
      '--file-path-in-report=',
    ),
  }),
  // it runs shellcheck and pyflakes from PATH on the workflows' scripts; -shellcheck and -pyflakes name others
  actionlint: () => ({
    summary: "reports problems in GitHub Actions' workflows",
    level: 'read_only',
    kind: 'reader',
    singleDashLong: true,
    options: options(
      ['-h -help -version', { help: true }],
      ['-shellcheck= -pyflakes=', { role: 'runs', opaque: 'runs_named_program' }],
      '-format=',
      '-config-file=',
      '-ignore=',
      '-stdin-filename=',
    ),
  }),
  ...same(['prettier', 'eslint', 'markdownlint', 'markdownlint-cli2'], () => ({
    summary: "formats or lints with the project's configuration and plugins",
    level: 'process_exec',
    kind: 'exec',
    opaque: 'loads_config_code',
    options: options(['-h --help -v --version', { help: true }]),
  })),
};

/**
 * docker-compose and podman-compose: what shows the project's containers or its configuration
 * reads (the engine's socket, as `docker ps`); what starts, stops, builds or runs them runs the
 * images' code; pull and push reach a registry. -H, --context and --podman-path choose where or
 * with what.
 */
function compose(podman: boolean): Spec {
  const read = () => reads({ options: options('--format=', '--filter=', '-n= --tail=', '--since=', '--until=', '--index=') });
  const runs = (): CommandSpec => ({ level: 'process_exec', kind: 'exec', opaque: 'runs_project_scripts' });
  const net = (): CommandSpec => ({ level: 'network', kind: 'network' });
  return {
    summary: 'starts and inspects the containers of a compose file',
    level: 'read_only',
    kind: 'reader',
    options: [
      ...options(
        ['-h --help -v --version', { help: true }],
        '-f= --file=',
        '-p= --project-name=',
        ['--project-directory=', { role: 'chdir' }],
        '--env-file=',
        '--profile=',
        '--ansi=',
        '--progress=',
        '--parallel=',
        ['-H= --host= -c= --context=', { level: 'network' }],
      ),
      ...(podman
        ? options(
            ['--podman-path=', { role: 'runs', opaque: 'runs_named_program' }],
            '--podman-args= --podman-pull-args= --podman-push-args= --podman-build-args= --podman-inspect-args= --podman-run-args= --podman-start-args= --podman-stop-args= --podman-rm-args= --podman-volume-args=',
            '--in-pod=',
            '--pod-args=',
          )
        : []),
    ],
    subcommands: {
      ...Object.fromEntries(
        ['ps', 'config', 'logs', 'images', 'ls', 'version', 'top', 'port', 'events', 'convert', 'help'].map((n) => [n, read]),
      ),
      ...Object.fromEntries(
        [
          'up',
          'down',
          'run',
          'exec',
          'build',
          'create',
          'start',
          'stop',
          'restart',
          'rm',
          'kill',
          'pause',
          'unpause',
          'cp',
          'scale',
          'attach',
          'wait',
          'watch',
          'systemd',
        ].map((n) => [n, runs]),
      ),
      pull: net,
      push: net,
    },
    unknownSubcommand: { level: 'process_exec', opaque: 'unknown_subcommand' },
  };
}

/**
 * packer: validate, inspect and console load the plugins the template names (programs, run to
 * learn their schemas), so they run code; fmt parses HCL only: it reads with -check or
 * -write=false and rewrites the files otherwise; init and plugins install download plugins;
 * build runs the builders.
 */
const packer = (): Spec => {
  const plugins = (): CommandSpec => ({ level: 'process_exec', kind: 'exec', opaque: 'loads_plugins' });
  return {
    summary: 'builds machine images from templates',
    level: 'read_only',
    kind: 'reader',
    singleDashLong: true,
    persistent: false,
    options: options(['-h -help -v -version', { help: true }]),
    subcommands: {
      version: () => reads({ singleDashLong: true }),
      fmt: () => ({
        summary: 'rewrites the templates in the canonical style',
        level: 'read_only',
        kind: 'reader',
        reader: 'formats',
        singleDashLong: true,
        options: options(['-check[=]', { mode: 'check' }], ['-write[=]', { mode: 'write' }], '-diff', '-recursive'),
      }),
      validate: plugins,
      inspect: plugins,
      console: plugins,
      plugins: plugins,
      hcl2_upgrade: plugins,
      init: () => ({ level: 'network', kind: 'network', opaque: 'downloads_and_runs_scripts' }),
      build: () => ({ level: 'network', kind: 'network', opaque: 'loads_plugins' }),
    },
    unknownSubcommand: { level: 'process_exec', opaque: 'unknown_subcommand' },
  };
};

/**
 * Ansible: every command but the help and `ansible-config view` loads ansible.cfg from the
 * current directory, the inventory (scripts and plugins, run) and vars, lookup and filter plugins
 * (Python, run, some from the project's own collections): --syntax-check, --list-tasks and
 * --list-hosts build the inventory first, ansible-doc imports plugins to read their docs.
 */
/** Ansible's commands that reach hosts, clouds (inventory plugins) or Galaxy; the others run local code. */
const ANSIBLE_NETWORK = new Set(['ansible', 'ansible-playbook', 'ansible-pull', 'ansible-console', 'ansible-inventory', 'ansible-galaxy']);

function ansible(name: string): Spec {
  const network = ANSIBLE_NETWORK.has(name);
  const spec: Spec = {
    summary: name === 'ansible' ? 'runs modules on hosts' : `Ansible's ${name.slice('ansible-'.length)}`,
    level: network ? 'network' : 'process_exec',
    kind: network ? 'network' : 'exec',
    opaque: 'loads_plugins',
    options: options(['-h --help --version', { help: true }]),
  };
  if (name !== 'ansible-config') return spec;
  return {
    summary: spec.summary,
    options: spec.options,
    level: 'process_exec',
    kind: 'exec',
    subcommands: {
      view: () => reads({ options: options('-c= --config=') }),
    },
    unknownSubcommand: { level: 'process_exec', opaque: 'loads_plugins' },
  };
}

export const TOOLS: Family = {
  ...QUERY,
  ...FORMAT,
  'docker-compose': () => compose(false),
  'podman-compose': () => compose(true),
  packer,
  ...Object.fromEntries(
    [
      'ansible',
      'ansible-playbook',
      'ansible-doc',
      'ansible-inventory',
      'ansible-config',
      'ansible-galaxy',
      'ansible-vault',
      'ansible-pull',
      'ansible-console',
      'ansible-lint',
    ].map((n) => [n, () => ansible(n)]),
  ),
};
