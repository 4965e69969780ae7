import { programRows } from '../../helpers/program-rows';

// Package managers: what downloads packages (and runs their install scripts) reaches the network;
// anything else runs the project's own scripts.
programRows('package managers', [
  ['npm install', { level: 'network', opaque: 'downloads packages' }],
  ['npm --prefix sub install', { level: 'network', opaque: true }],
  ['npm -w pkg install', { level: 'network', opaque: true }],
  ['npm test', { level: 'process_exec', opaque: "runs the project's scripts" }],
  ['npm run build', { level: 'process_exec', opaque: true }],
  ['npm --version', { level: 'read_only' }],
  ['pnpm install', { level: 'network', opaque: true }],
  ['pnpm --filter app build', { level: 'process_exec', opaque: true }],
  ['pnpm --dir app test', { level: 'process_exec', opaque: true }],
  ['yarn install', { level: 'network', opaque: true }],
  ['yarn build', { level: 'process_exec', opaque: true }],
  ['bun install', { level: 'network', opaque: true }],
  ['bun test', { level: 'process_exec', opaque: true }],
  ['pip install requests', { level: 'network', opaque: true }],
  ['pip3 download requests', { level: 'network', opaque: true }],
  ['pipx install black', { level: 'network', opaque: true }],
  ['gem install rails', { level: 'network', opaque: true }],
  ['cargo install ripgrep', { level: 'network', opaque: true }],
  ['cargo build', { level: 'process_exec', opaque: true }],
  ['go get example.com/m', { level: 'network', opaque: true }],
  ['go build ./...', { level: 'process_exec', opaque: true }],
  ['docker pull nginx', { level: 'network', opaque: true }],
  ['podman pull nginx', { level: 'network', opaque: true }],
  ['apt-get install jq', { level: 'network', opaque: true }],
  ['apt install jq', { level: 'network', opaque: true }],
  ['brew install jq', { level: 'network', opaque: true }],
]);
