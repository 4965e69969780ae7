import type { Level } from '../levels';

export interface BuiltinTool {
  family: string;
  level: Level;
}

export interface BuiltinCatalog {
  families: Record<string, Level>;
  tools: Record<string, BuiltinTool>;
}

function tools(family: string, level: Level, names: string[]): Record<string, BuiltinTool> {
  return Object.fromEntries(names.map((name) => [name, { family, level }]));
}

/**
 * Claude Code's own tools mapped into families. A family's level is the highest level any of
 * its tools has; `session` tools are `none` except the ones that write files.
 */
export const CLAUDE_CODE_CATALOG: BuiltinCatalog = {
  families: {
    file_read: 'read_only',
    file_write: 'workspace_write',
    shell: 'process_exec',
    web: 'network',
    agents: 'none',
    session: 'workspace_write',
  },
  tools: {
    ...tools('file_read', 'read_only', ['Read', 'Glob', 'Grep', 'LS', 'NotebookRead']),
    ...tools('file_write', 'workspace_write', ['Edit', 'MultiEdit', 'Write', 'NotebookEdit']),
    ...tools('shell', 'process_exec', ['Bash', 'PowerShell', 'BashOutput', 'KillShell', 'TaskStop']),
    ...tools('web', 'network', ['WebFetch', 'WebSearch']),
    ...tools('agents', 'none', ['Agent', 'Task', 'SendMessage']),
    ...tools('session', 'none', [
      'TodoWrite',
      'TaskCreate',
      'TaskGet',
      'TaskList',
      'TaskUpdate',
      'TaskOutput',
      'ExitPlanMode',
      'AskUserQuestion',
      'Skill',
      'CronCreate',
      'CronDelete',
      'CronList',
      'ScheduleWakeup',
      'ToolSearch',
    ]),
    ...tools('session', 'workspace_write', ['EnterWorktree', 'ExitWorktree']),
  },
};

export const BUILTIN_CATALOGS: Record<string, BuiltinCatalog> = {
  'claude-code': CLAUDE_CODE_CATALOG,
};

/** Tools whose input is a shell command line. */
export const SHELL_TOOLS = new Set(['Bash', 'PowerShell']);
/** Tools that launch a subagent, carrying `subagent_type`. */
export const AGENT_LAUNCH_TOOLS = new Set(['Agent', 'Task']);
/** Tools that write a file named by `file_path` / `notebook_path`. */
export const FILE_WRITE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);
