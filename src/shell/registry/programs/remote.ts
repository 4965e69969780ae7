import { options, type Family, type OptionLine } from '../define';
import type { CommandSpec, SubcommandEntry } from '../types';

/**
 * The command-line clients of clusters, clouds and code forges: what they ask of the remote
 * system or change in it is `network`. What they write on this machine (a clone, a download, a
 * copy), what they run here or on another host, and what they set in their own configuration
 * (which can name programs they run later) is opaque; so is a subcommand they do not list,
 * which may be a plugin or an alias.
 */

// Each a function: a spec object is never shared between programs, since its option table is
// built once, with the options of the program it was first reached from.
const NET = (): CommandSpec => ({ level: 'network', kind: 'network' });
const READ = (): CommandSpec => ({ level: 'read_only', kind: 'reader' });
const ON_ANOTHER_HOST = (): CommandSpec => ({ level: 'network', kind: 'network', opaque: 'runs_on_another_host' });

function table(
  entries: Record<string, SubcommandEntry>,
  names: readonly string[],
  entry: SubcommandEntry,
): Record<string, SubcommandEntry> {
  const out: Record<string, SubcommandEntry> = Object.create(null);
  for (const n of names) out[n] = entry;
  return Object.assign(out, entries);
}

/** A group whose listed subcommands reach the remote; any other may write here or run something: opaque. */
const remoteGroup = (
  names: readonly string[],
  own: Record<string, SubcommandEntry> = {},
  valueOptions: OptionLine[] = [],
): CommandSpec => ({
  level: 'network',
  kind: 'network',
  options: options(...valueOptions),
  subcommands: table(own, names, NET),
  unknownSubcommand: { level: 'network', opaque: 'unknown_subcommand' },
});

/** A configuration group: reading it reads; setting it is opaque. */
const configGroup = (reads: readonly string[]): CommandSpec => ({
  level: 'read_only',
  kind: 'reader',
  subcommands: table({}, reads, READ),
  unknownSubcommand: { level: 'process_exec', opaque: 'unknown_subcommand' },
});

const KUBECTL_GLOBALS: OptionLine[] = [
  '-n= --namespace=',
  '--context=',
  '--cluster=',
  '--user=',
  '--kubeconfig=',
  '-s= --server=',
  '--token=',
  '--as=',
  '--as-group=',
  '--as-uid=',
  '--request-timeout=',
  '-v= --v=',
  '--cache-dir=',
  '--certificate-authority=',
  '--client-certificate=',
  '--client-key=',
  '--tls-server-name=',
  '--username=',
  '--password=',
  '--profile=',
  '--profile-output=',
  '-l= --selector=',
  '-o= --output=',
  '-f= --filename=',
  '-c= --container=',
  '--field-selector=',
  '--sort-by=',
  '--template=',
  '--since=',
  '--tail=',
  '--type=',
  '-A --all-namespaces',
  '-w --watch',
  '--insecure-skip-tls-verify',
  '--match-server-version',
  '--warnings-as-errors',
];
const KUBECTL_NET = [
  'get',
  'describe',
  'logs',
  'top',
  'explain',
  'api-resources',
  'api-versions',
  'cluster-info',
  'events',
  'wait',
  'rollout',
  'auth',
  'certificate',
  'apply',
  'create',
  'delete',
  'patch',
  'replace',
  'scale',
  'autoscale',
  'label',
  'annotate',
  'set',
  'expose',
  'cordon',
  'uncordon',
  'drain',
  'taint',
  'port-forward',
  'proxy',
];

const GH_GLOBALS: OptionLine[] = [
  '-R= --repo=',
  '--hostname=',
  '-L= --limit=',
  '-s= --state=',
  '-q= --jq=',
  '-t= --template=',
  '--json=',
  '-b= --body=',
  '--title=',
  '-B= --base=',
  '-H= --head=',
  '-l= --label=',
  '-A= --author=',
  '-a= --assignee=',
];
const GH_READS_ONLY = (extra: Record<string, SubcommandEntry> = {}) =>
  remoteGroup(
    [
      'list',
      'view',
      'status',
      'diff',
      'checks',
      'create',
      'edit',
      'close',
      'reopen',
      'comment',
      'merge',
      'ready',
      'review',
      'lock',
      'unlock',
      'delete',
      'pin',
      'unpin',
      'transfer',
      'develop',
      'watch',
      'cancel',
      'rerun',
      'enable',
      'disable',
      'run',
      'set',
      'remove',
      'update-branch',
      'revert',
      'archive',
      'unarchive',
      'rename',
      'sync',
      'upload',
      'verify',
      'verify-asset',
      'clone-info',
      'get',
      'field-list',
      'item-list',
      'check',
      'trusted-root',
      'logs',
      'ports',
    ],
    extra,
  );

export const REMOTE: Family = {
  kubectl: () => ({
    summary: "Kubernetes' client: asks or changes a cluster",
    level: 'read_only',
    kind: 'reader',
    options: options(...KUBECTL_GLOBALS),
    subcommands: {
      ...table({}, KUBECTL_NET, NET),
      version: NET,
      // the client's own configuration: its users can run a credential program (exec)
      config: () => configGroup(['view', 'get-contexts', 'get-clusters', 'get-users', 'current-context']),
      completion: READ,
      plugin: () => configGroup(['list']),
      help: READ,
      // these run a command in the cluster, or copy files here
      exec: ON_ANOTHER_HOST,
      attach: ON_ANOTHER_HOST,
      run: ON_ANOTHER_HOST,
      debug: ON_ANOTHER_HOST,
    },
    // a plugin (kubectl-NAME on PATH), cp, kustomize, diff (KUBECTL_EXTERNAL_DIFF), edit (the
    // editor) and the like: each runs a program here, and all but kustomize ask or change the cluster
    unknownSubcommand: { level: 'network', opaque: 'unknown_subcommand' },
  }),
  gh: () => ({
    summary: "GitHub's client: asks or changes a repository on GitHub",
    level: 'read_only',
    kind: 'reader',
    options: options(...GH_GLOBALS),
    subcommands: {
      ...table(
        {},
        [
          'pr',
          'issue',
          'run',
          'workflow',
          'release',
          'gist',
          'label',
          'secret',
          'variable',
          'cache',
          'project',
          'ruleset',
          'org',
          'gpg-key',
          'ssh-key',
          'attestation',
          'repo',
        ],
        () => GH_READS_ONLY(),
      ),
      search: () => remoteGroup(['repos', 'issues', 'prs', 'commits', 'code']),
      api: NET,
      status: NET,
      browse: NET,
      auth: () => ({ ...remoteGroup(['status', 'token']), level: 'network' }),
      codespace: () => remoteGroup(['list', 'view', 'logs', 'ports']),
      cs: 'codespace',
      rs: 'ruleset',
      at: 'attestation',
      config: () => configGroup(['get', 'list']),
      alias: () => configGroup(['list']),
      extension: () => ({
        ...configGroup(['list', 'ls']),
        subcommands: { ...configGroup(['list', 'ls']).subcommands, search: NET, browse: NET },
      }),
      ext: 'extension',
      extensions: 'extension',
      completion: READ,
      help: READ,
      version: READ,
    },
    // an extension or an alias, which may be a shell command
    unknownSubcommand: { level: 'process_exec', opaque: 'unknown_subcommand' },
  }),
  aws: () => ({
    summary: "Amazon Web Services' client: asks or changes cloud resources",
    level: 'network',
    kind: 'network',
    options: options(
      '--region=',
      '--profile=',
      '--output=',
      '--query=',
      '--endpoint-url=',
      '--color=',
      '--ca-bundle=',
      '--cli-read-timeout=',
      '--cli-connect-timeout=',
      '--cli-binary-format=',
      '--debug',
      '--no-verify-ssl',
      '--no-paginate',
      '--no-sign-request',
      '--no-cli-pager',
    ),
    subcommands: {
      help: READ,
      // the configuration can name a credential program
      configure: () => configGroup(['list', 'get', 'list-profiles']),
      // cp, mv and sync can write here
      s3: () => remoteGroup(['ls', 'rm', 'mb', 'rb', 'presign', 'website']),
      s3api: () => ({
        ...NET(),
        subcommands: { 'get-object': { level: 'network', opaque: 'unknown_subcommand' } } as Record<string, SubcommandEntry>,
        unknownSubcommand: { level: 'network' },
      }),
      ssm: () => ({
        ...NET(),
        subcommands: { 'start-session': ON_ANOTHER_HOST } as Record<string, SubcommandEntry>,
        unknownSubcommand: { level: 'network' },
      }),
      lambda: () => ({
        ...NET(),
        subcommands: { invoke: { level: 'network', opaque: 'unknown_subcommand' } } as Record<string, SubcommandEntry>,
        unknownSubcommand: { level: 'network' },
      }),
    },
    // a service: its operations ask or change cloud resources
    unknownSubcommand: { level: 'network' },
  }),
  gcloud: () => ({
    summary: "Google Cloud's client: asks or changes cloud resources",
    level: 'network',
    kind: 'network',
    options: options(
      '--project=',
      '--account=',
      '--configuration=',
      '--format=',
      '--filter=',
      '--limit=',
      '--sort-by=',
      '--page-size=',
      '--region=',
      '--zone=',
      '--verbosity=',
      '--impersonate-service-account=',
      '--billing-project=',
      '--flags-file=',
      '-q --quiet',
    ),
    subcommands: {
      help: READ,
      version: READ,
      info: READ,
      topic: READ,
      config: () => ({
        ...configGroup(['list', 'get', 'get-value']),
        subcommands: { ...configGroup(['list', 'get', 'get-value']).subcommands, configurations: () => configGroup(['list', 'describe']) },
      }),
      // components install downloads and runs code; storage cp and compute scp write here; ssh runs on another host
      components: () => ({ ...configGroup(['list']), unknownSubcommand: { level: 'network', opaque: 'downloads_and_runs_scripts' } }),
      storage: () => remoteGroup(['ls', 'cat', 'du', 'hash', 'objects', 'buckets', 'rm']),
      compute: () => ({
        ...NET(),
        subcommands: {
          ssh: ON_ANOTHER_HOST,
          scp: { level: 'network', opaque: 'unknown_subcommand' },
          'copy-files': { level: 'network', opaque: 'unknown_subcommand' },
          'connect-to-serial-port': ON_ANOTHER_HOST,
        } as Record<string, SubcommandEntry>,
        unknownSubcommand: { level: 'network' },
      }),
    },
    unknownSubcommand: { level: 'network' },
  }),
  az: () => ({
    summary: "Microsoft Azure's client: asks or changes cloud resources",
    level: 'network',
    kind: 'network',
    options: options(
      '--subscription=',
      '-o= --output=',
      '--query=',
      '-g= --resource-group=',
      '-n= --name=',
      '--debug',
      '--verbose',
      '--only-show-errors',
    ),
    subcommands: {
      help: READ,
      version: READ,
      find: NET,
      config: () => configGroup(['get']),
      // extensions are code it downloads and runs; ssh runs on another host; storage can download files here
      extension: () => ({
        ...configGroup(['list', 'show', 'list-available']),
        unknownSubcommand: { level: 'network', opaque: 'downloads_and_runs_scripts' },
      }),
      ssh: ON_ANOTHER_HOST,
      // account show and list read the signed-in subscriptions it keeps (~/.azure); list --refresh asks again
      account: () => ({
        ...NET(),
        subcommands: {
          show: READ,
          list: () => ({ ...READ(), options: options(['--refresh', { level: 'network' }], '--all') }),
        } as Record<string, SubcommandEntry>,
        unknownSubcommand: { level: 'network' },
      }),
      // the clouds it knows, kept in its configuration
      cloud: () => ({
        ...NET(),
        subcommands: { list: READ, show: READ, 'list-profiles': READ } as Record<string, SubcommandEntry>,
        unknownSubcommand: { level: 'process_exec', opaque: 'unknown_subcommand' },
      }),
      // upgrade installs a new CLI, bicep downloads and runs the Bicep compiler, interactive reads the terminal
      upgrade: () => ({ level: 'network', kind: 'network', opaque: 'downloads_and_runs_scripts' }),
      bicep: () => ({ level: 'network', kind: 'network', opaque: 'downloads_and_runs_scripts' }),
      interactive: () => ({ level: 'process_exec', kind: 'exec', opaque: 'starts_shell' }),
      storage: () => ({
        ...NET(),
        unknownSubcommand: { level: 'network', opaque: 'unknown_subcommand' },
        subcommands: { account: () => remoteGroup(['list', 'show', 'show-connection-string', 'keys']) } as Record<string, SubcommandEntry>,
      }),
    },
    unknownSubcommand: { level: 'network' },
  }),
};

/** The options terraform's subcommands take a value with, and those that name a file they write. */
const TERRAFORM_OPTIONS: OptionLine[] = [
  ...(
    '-var= -var-file= -target= -replace= -exclude= -lock[=] -lock-timeout= -parallelism= -input[=] -refresh[=] ' +
    '-state= -filter= -type= -plan= -test-directory= -from-module= -backend-config= -plugin-dir= -platform= ' +
    '-module-depth= -config= -lockfile= -net-mirror= -fs-mirror= -list[=] -diff[=]'
  ).split(' '),
];
const tf = (level: CommandSpec['level'], summary: string, more: Partial<CommandSpec> = {}, writes = ''): CommandSpec => ({
  summary,
  level,
  kind: level === 'read_only' ? 'reader' : level === 'network' ? 'network' : 'exec',
  singleDashLong: true,
  options: options(
    ...TERRAFORM_OPTIONS,
    ...writes
      .split(' ')
      .filter(Boolean)
      .map((o): OptionLine => [o, { role: 'writes' }]),
  ),
  ...more,
});
/** Evaluates the configuration, whose data sources and provisioners can name programs it runs (`data "external"`). */
const TF_EVALUATES =
  (summary: string, writes = '') =>
  (): CommandSpec =>
    tf('network', summary, { opaque: 'runs_project_scripts' }, writes);
/** Starts the provider plugins `init` installed, for their schemas; reaches no remote. */
const TF_PROVIDERS = (summary: string) => (): CommandSpec => tf('process_exec', summary);
const TF_NET = (summary: string) => (): CommandSpec => tf('network', summary);
const TF_READ = (summary: string) => (): CommandSpec => tf('read_only', summary);

/**
 * terraform: what evaluates the configuration runs what it names; what reads the state asks its
 * backend (a remote one, often); fmt rewrites the files unless -check or -write=false.
 */
export const TERRAFORM: Family = {
  terraform: () => ({
    summary: 'plans and applies infrastructure described in files',
    level: 'read_only',
    kind: 'reader',
    singleDashLong: true,
    persistent: false,
    options: options(['-chdir=', { role: 'chdir' }], ['-v', { help: true }], ['-version', { help: true }]),
    subcommands: {
      plan: TF_EVALUATES('shows what apply would change', '-out= -generate-config-out='),
      apply: TF_EVALUATES('changes the infrastructure'),
      destroy: TF_EVALUATES('destroys the infrastructure'),
      refresh: TF_EVALUATES('updates the state from the infrastructure'),
      import: TF_EVALUATES('adopts existing infrastructure into the state'),
      console: TF_EVALUATES('evaluates expressions against the state'),
      test: TF_EVALUATES('applies test configurations for real', '-junit-xml='),
      validate: TF_PROVIDERS('checks the configuration'),
      show: TF_PROVIDERS('shows the state or a plan file'),
      graph: TF_PROVIDERS('prints the dependency graph'),
      output: TF_NET('prints the outputs in the state'),
      init: TF_NET('installs the providers and modules, sets up the backend'),
      get: TF_NET('downloads the modules'),
      login: TF_NET('obtains a token for a registry'),
      logout: TF_NET('forgets a registry token'),
      taint: TF_NET('marks a resource for replacement in the state'),
      untaint: TF_NET('clears a mark in the state'),
      'force-unlock': TF_NET('releases a lock on the state'),
      state: () => ({
        ...tf('network', 'reads or changes the state'),
        subcommands: {
          list: TF_NET('lists the resources in the state'),
          pull: TF_NET('prints the state'),
          show: TF_PROVIDERS('shows a resource in the state'),
        },
        unknownSubcommand: { level: 'network' },
      }),
      workspace: () => ({
        ...tf('network', 'lists or switches workspaces'),
        subcommands: { list: TF_NET('lists the workspaces'), show: TF_READ('prints the current workspace') },
        unknownSubcommand: { level: 'network' },
      }),
      providers: () => ({
        ...tf('read_only', 'lists the providers the configuration requires'),
        subcommands: {
          lock: TF_NET('records provider checksums in the lock file'),
          mirror: () => tf('network', 'downloads the providers into a directory', { operands: 'writes' }),
          schema: TF_PROVIDERS("prints the providers' schemas"),
        },
        unknownSubcommand: { level: 'process_exec', opaque: 'unknown_subcommand' },
      }),
      modules: TF_READ('lists the installed modules'),
      metadata: TF_READ('prints the built-in functions'),
      version: TF_READ('prints the version'),
      fmt: () =>
        tf('read_only', 'rewrites the files in the canonical style', {
          reader: 'formats',
          options: options(...TERRAFORM_OPTIONS, ['-check[=]', { mode: 'check' }], ['-write[=]', { mode: 'write' }]),
        }),
    },
    unknownSubcommand: { level: 'process_exec', opaque: 'unknown_subcommand' },
  }),
};

/** helm: charts and releases in a cluster; a plugin, or what writes charts here, is opaque. */
export const HELM: Family = {
  helm: () => ({
    summary: "Kubernetes' package manager: asks or changes releases in a cluster",
    level: 'read_only',
    kind: 'reader',
    options: options(
      '-n= --namespace=',
      '--kube-context=',
      '--kubeconfig=',
      '--kube-apiserver=',
      '--kube-token=',
      '--kube-as-user=',
      '--kube-as-group=',
      '--kube-ca-file=',
      '--registry-config=',
      '--repository-config=',
      '--repository-cache=',
      '--burst-limit=',
      '--qps=',
      '-f= --values=',
      '--set=',
      '--set-string=',
      '--set-file=',
      '--version=',
      '-o= --output=',
      '--repo=',
      '--debug',
      '-A --all-namespaces',
      // a post-renderer is a program it runs on the manifests; --output-dir receives the rendered files
      ['--post-renderer=', { role: 'runs', opaque: 'runs_named_program' }],
      ['--output-dir=', { role: 'into' }],
    ),
    subcommands: {
      ...table(
        {},
        [
          'list',
          'ls',
          'status',
          'history',
          'get',
          'show',
          'inspect',
          'search',
          'install',
          'upgrade',
          'uninstall',
          'delete',
          'rollback',
          'test',
          'template',
          'registry',
        ],
        NET,
      ),
      lint: READ,
      verify: READ,
      version: READ,
      env: READ,
      completion: READ,
      help: READ,
      repo: () => ({
        ...remoteGroup(['add', 'update', 'remove', 'rm', 'index']),
        subcommands: { ...remoteGroup(['add', 'update', 'remove', 'rm']).subcommands, list: READ, ls: READ },
      }),
      dependency: () => ({
        ...remoteGroup(['build', 'update']),
        subcommands: { ...remoteGroup(['build', 'update']).subcommands, list: READ, ls: READ },
      }),
      dep: 'dependency',
      plugin: () => configGroup(['list', 'ls']),
    },
    // a plugin; pull, package and create write charts here
    unknownSubcommand: { level: 'process_exec', opaque: 'unknown_subcommand' },
  }),
};
