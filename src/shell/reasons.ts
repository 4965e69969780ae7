/**
 * Why the shell reader read a part of a line as it did, as ids with their parameters: the
 * messages in every locale, `explain` and the receipts are made from them (core/messages.ts holds
 * the texts).
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
  | 'ssh_options_run_programs'
  | 'remote_shell_given'
  | 'runs_on_another_host'
  | 'netcat_runs_programs'
  | 'socat_runs_programs'
  | 'unknown_subcommand'
  | 'subcommand_at_run_time'
  | 'runs_project_scripts'
  | 'downloads_and_runs_scripts'
  | 'runs_project_program'
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
  | 'reads_names_from_file'
  | 'split_filter'
  | 'awk_program_runs'
  | 'xargs_runs_with_read_arguments'
  | 'xargs_cluster'
  | 'wrapper_option_unknown'
  | 'wrapper_writes_into_command'
  | 'wrapper_opaque'
  | 'wrapper_shell'
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
  // the level an invocation was read at, when nothing made it opaque
  | 'builtin'
  | 'reads'
  | 'writes'
  | 'network'
  | 'help'
  | 'catalogued'
  | 'unlisted';

/** The English sentence of a reason, for the messages built before ids reach them. */
export function reasonText(r: Reason): string {
  const s = r.subject ?? '';
  const d = r.detail ?? '';
  switch (r.id) {
    case 'unknown_program':
      return `${s} runs code persona-gate cannot read`;
    case 'program_by_path':
      return `${s} runs code persona-gate cannot read`;
    case 'runs_named_program':
      return `${s} runs the program its options name`;
    case 'reads_options_from_file':
      return `${s} reads options from a file, which can name files it writes or programs it runs`;
    case 'ssh_options_run_programs':
      return `${s} -o/-S/-F can run a program (ProxyCommand)`;
    case 'remote_shell_given':
      return `${s} runs the remote shell given with -e`;
    case 'runs_on_another_host':
      return 'a command run on another host';
    case 'netcat_runs_programs':
      return 'netcat can run a program for each connection';
    case 'socat_runs_programs':
      return 'socat can run a program (EXEC:, SYSTEM:)';
    case 'unknown_subcommand':
      return `${s} ${d} is not a subcommand persona-gate knows (it may be an alias or a plugin)`;
    case 'subcommand_at_run_time':
      return `a ${s} subcommand known only at run time`;
    case 'runs_project_scripts':
      return `${[s, d].filter(Boolean).join(' ')} runs the project's scripts`;
    case 'downloads_and_runs_scripts':
      return `${s} downloads packages and runs their scripts`;
    case 'runs_project_program':
      return `${s} runs the project's own ${d} before any on PATH`;
    case 'git_runs_configured_command':
      return 'git -c / --exec-path can make git run commands';
    case 'git_other_directory':
      return 'git with another git directory or work tree, whose configuration can make git run commands';
    case 'git_option_runs_program':
      return `git ${s} with an option that runs a program`;
    case 'git_runs_given_commands':
      return `git ${s} runs commands given on its command line`;
    case 'git_template':
      return 'git init --template copies hooks and a configuration that make git run commands';
    case 'git_config_runs_command':
      return 'git configuration that makes git run a command';
    case 'git_prefix_apart':
      return `git ${s} --prefix with its value apart`;
    case 'starts_editor':
      return `${s} starts an editor, a program of the configuration's choosing`;
    case 'sed_script_runs':
      return 'a sed script that can run commands or write files';
    case 'tar_runs_program':
      return 'tar runs a program given on its command line';
    case 'tar_absolute_names':
      return 'tar -P extracts members to the absolute or ../ paths they name';
    case 'tar_removes_listed':
      return 'tar --remove-files removes files named in a list or under another directory';
    case 'unzip_parent_names':
      return 'unzip -: extracts members to the ../ paths they name';
    case 'sevenzip_absolute_names':
      return '7z -spf extracts members to the absolute paths they name';
    case 'reads_names_from_file':
      return `${s} reads the names of the files it changes from a file`;
    case 'split_filter':
      return 'split --filter runs a command';
    case 'awk_program_runs':
      return `an ${s} program that runs commands or writes files`;
    case 'xargs_runs_with_read_arguments':
      return `xargs runs ${s} with arguments it reads at run time`;
    case 'xargs_cluster':
      return `xargs ${s}: an option cluster the gate does not read`;
    case 'wrapper_option_unknown':
      return `${s} ${d}: an option the gate does not read`;
    case 'wrapper_writes_into_command':
      return `${s} writes its output into a command`;
    case 'wrapper_opaque':
      return d;
    case 'wrapper_shell':
      return `${s} ${d} hands the command to a shell, which expands its words again`;
    case 'starts_shell':
      return `${s} starts a shell that reads commands from stdin`;
    case 'starts_shell_other_user':
      return `${s} starts a shell for another user`;
    case 'shell_changes_reading':
      return `${s} ${d} changes how the script's words are read`;
    case 'shell_reads_stdin':
      return `${s} reads commands from stdin`;
    case 'shell_runs_script':
      return `${s} runs the script file ${d}`;
    case 'shell_encoded_command':
      return `${s} runs an encoded command`;
    case 'env_split_escapes':
      return 'env -S with escapes or another directory (-C), which the gate does not read';
    case 'runs_file_in_shell':
      return `${s} runs a file in this shell`;
    case 'enable_loads_code':
      return 'enable -f loads code into the shell';
    case 'hash_path':
      return 'hash -p makes a name run another program';
    case 'sets_runtime_variable':
      return `${s} changes which program runs or what it loads`;
    case 'prompt_expansion':
      return 'a prompt expansion (${…@P}) runs the commands in a value';
    case 'script_block':
      return `${s} takes a script block`;
    case 'dotnet_call':
      return `${s} (a .NET call)`;
    case 'runtime_arithmetic':
      return 'a value known only at run time evaluated as arithmetic, where an array subscript can run a command';
    case 'builtin':
      return `${s} is a shell builtin`;
    case 'reads':
      return `${s} reads`;
    case 'writes':
      return `${s} writes files`;
    case 'network':
      return `${s} reaches the network`;
    case 'help':
      return `${s} prints its help or version`;
    case 'catalogued':
      return `${s} is a catalogued command`;
    case 'unlisted':
      return `${s} is not one of its program's catalogued commands`;
  }
}
