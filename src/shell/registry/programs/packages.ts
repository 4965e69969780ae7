import { options, type Family } from '../define';
import type { CommandSpec, ProgramSpec } from '../types';

/**
 * Package managers and build front ends: the subcommands that download packages (and run their
 * install scripts) reach the network; the others run the project's own scripts.
 */

function manager(summary: string, network: readonly string[], valueOptions: string[] = []): () => Omit<ProgramSpec, 'name'> {
  return () => {
    const subcommands: Record<string, CommandSpec> = Object.create(null);
    for (const sub of network) subcommands[sub] = { level: 'network', kind: 'network', opaque: 'downloads_and_runs_scripts' };
    return { summary, level: 'process_exec', kind: 'exec', opaque: 'runs_project_scripts', options: options(...valueOptions), subcommands, unknownSubcommand: { level: 'process_exec', opaque: 'runs_project_scripts' } };
  };
}

const NODE_OPTIONS = ['--prefix=', '-C= --dir= --cwd=', '-w= --workspace=', '--filter='];

export const PACKAGES: Family = {
  npm: manager('the Node.js package manager', ['install', 'i', 'ci', 'add', 'update', 'up', 'upgrade', 'publish', 'unpublish', 'login', 'adduser', 'outdated', 'view', 'info', 'search', 'audit', 'dist-tag', 'deprecate', 'owner', 'pack'], NODE_OPTIONS),
  pnpm: manager('a Node.js package manager', ['install', 'i', 'add', 'update', 'up', 'publish', 'outdated', 'view', 'info', 'audit'], NODE_OPTIONS),
  yarn: manager('a Node.js package manager', ['install', 'add', 'upgrade', 'up', 'publish', 'info', 'outdated', 'npm'], NODE_OPTIONS),
  bun: manager('a JavaScript runtime and package manager', ['install', 'i', 'add', 'update', 'publish', 'pm'], NODE_OPTIONS),
  pip: manager('the Python package installer', ['install', 'download', 'index']),
  pip3: manager('the Python package installer', ['install', 'download', 'index']),
  pipx: manager('installs Python applications', ['install', 'run', 'upgrade']),
  gem: manager('the Ruby package manager', ['install', 'update', 'push', 'fetch']),
  cargo: manager("Rust's build tool and package manager", ['install', 'publish', 'fetch', 'update', 'add', 'search']),
  go: manager("Go's build tool", ['get', 'install', 'mod']),
  docker: manager('runs containers', ['pull', 'push', 'login', 'build', 'run', 'compose']),
  podman: manager('runs containers', ['pull', 'push', 'login', 'build', 'run']),
  'apt-get': manager("Debian's package tool", ['install', 'update', 'upgrade', 'download', 'source']),
  apt: manager("Debian's package tool", ['install', 'update', 'upgrade']),
  brew: manager('the Homebrew package manager', ['install', 'update', 'upgrade', 'fetch']),
};
