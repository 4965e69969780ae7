import type { Locale } from '../core/messages';
import { tablesOnFirstUse } from '../core/locale-tables';
import type { Reason, ReasonId } from '../core/reason';

export type { Reason, ReasonId };

type Texts = (s: string, d: string) => string;
/** A dictionary (`__proto__: null`, as core/messages.ts makes its tables): one text per reason. */
type Table = Record<ReasonId, Texts> & { __proto__: null };

/** English: the subject first where it has one, so that the words of the line can stand for it. */
const EN: Table = {
  __proto__: null,
  unknown_program: (s) => `${s} runs code persona-gate cannot read`,
  program_by_path: (s) => `${s} runs code persona-gate cannot read`,
  runs_named_program: (s) => `${s} runs the program its options name`,
  reads_options_from_file: (s) => `${s} reads options from a file, which can name files it writes or programs it runs`,
  sql_client_commands: (s) =>
    `${s} reads commands from a script, its input or the terminal, or is given its own (\\!), which can run programs here and write files`,
  sqlite_query_may_run: (s) =>
    `${s} runs SQL that may write the database or other files, or reach a view of the database that runs a program (edit()); without -safe only its schema commands and informational pragmas read`,
  go_env_write: (s) => `${s} -w/-u sets Go's environment file (GOFLAGS, CC, GOTOOLCHAIN …), which names programs later go commands run`,
  ssh_options_run_programs: (s) => `${s} -o/-S/-F can run a program (ProxyCommand)`,
  remote_shell_given: (s) => `${s} runs the remote shell given with -e`,
  runs_on_another_host: () => 'a command run on another host',
  netcat_runs_programs: () => 'netcat can run a program for each connection',
  socat_runs_programs: () => 'socat can run a program (EXEC:, SYSTEM:)',
  unknown_subcommand: (s, d) => `${s} ${d} is not a subcommand persona-gate knows (it may be an alias or a plugin)`,
  unknown_option: (s, d) => `${s} ${d} is not an option persona-gate knows, and may change the system`,
  unexpected_operand: (s, d) => `${s} takes no operands, and the program may read ${d} as another command`,
  signals_processes: (s) => `${s} sends a signal that can stop or change a running program`,
  subcommand_at_run_time: (s) => `a ${s} subcommand known only at run time`,
  options_at_run_time: (s, d) => `${d} may be an option of ${s} known only at run time, one that writes or runs code`,
  runs_project_scripts: (s, d) => `${[s, d].filter(Boolean).join(' ')} runs the project's scripts`,
  changes_cluster: (s, d) => `${[s, d].filter(Boolean).join(' ')} changes the swarm the daemon belongs to, on its other nodes too`,
  downloads_and_runs_scripts: (s) => `${s} downloads packages and runs their scripts`,
  finds_project_python: (s) =>
    `${s} runs the Python the project's .python-version names (a version or a program), or downloads one from a mirror its configuration may set`,
  runs_project_program: (s, d) => `${s} runs the project's own ${d} before any on PATH`,
  syncs_and_runs_project_program: (s, d) =>
    `${s} brings the project's environment up to date (downloading what it lacks), then runs its own ${d} before any on PATH`,
  runs_project_bin: (s) => `${s} runs the project's own programs (node_modules/.bin) before any on PATH`,
  wrapper_runs_program: (s, d) => `${s} ${d} runs a program it names`,
  git_runs_configured_command: () => 'git -c / --exec-path can make git run commands',
  git_other_directory: () => 'git with another git directory or work tree, whose configuration can make git run commands',
  value_split_into_words: (s) => `${s} splits an option's value into words, which may be options of the program it hands them to`,
  git_option_runs_program: (s) => `git ${s} with an option that runs a program`,
  git_runs_given_commands: (s) => `git ${s} runs commands given on its command line`,
  git_template: () => 'git init --template copies hooks and a configuration that make git run commands',
  git_config_runs_command: () => 'git configuration that makes git run a command',
  git_prefix_apart: (s) => `git ${s} --prefix with its value apart`,
  starts_editor: (s) => `${s} starts an editor, a program of the configuration's choosing`,
  sed_script_runs: () => 'a sed script that can run commands or write files',
  tar_runs_program: () => 'tar runs a program given on its command line',
  tar_absolute_names: () => 'tar -P extracts members to the absolute or ../ paths they name',
  tar_removes_listed: () => 'tar --remove-files removes files named in a list or under another directory',
  unzip_parent_names: () => 'unzip -: extracts members to the ../ paths they name',
  sevenzip_absolute_names: () => '7z -spf extracts members to the absolute paths they name',
  fzf_binding_runs: (s, d) => `${s} --bind ${d} binds a key to an action that runs a command`,
  writes_unnamed_files: (s, d) => `${s} ${d} writes files under names its input makes`,
  loads_config_code: (s) => `${s} loads the project's configuration and plugins, which are code`,
  loads_plugins: (s) => `${s} loads plugins, inventory scripts or configuration that run code`,
  reads_names_from_file: (s) => `${s} reads the names of the files it changes from a file`,
  split_filter: () => 'split --filter runs a command',
  awk_program_runs: (s) => `an ${s} program that runs commands or writes files`,
  awk_program_unread: (s) => `an ${s} program persona-gate does not read, which may run commands its input gives it`,
  xargs_runs_with_read_arguments: (s) => `xargs runs ${s} with arguments it reads at run time`,
  wrapper_option_unknown: (s, d) => `${s} ${d}: an option the gate does not read`,
  wrapper_writes_into_command: (s) => `${s} writes its output into a command`,
  wrapper_opaque: (s, d) => `${s} also takes options from ${d}, which the gate does not read`,
  wrapper_shell: (s, d) => `${s} ${d} hands the command to a shell, which expands its words again`,
  moreutils_parallel: (s) => `${s} with --: moreutils' parallel runs each word after it as a command, or its command with each`,
  prints_commands: (s) => `${s} only prints the commands it would run`,
  wrapper_other_root: (s, d) => `${s} ${d} finds and runs the command under another root directory`,
  installs_program_links: (s) =>
    `${s} puts links named after its programs (sh, ls …) into a program directory, where later calls find them`,
  starts_shell: (s) => `${s} starts a shell that reads commands from stdin`,
  starts_shell_other_user: (s) => `${s} starts a shell for another user`,
  shell_changes_reading: (s, d) => `${s} ${d} changes how the script's words are read`,
  shell_reads_stdin: (s) => `${s} reads commands from stdin`,
  shell_runs_script: (s, d) => `${s} runs the script file ${d}`,
  shell_encoded_command: (s) => `${s} runs an encoded command`,
  env_split_escapes: () => 'env -S with escapes or another directory (-C), which the gate does not read',
  runs_file_in_shell: (s) => `${s} runs a file in this shell`,
  enable_loads_code: () => 'enable -f loads code into the shell',
  hash_path: () => 'hash -p makes a name run another program',
  sets_runtime_variable: (s) => `${s} changes which program runs or what it loads`,
  sets_variable_runs: (s) => `${s} set by the line changes which program runs or what it loads`,
  prompt_expansion: () => 'a prompt expansion (${…@P}) runs the commands in a value',
  script_block: (s) => `${s} takes a script block`,
  dotnet_call: (s) => `${s} (a .NET call)`,
  runtime_arithmetic: () => 'a value known only at run time evaluated as arithmetic, where an array subscript can run a command',
  source_reads_stdin: (s) => `${s} runs commands read from stdin`,
  takes_commands_at_terminal: (s) => `${s} takes commands at a terminal`,
  runs_commands_from_input: (s) => `${s} runs commands its input gives it`,
  mail_runs_commands: (s) => `${s} runs mail commands or settings, which can run programs and write files`,
  sed_runs_commands_from_input: (s) => `${s} runs commands its input gives it (the e command)`,
  reads_code_from_stdin: (s) => `${s} reads code from stdin`,
  builtin: (s) => `${s} is a shell builtin`,
  function_call: (s) => `${s} is a function the line defines before it: its body is read where it is defined`,
  reads: (s) => `${s} reads`,
  writes: (s) => `${s} writes files`,
  network: (s) => `${s} reaches the network`,
  help: (s) => `${s} prints its help or version`,
  catalogued: (s) => `${s} is a catalogued command`,
  unlisted: (s) => `${s} is not one of its program's catalogued commands`,
  redirect_writes: (s) => `${s} writes a file`,
  writes_config_that_runs: () =>
    'a write to git, ssh, curl or wget configuration, git hooks, or the toolchain files of rustup, cargo or yarn, which make later calls run commands or write files',
};

/** Spanish: the same reasons, made the first time a call in Spanish asks for one. */
const spanish = (): Table => ({
  __proto__: null,
  unknown_program: (s) => `${s} ejecuta código que persona-gate no puede leer`,
  program_by_path: (s) => `${s} ejecuta código que persona-gate no puede leer`,
  runs_named_program: (s) => `${s} ejecuta el programa que nombran sus opciones`,
  reads_options_from_file: (s) => `${s} lee opciones de un fichero, que puede nombrar ficheros que escribe o programas que ejecuta`,
  sql_client_commands: (s) =>
    `${s} lee órdenes de un script, de su entrada o del terminal, o recibe las suyas propias (\\!), que pueden ejecutar programas aquí y escribir ficheros`,
  sqlite_query_may_run: (s) =>
    `${s} ejecuta SQL que puede escribir la base de datos u otros ficheros, o llegar a una vista de la base de datos que ejecuta un programa (edit()); sin -safe solo leen sus órdenes de esquema y los pragmas informativos`,
  go_env_write: (s) =>
    `${s} -w/-u cambia el fichero de entorno de Go (GOFLAGS, CC, GOTOOLCHAIN …), que nombra programas que ejecutan las órdenes go posteriores`,
  ssh_options_run_programs: (s) => `${s} -o/-S/-F puede ejecutar un programa (ProxyCommand)`,
  remote_shell_given: (s) => `${s} ejecuta el shell remoto indicado con -e`,
  runs_on_another_host: () => 'una orden ejecutada en otro equipo',
  netcat_runs_programs: () => 'netcat puede ejecutar un programa por cada conexión',
  socat_runs_programs: () => 'socat puede ejecutar un programa (EXEC:, SYSTEM:)',
  unknown_subcommand: (s, d) => `${s} ${d} no es un subcomando que persona-gate conozca (puede ser un alias o un complemento)`,
  unknown_option: (s, d) => `${s} ${d} no es una opción que persona-gate conozca, y puede cambiar el sistema`,
  unexpected_operand: (s, d) => `${s} no admite operandos, y el programa puede leer ${d} como otra orden`,
  signals_processes: (s) => `${s} envía una señal que puede detener o cambiar un programa en ejecución`,
  subcommand_at_run_time: (s) => `un subcomando de ${s} que solo se conoce al ejecutar`,
  options_at_run_time: (s, d) => `${d} puede ser una opción de ${s} que solo se conoce al ejecutar, una que escribe o ejecuta código`,
  runs_project_scripts: (s, d) => `${[s, d].filter(Boolean).join(' ')} ejecuta los scripts del proyecto`,
  changes_cluster: (s, d) => `${[s, d].filter(Boolean).join(' ')} cambia el swarm al que pertenece el demonio, también en sus otros nodos`,
  downloads_and_runs_scripts: (s) => `${s} descarga paquetes y ejecuta sus scripts`,
  finds_project_python: (s) =>
    `${s} ejecuta el Python que nombra el .python-version del proyecto (una versión o un programa), o descarga uno de un espejo que su configuración puede fijar`,
  runs_project_program: (s, d) => `${s} ejecuta el ${d} del propio proyecto antes que cualquiera del PATH`,
  syncs_and_runs_project_program: (s, d) =>
    `${s} pone al día el entorno del proyecto (descargando lo que le falta) y luego ejecuta el ${d} del propio proyecto antes que cualquiera del PATH`,
  runs_project_bin: (s) => `${s} ejecuta los programas del propio proyecto (node_modules/.bin) antes que cualquiera del PATH`,
  wrapper_runs_program: (s, d) => `${s} ${d} ejecuta un programa que nombra`,
  git_runs_configured_command: () => 'git -c / --exec-path pueden hacer que git ejecute órdenes',
  git_other_directory: () => 'git con otro directorio git u otro árbol de trabajo, cuya configuración puede hacer que git ejecute órdenes',
  value_split_into_words: (s) => `${s} parte en palabras el valor de una opción, que pueden ser opciones del programa al que las pasa`,
  git_option_runs_program: (s) => `git ${s} con una opción que ejecuta un programa`,
  git_runs_given_commands: (s) => `git ${s} ejecuta órdenes dadas en su línea de órdenes`,
  git_template: () => 'git init --template copia hooks y una configuración que hacen que git ejecute órdenes',
  git_config_runs_command: () => 'una configuración de git que hace que git ejecute una orden',
  git_prefix_apart: (s) => `git ${s} --prefix con su valor aparte`,
  starts_editor: (s) => `${s} abre un editor, un programa que elige la configuración`,
  sed_script_runs: () => 'un script de sed que puede ejecutar órdenes o escribir ficheros',
  tar_runs_program: () => 'tar ejecuta un programa dado en su línea de órdenes',
  tar_absolute_names: () => 'tar -P extrae los miembros a las rutas absolutas o con ../ que nombran',
  tar_removes_listed: () => 'tar --remove-files borra ficheros nombrados en una lista o bajo otro directorio',
  unzip_parent_names: () => 'unzip -: extrae los miembros a las rutas con ../ que nombran',
  sevenzip_absolute_names: () => '7z -spf extrae los miembros a las rutas absolutas que nombran',
  fzf_binding_runs: (s, d) => `${s} --bind ${d} asocia a una tecla una acción que ejecuta una orden`,
  writes_unnamed_files: (s, d) => `${s} ${d} escribe archivos con nombres que forma su entrada`,
  loads_config_code: (s) => `${s} carga la configuración y los complementos del proyecto, que son código`,
  loads_plugins: (s) => `${s} carga complementos, scripts de inventario o configuración que ejecutan código`,
  reads_names_from_file: (s) => `${s} lee de un fichero los nombres de los ficheros que cambia`,
  split_filter: () => 'split --filter ejecuta una orden',
  awk_program_runs: (s) => `un programa de ${s} que ejecuta órdenes o escribe ficheros`,
  awk_program_unread: (s) => `un programa de ${s} que persona-gate no lee, que puede ejecutar órdenes que le dé su entrada`,
  xargs_runs_with_read_arguments: (s) => `xargs ejecuta ${s} con argumentos que lee al ejecutarse`,
  wrapper_option_unknown: (s, d) => `${s} ${d}: una opción que persona-gate no lee`,
  wrapper_writes_into_command: (s) => `${s} escribe su salida en una orden`,
  wrapper_opaque: (s, d) => `${s} también toma opciones de ${d}, que persona-gate no lee`,
  wrapper_shell: (s, d) => `${s} ${d} pasa la orden a un shell, que vuelve a expandir sus palabras`,
  moreutils_parallel: (s) =>
    `${s} con --: el parallel de moreutils ejecuta cada palabra que le sigue como una orden, o su orden con cada una`,
  prints_commands: (s) => `${s} solo muestra las órdenes que ejecutaría`,
  wrapper_other_root: (s, d) => `${s} ${d} busca y ejecuta la orden bajo otro directorio raíz`,
  installs_program_links: (s) =>
    `${s} pone enlaces con el nombre de sus programas (sh, ls …) en un directorio de programas, donde los encuentran las llamadas posteriores`,
  starts_shell: (s) => `${s} abre un shell que lee órdenes de la entrada estándar`,
  starts_shell_other_user: (s) => `${s} abre un shell de otro usuario`,
  shell_changes_reading: (s, d) => `${s} ${d} cambia cómo se leen las palabras del script`,
  shell_reads_stdin: (s) => `${s} lee órdenes de la entrada estándar`,
  shell_runs_script: (s, d) => `${s} ejecuta el fichero de script ${d}`,
  shell_encoded_command: (s) => `${s} ejecuta una orden codificada`,
  env_split_escapes: () => 'env -S con escapes u otro directorio (-C), que persona-gate no lee',
  runs_file_in_shell: (s) => `${s} ejecuta un fichero en este shell`,
  enable_loads_code: () => 'enable -f carga código en el shell',
  hash_path: () => 'hash -p hace que un nombre ejecute otro programa',
  sets_runtime_variable: (s) => `${s} cambia qué programa se ejecuta o qué carga`,
  sets_variable_runs: (s) => `${s}, fijada por la línea, cambia qué programa se ejecuta o qué carga`,
  prompt_expansion: () => 'una expansión de prompt (${…@P}) ejecuta las órdenes de un valor',
  script_block: (s) => `${s} recibe un bloque de script`,
  dotnet_call: (s) => `${s} (una llamada a .NET)`,
  runtime_arithmetic: () =>
    'un valor que solo se conoce al ejecutar, evaluado como aritmética, donde un subíndice de array puede ejecutar una orden',
  source_reads_stdin: (s) => `${s} ejecuta órdenes leídas de la entrada estándar`,
  takes_commands_at_terminal: (s) => `${s} acepta órdenes en un terminal`,
  runs_commands_from_input: (s) => `${s} ejecuta las órdenes que le da su entrada`,
  mail_runs_commands: (s) => `${s} ejecuta órdenes o ajustes de correo, que pueden ejecutar programas y escribir archivos`,
  sed_runs_commands_from_input: (s) => `${s} ejecuta las órdenes que le da su entrada (la orden e)`,
  reads_code_from_stdin: (s) => `${s} lee código de la entrada estándar`,
  builtin: (s) => `${s} es una orden interna del shell`,
  function_call: (s) => `${s} es una función que la línea define antes: su cuerpo se lee donde se define`,
  reads: (s) => `${s} lee`,
  writes: (s) => `${s} escribe ficheros`,
  network: (s) => `${s} accede a la red`,
  help: (s) => `${s} muestra su ayuda o su versión`,
  catalogued: (s) => `${s} es un comando catalogado`,
  unlisted: (s) => `${s} no es uno de los comandos catalogados de su programa`,
  redirect_writes: (s) => `${s} escribe un fichero`,
  writes_config_that_runs: () =>
    'una escritura en la configuración de git, ssh, curl o wget, en los hooks de git o en los ficheros de toolchain de rustup, cargo o yarn, que hacen que llamadas posteriores ejecuten órdenes o escriban ficheros',
});

const TEXTS = tablesOnFirstUse<Table>({ en: () => EN, es: spanish });

/** The sentence of a reason in a locale (English unless told). */
export function reasonText(r: Reason, locale: Locale = 'en'): string {
  return TEXTS[locale][r.id](r.subject ?? '', r.detail ?? '');
}

/** Longer words than this are cut in a message (the whole line is in `explain`). */
const MAX_SHOWN = 120;

/** The words of a part of a line as a message quotes them: in backticks, cut past MAX_SHOWN characters. */
export function quoteWords(words: string): string {
  const one = words.replace(/\s+/g, ' ').trim();
  return `\`${one.length > MAX_SHOWN ? `${one.slice(0, MAX_SHOWN)}…` : one}\``;
}

/**
 * What a part of a line does, said with its own words: "`curl -s https://x.y` reaches the
 * network". The words stand for the subject where the reason starts with it and names nothing
 * else; otherwise the reason follows them after a colon.
 */
export function partText(words: string, r: Reason, locale: Locale = 'en'): string {
  const texts = TEXTS[locale][r.id];
  const quoted = quoteWords(words);
  if (!r.detail) {
    const mark = '\u0000';
    const text = texts(mark, '');
    if (text.startsWith(mark) && text.indexOf(mark, 1) === -1) return `${quoted}${text.slice(1)}`;
  }
  return `${quoted}: ${texts(r.subject ?? '', r.detail ?? '')}`;
}

/** Every reason id, as the English table lists them. */
export const reasonIds = (): ReasonId[] => Object.keys(EN) as ReasonId[];

/** What a guarded path is handed to, or which state of persona-gate a line changes, where the line's own words cannot say it. */
const LABELS = {
  en: {
    powershell_expression: () => 'a PowerShell expression',
    read_redirect: () => 'a redirection (<), whose descriptor /dev/fd/N can open it again for writing',
    opaque_code: () => 'code persona-gate cannot read',
    gate_state: (s: string) => `persona-gate's own state (${s})`,
    gate_named_in_code: (s: string) => `persona-gate's own state (persona-gate named in code persona-gate cannot read: ${s})`,
  },
  es: {
    powershell_expression: () => 'una expresión de PowerShell',
    read_redirect: () => 'una redirección (<), cuyo descriptor /dev/fd/N puede abrirlo de nuevo para escribir',
    opaque_code: () => 'código que persona-gate no puede leer',
    gate_state: (s: string) => `el estado de persona-gate (${s})`,
    gate_named_in_code: (s: string) => `el estado de persona-gate (persona-gate nombrado en código que persona-gate no puede leer: ${s})`,
  },
} satisfies Record<Locale, Record<string, (s: string) => string>>;

export type LabelId = keyof (typeof LABELS)['en'];

export function labelText(id: LabelId, locale: Locale = 'en', subject = ''): string {
  return LABELS[locale][id](subject);
}
