import type { Level } from '../levels';

export interface BuiltinTool {
  family: string;
  level: Level;
}

export interface BuiltinCatalog {
  families: Record<string, Level>;
  /** The tools of each family, with their level (a family's tools need not all have its level). */
  tools: readonly (readonly [family: string, level: Level, names: readonly string[]])[];
}

/**
 * Claude Code's own tools mapped into families. A family's level is the highest level any of
 * its tools has; `session` tools are `none` except the ones that write files. (Lists, not one
 * object per tool: every call makes its tool table from them.)
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
  tools: [
    ['file_read', 'read_only', ['Read', 'Glob', 'Grep', 'LS', 'NotebookRead']],
    ['file_write', 'workspace_write', ['Edit', 'MultiEdit', 'Write', 'NotebookEdit']],
    ['shell', 'process_exec', ['Bash', 'PowerShell', 'BashOutput', 'KillShell', 'TaskStop']],
    ['web', 'network', ['WebFetch', 'WebSearch']],
    ['agents', 'none', ['Agent', 'Task', 'SendMessage']],
    [
      'session',
      'none',
      [
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
      ],
    ],
    ['session', 'workspace_write', ['EnterWorktree', 'ExitWorktree']],
  ],
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

/**
 * The files a file-writing tool names. Every field that may name it is checked, not the first
 * present: a host that reads `path` (Copilot, run by a registration written for Claude Code) must
 * not be steered past a check by a `file_path` the model adds beside it.
 */
export function fileToolTargets(toolName: string, input: Record<string, unknown>): string[] {
  if (!FILE_WRITE_TOOLS.has(toolName)) return [];
  return [input.file_path, input.notebook_path, input.path].filter((t): t is string => typeof t === 'string');
}
