import { describe, expect, it } from 'vitest';
import { writeRunsCommandsLater } from '../../src/core/runs-later';
import { readShellCall } from '../../src/shell/resolve-shell';
import { confirmed, indexOf, pre, run } from '../helpers/policy';

/**
 * A file tool that writes a file which makes later calls run commands is process_exec, as the same
 * write from the shell is: a persona whose ceiling is workspace_write may edit the code, not choose
 * which program the next `cargo` or `git fetch` runs.
 */

const index = indexOf({
  version: 1,
  catalog: { include: ['claude-code'] },
  personas: {
    editor: { families: ['file_read', 'file_write', 'shell'], ceiling: 'workspace_write' },
    builder: { families: ['file_read', 'file_write', 'shell'], ceiling: 'process_exec' },
  },
});
const HOME = '/home/dev';
// Every gate passes and the tier is auto: the verdict is the policy's on_pass, abstain.
const write = (persona: string, tool: string, input: Record<string, unknown>) =>
  run(index, pre(tool, input), { env: { PERSONA_GATE_PERSONA: persona, HOME }, state: confirmed(), shell: readShellCall });

describe('file tools that write a file which runs commands later', () => {
  it.each([
    ['Write', { file_path: 'rust-toolchain.toml', content: '[toolchain]\npath = "/tmp/x"\n' }],
    ['Write', { file_path: '/work/project/rust-toolchain', content: 'x' }],
    ['Edit', { file_path: '/work/project/.cargo/config.toml', old_string: 'a', new_string: 'b' }],
    ['Write', { file_path: 'sub/../.yarnrc.yml', content: 'yarnPath: x.js' }],
    ['Write', { file_path: `${HOME}/.ssh/config`, content: 'Host *\n ProxyCommand sh -c x\n' }],
    ['Write', { file_path: '~/.gitconfig', content: '[core]\n fsmonitor = x\n' }],
    ['Write', { file_path: `${HOME}/.local/bin/ls`, content: '#!/bin/sh\n' }],
    ['Write', { file_path: `${HOME}/bin/git`, content: '#!/bin/sh\n' }],
    ['Write', { file_path: '/usr/local/bin/node', content: '#!/bin/sh\n' }],
    ['Write', { file_path: `${HOME}/.curlrc`, content: 'output = /tmp/x\n' }],
    ['Write', { file_path: `${HOME}/.gitconfig.local`, content: '[core]\n pager = x\n' }],
    ['Write', { file_path: '/etc/gitconfig', content: 'x' }],
    ['Edit', { file_path: '.git/config.worktree', old_string: 'a', new_string: 'b' }],
    ['Write', { file_path: '/etc/ssh/ssh_config.d/proxy.conf', content: 'x' }],
    ['Write', { file_path: `${HOME}/.ssh/config.d/work`, content: 'x' }],
    ['Write', { file_path: '.husky/pre-commit', content: 'x' }],
    ['Write', { file_path: '.githooks/commit-msg', content: 'x' }],
    ['Write', { file_path: '/etc/ld.so.preload', content: '/tmp/x.so\n' }],
    ['Write', { file_path: '/etc/cron.d/job', content: 'x' }],
    ['Write', { file_path: '/usr/lib/x86_64-linux-gnu/libz.so.1', content: 'x' }],
    ['Write', { file_path: `${HOME}/.config/systemd/user/x.service`, content: 'x' }],
    ['Write', { file_path: `${HOME}/.config/autostart/x.desktop`, content: 'x' }],
    ['Write', { file_path: `${HOME}/Library/LaunchAgents/x.plist`, content: 'x' }],
    ['MultiEdit', { file_path: 'vendor/repo.git/hooks/pre-commit', edits: [] }],
    // The field a host reads may be the second one the call gives.
    ['Write', { file_path: 'src/a.ts', path: `${HOME}/.ssh/config`, content: 'x' }],
  ])('%s %j is process_exec', (tool, input) => {
    const d = write('editor', tool, input);
    expect(d.verdict).toBe('deny');
    expect(d.rule).toBe('ceiling');
    expect(d.resolution.primary.level).toBe('process_exec');
    expect(d.reason).toContain('makes later calls run commands');
    expect(write('builder', tool, input).verdict).toBe('abstain');
  });

  it.each([
    ['Write', { file_path: 'src/a.ts', content: 'x' }],
    ['Write', { file_path: 'src/config.ts', content: 'x' }],
    ['Write', { file_path: 'docs/git-config.md', content: 'x' }],
    ['Edit', { file_path: `${HOME}/notes/bin/readme.md`, old_string: 'a', new_string: 'b' }],
    ['Write', { file_path: 'Cargo.toml', content: 'x' }],
    ['Write', { file_path: 'src/hooks/useAuth.ts', content: 'x' }],
    ['Write', { file_path: 'src/gitconfig.ts', content: 'x' }],
    ['Write', { file_path: 'scripts/update', content: 'x' }],
    ['Write', { file_path: '.git/info/exclude', content: 'x' }],
    ['Write', { file_path: `${HOME}/.config/app/settings.json`, content: 'x' }],
    ['Write', { file_path: '/tmp/etc/x', content: 'x' }],
    ['NotebookEdit', { notebook_path: 'analysis.ipynb', new_source: 'x' }],
  ])('%s %j stays workspace_write', (tool, input) => {
    const d = write('editor', tool, input);
    expect(d.verdict).toBe('abstain');
    expect(d.resolution.primary.level).toBe('workspace_write');
  });

  it('names the file in the receipt', () => {
    const d = write('editor', 'Write', { file_path: '.cargo/config.toml', content: 'x' });
    expect(d.resolution.primary.decidedBy).toEqual({ words: '.cargo/config.toml', reason: 'writes_config_that_runs' });
  });

  it('reads the home only where it is the home', () => {
    expect(writeRunsCommandsLater('/home/dev/.local/bin/x', '/home/dev')).toBe(true);
    expect(writeRunsCommandsLater('/home/devx/bin/x', '/home/dev')).toBe(false);
    expect(writeRunsCommandsLater('/home/dev/bin/x', '/')).toBe(false);
    expect(writeRunsCommandsLater('/home/dev/bin/x', undefined)).toBe(false);
    expect(writeRunsCommandsLater('/USR/LOCAL/BIN/x', undefined)).toBe(true);
  });
});
