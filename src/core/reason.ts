/**
 * Why the shell reader read a part of a line as it did, as ids with their parameters: the
 * messages in every locale, `explain` and the receipts are made from them (shell/reasons.ts holds
 * their texts). Here in the core, which names them in its verdicts without the reader.
 */
export interface Reason {
  id: ReasonId;
  /** The part of the line it is about: a program, an option, a word. */
  subject?: string;
  /** A second value some reasons name (the option of `git ${subject} ${detail}`). */
  detail?: string;
}

export type ReasonId =
  // what makes an invocation opaque: it runs code persona-gate cannot read
  | 'unknown_program'
  | 'program_by_path'
  | 'runs_named_program'
  | 'reads_options_from_file'
  | 'sql_client_commands'
  | 'sqlite_query_may_run'
  | 'go_env_write'
  | 'ssh_options_run_programs'
  | 'remote_shell_given'
  | 'runs_on_another_host'
  | 'netcat_runs_programs'
  | 'socat_runs_programs'
  | 'unknown_subcommand'
  | 'unknown_option'
  | 'subcommand_at_run_time'
  | 'options_at_run_time'
  | 'runs_project_scripts'
  | 'downloads_and_runs_scripts'
  | 'finds_project_python'
  | 'runs_project_program'
  | 'runs_project_bin'
  | 'wrapper_runs_program'
  | 'git_runs_configured_command'
  | 'git_other_directory'
  | 'git_option_runs_program'
  | 'git_runs_given_commands'
  | 'git_template'
  | 'git_config_runs_command'
  | 'git_prefix_apart'
  | 'starts_editor'
  | 'sed_script_runs'
  | 'tar_runs_program'
  | 'tar_absolute_names'
  | 'tar_removes_listed'
  | 'unzip_parent_names'
  | 'sevenzip_absolute_names'
  | 'fzf_binding_runs'
  | 'writes_unnamed_files'
  | 'loads_config_code'
  | 'loads_plugins'
  | 'reads_names_from_file'
  | 'split_filter'
  | 'awk_program_runs'
  | 'xargs_runs_with_read_arguments'
  | 'wrapper_option_unknown'
  | 'wrapper_writes_into_command'
  | 'wrapper_opaque'
  | 'wrapper_shell'
  | 'wrapper_other_root'
  | 'starts_shell'
  | 'starts_shell_other_user'
  | 'shell_changes_reading'
  | 'shell_reads_stdin'
  | 'shell_runs_script'
  | 'shell_encoded_command'
  | 'env_split_escapes'
  | 'runs_file_in_shell'
  | 'enable_loads_code'
  | 'hash_path'
  | 'sets_runtime_variable'
  | 'prompt_expansion'
  | 'script_block'
  | 'dotnet_call'
  | 'runtime_arithmetic'
  // what takes code from its stdin, where a host can give a running command input unseen
  | 'source_reads_stdin'
  | 'takes_commands_at_terminal'
  | 'runs_commands_from_input'
  | 'sed_runs_commands_from_input'
  | 'reads_code_from_stdin'
  | 'sets_variable_runs'
  // the level an invocation was read at, when nothing made it opaque
  | 'builtin'
  | 'function_call'
  | 'reads'
  | 'writes'
  | 'network'
  | 'help'
  | 'catalogued'
  | 'unlisted'
  // what else in a line raises its level: a redirection, an assignment, a write to configuration
  | 'redirect_writes'
  | 'writes_config_that_runs';
