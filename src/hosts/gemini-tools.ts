import type { ToolMapping } from './translate';

/** The built-in tools of Gemini CLI and of Qwen Code (which grew from it), as Claude Code's. */
export const GEMINI_FAMILY_TOOLS: Record<string, ToolMapping> = {
  run_shell_command: { tool: 'Bash', directory: 'dir_path', background: (input) => input.is_background === true },
  read_file: { tool: 'Read' },
  read_many_files: { tool: 'Read' },
  list_directory: { tool: 'LS' },
  glob: { tool: 'Glob' },
  search_file_content: { tool: 'Grep' },
  grep_search: { tool: 'Grep' },
  write_file: { tool: 'Write' },
  replace: { tool: 'Edit' },
  edit: { tool: 'Edit' },
  web_fetch: { tool: 'WebFetch' },
  google_web_search: { tool: 'WebSearch' },
  web_search: { tool: 'WebSearch' },
  write_todos: { tool: 'TodoWrite' },
  todo_write: { tool: 'TodoWrite' },
  task: { tool: 'Task' },
  exit_plan_mode: { tool: 'ExitPlanMode' },
};
