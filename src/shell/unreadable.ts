import type { Locale } from '../core/messages';
import { tablesOnFirstUse } from '../core/locale-tables';

/**
 * Why a line cannot be read (SPEC §3 step 3), as an id with its parameters: bash's grammar refused
 * it, or a part of it is known only at run time where that decides what runs or what is written,
 * or it passes a work limit. The refusal in every locale is made from it.
 */
export interface Unreadable {
  id: UnreadableId;
  /** A word, token or number of the line the problem is about. */
  subject?: string;
  /** A second value some problems name. */
  detail?: string;
}

export type UnreadableId =
  // bash's grammar
  | 'unexpected'
  | 'unexpected_in'
  | 'expected'
  | 'expected_case_end'
  | 'expected_after_case_pattern'
  | 'expected_in_function'
  | 'empty_part'
  | 'missing_command'
  | 'missing_command_at_end'
  | 'missing_command_before'
  | 'unterminated'
  | 'needs_variable_name'
  | 'case_needs_word'
  | 'case_pattern_missing'
  | 'function_needs_name'
  | 'function_body_not_compound'
  | 'function_name_not_plain'
  | 'redirect_without_target'
  | 'heredoc_without_delimiter'
  | 'heredoc_delimiter_expansion'
  | 'extglob_off'
  | 'continuation_after_dollar'
  | 'not_arithmetic'
  // work limits
  | 'nested_deeper_than'
  | 'too_deeply_nested'
  | 'more_than'
  | 'more_paths_handed'
  | 'too_many_wrappers'
  | 'arithmetic_never_closes'
  | 'path_too_long'
  | 'brace_too_large'
  // parts known only at run time, or that change how the line is read
  | 'command_not_a_string'
  | 'name_at_run_time'
  | 'name_not_plain'
  | 'could_be_catalogued'
  | 'could_be_behind_option'
  | 'write_target_at_run_time'
  | 'path_at_run_time'
  | 'home_after_change'
  | 'redirect_from_other_home'
  | 'redirect_from_path_at_run_time'
  | 'assigns_variable_named_at_run_time'
  | 'relative_after_unknown_cd'
  | 'xargs_into_line_read_again'
  | 'xargs_into_ssh'
  | 'command_string_at_run_time'
  | 'bash_only_in_sh'
  | 'remote_command_at_run_time'
  | 'preview_at_run_time'
  | 'preview_nests_quotes'
  | 'preview_escaped_placeholder'
  | 'preview_unquoted_placeholder'
  | 'preview_placeholder_in_quotes'
  | 'set_option_at_run_time'
  | 'set_changes_reading'
  | 'set_o_changes_reading'
  | 'shopt_option_at_run_time'
  | 'shopt_changes_reading'
  | 'callback'
  | 'setter_option_at_run_time'
  | 'nameref'
  | 'sets_variable_named_at_run_time';

type Texts = (s: string, d: string) => string;
type Table = Record<UnreadableId, Texts> & { __proto__: null };

const q = (s: string) => JSON.stringify(s);

/** The parts of a compound command that may not be empty, by key. */
const PARTS_EN: Record<string, string> = {
  subshell: 'subshell',
  group: 'group',
  if_condition: 'if condition',
  then_branch: 'then branch',
  else_branch: 'else branch',
  while_condition: 'while condition',
  until_condition: 'until condition',
  loop_body: 'loop body',
};
const PARTS_ES: Record<string, string> = {
  subshell: 'un subshell vacío',
  group: 'un grupo vacío',
  if_condition: 'una condición de if vacía',
  then_branch: 'una rama then vacía',
  else_branch: 'una rama else vacía',
  while_condition: 'una condición de while vacía',
  until_condition: 'una condición de until vacía',
  loop_body: 'un cuerpo de bucle vacío',
};

/** What may be left open, by key; any other subject is a token of the line, shown as it is. */
const OPEN_EN: Record<string, string> = {
  single_quote: 'single quote',
  double_quote: 'double quote',
  ansi_quote: "$'…' quote",
  backquote: 'backquote',
  array: 'array',
  extended_glob: 'extended glob',
};
const OPEN_ES: Record<string, string> = {
  single_quote: 'una comilla simple sin cerrar',
  double_quote: 'una comilla doble sin cerrar',
  ansi_quote: "una cita $'…' sin cerrar",
  backquote: 'una comilla invertida sin cerrar',
  array: 'un array sin cerrar',
  extended_glob: 'un glob extendido sin cerrar',
};

const WHERE_EN: Record<string, string> = { word_list: 'in a word list', test: 'in [[ ]]', array: 'in an array' };
const WHERE_ES: Record<string, string> = { word_list: 'en una lista de palabras', test: 'en [[ ]]', array: 'en un array' };

/** What a work limit counts, by key. */
const COUNTED_EN: Record<string, string> = {
  words: 'words',
  heredocs: 'here-documents',
  substitutions: 'command substitutions',
  commands: 'commands',
  backtick_escapes: 'backtick escapes',
  paths: 'paths to check',
  expression_paths: 'paths in one expression',
  opaque_paths: 'paths in a line that runs code persona-gate cannot read',
};
const COUNTED_ES: Record<string, string> = {
  words: 'palabras',
  heredocs: 'here-documents',
  substitutions: 'sustituciones de órdenes',
  commands: 'órdenes',
  backtick_escapes: 'escapes con comilla invertida',
  paths: 'rutas que comprobar',
  expression_paths: 'rutas en una expresión',
  opaque_paths: 'rutas en una línea que ejecuta código que persona-gate no puede leer',
};

const EN: Table = {
  __proto__: null,
  unexpected: (s) => `unexpected ${q(s)}`,
  unexpected_in: (s, d) => `unexpected ${q(s)} ${WHERE_EN[d] ?? d}`,
  expected: (s) => `expected ${q(s)}`,
  expected_case_end: () => 'expected ";;" or "esac"',
  expected_after_case_pattern: () => 'expected ")" after a case pattern',
  expected_in_function: () => 'expected ")" in a function definition',
  empty_part: (s) => `an empty ${PARTS_EN[s] ?? s}`,
  missing_command: () => 'a command is missing',
  missing_command_at_end: () => 'a command is missing at the end',
  missing_command_before: (s) => `a command is missing before ${q(s)}`,
  unterminated: (s) => `an unterminated ${OPEN_EN[s] ?? s}`,
  needs_variable_name: (s) => `${s} needs a variable name`,
  case_needs_word: () => 'case needs a word',
  case_pattern_missing: () => 'a case pattern is missing',
  function_needs_name: () => 'function needs a name',
  function_body_not_compound: () => 'a function body must be a compound command',
  function_name_not_plain: () => 'a function name must be a plain word',
  redirect_without_target: (s) => `a redirection ${s} without a target`,
  heredoc_without_delimiter: () => 'a here-document without a delimiter',
  heredoc_delimiter_expansion: () => 'a here-document delimiter with an expansion',
  extglob_off: () => 'an extended glob pattern while extglob is off',
  continuation_after_dollar: () => 'a line continuation right after a $, which joins the $ with what follows it',
  not_arithmetic: () => 'not arithmetic',
  nested_deeper_than: (s) => `commands nested more than ${s} deep`,
  too_deeply_nested: () => 'the command line is too deeply nested',
  more_than: (s, d) => `more than ${s} ${COUNTED_EN[d] ?? d}`,
  more_paths_handed: (s, d) => `more than ${s} paths handed to ${d}`,
  too_many_wrappers: () => 'too many wrappers',
  arithmetic_never_closes: () => 'arithmetic that never closes, too often',
  path_too_long: (s) => `a path longer than ${s} characters`,
  brace_too_large: (s) => `a brace expansion of more than ${s} words`,
  command_not_a_string: () => 'the command is missing or not a string',
  name_at_run_time: (s) => `a command name computed at run time (& ${s})`,
  name_not_plain: (s) => `a command name that is not a plain word (${s})`,
  could_be_catalogued: (s, d) => `an argument computed at run time (${s} could be ${d})`,
  could_be_behind_option: (s, d) => `an argument computed at run time (${s} could be ${d}, behind an option persona-gate does not know)`,
  write_target_at_run_time: (s) => `a write target computed at run time (${s})`,
  path_at_run_time: (s, d) => `a path computed at run time (${s}) handed to ${d || 'a redirection'}`,
  home_after_change: (s) => `a path in the home directory (${s}) after the line changes HOME`,
  redirect_from_other_home: (s) => `a redirection from ${s}, a directory persona-gate does not resolve`,
  redirect_from_path_at_run_time: (s) => `a redirection from a path computed at run time (${s})`,
  assigns_variable_named_at_run_time: () => 'arithmetic that assigns a variable named at run time',
  relative_after_unknown_cd: () => 'a relative path used after a change to a directory known only at run time',
  xargs_into_line_read_again: (s) => `arguments xargs reads at run time, handed to a command line read again (${s})`,
  xargs_into_ssh: () => 'arguments xargs reads at run time, handed to a command ssh runs on another host',
  command_string_at_run_time: (s) => `a command string built at run time (${s} with an expansion)`,
  bash_only_in_sh: (s, d) => `${s} in a command string ${d} runs with POSIX sh, which reads it otherwise than bash`,
  remote_command_at_run_time: () => 'a remote command built at run time (ssh with an expansion)',
  preview_at_run_time: () => 'a preview command built at run time (fzf --preview with an expansion)',
  preview_nests_quotes: () => 'a preview command (fzf --preview) with placeholders beside code that nests quotes',
  preview_escaped_placeholder: (s) => `an escaped placeholder (${s}) in a preview command (fzf --preview)`,
  preview_unquoted_placeholder: (s) => `a placeholder fzf does not quote (${s}) in a preview command (fzf --preview)`,
  preview_placeholder_in_quotes: (s) => `a placeholder inside quotes (${s}) in a preview command (fzf --preview)`,
  set_option_at_run_time: () => 'set with an option known only at run time',
  set_changes_reading: (s) => `set ${s}, which changes how later words are read`,
  set_o_changes_reading: (s) => `set -o ${s}, which changes how later words are read`,
  shopt_option_at_run_time: () => 'shopt with an option known only at run time',
  shopt_changes_reading: (s) => `shopt ${s}, which changes how the line's words are read`,
  callback: (s) => `${s} -C runs a callback`,
  setter_option_at_run_time: (s, d) => `${s} with an option known only at run time (${d})`,
  nameref: (s, d) => `${s} ${d}: a nameref, through which an assignment sets another variable`,
  sets_variable_named_at_run_time: (s, d) => `${s} sets a variable named at run time (${d})`,
};

const spanish = (): Table => ({
  __proto__: null,
  unexpected: (s) => `${q(s)} inesperado`,
  unexpected_in: (s, d) => `${q(s)} inesperado ${WHERE_ES[d] ?? d}`,
  expected: (s) => `se esperaba ${q(s)}`,
  expected_case_end: () => 'se esperaba ";;" o "esac"',
  expected_after_case_pattern: () => 'se esperaba ")" tras un patrón de case',
  expected_in_function: () => 'se esperaba ")" en la definición de una función',
  empty_part: (s) => PARTS_ES[s] ?? `${s} vacío`,
  missing_command: () => 'falta una orden',
  missing_command_at_end: () => 'falta una orden al final',
  missing_command_before: (s) => `falta una orden antes de ${q(s)}`,
  unterminated: (s) => OPEN_ES[s] ?? `${s} sin cerrar`,
  needs_variable_name: (s) => `${s} necesita un nombre de variable`,
  case_needs_word: () => 'case necesita una palabra',
  case_pattern_missing: () => 'falta un patrón de case',
  function_needs_name: () => 'function necesita un nombre',
  function_body_not_compound: () => 'el cuerpo de una función debe ser una orden compuesta',
  function_name_not_plain: () => 'el nombre de una función debe ser una palabra simple',
  redirect_without_target: (s) => `una redirección ${s} sin destino`,
  heredoc_without_delimiter: () => 'un here-document sin delimitador',
  heredoc_delimiter_expansion: () => 'un delimitador de here-document con una expansión',
  extglob_off: () => 'un patrón glob extendido con extglob desactivado',
  continuation_after_dollar: () => 'una continuación de línea justo tras un $, que une el $ con lo que le sigue',
  not_arithmetic: () => 'no es aritmética',
  nested_deeper_than: (s) => `órdenes anidadas a más de ${s} niveles`,
  too_deeply_nested: () => 'la línea de órdenes está anidada demasiado profundamente',
  more_than: (s, d) => `más de ${s} ${COUNTED_ES[d] ?? d}`,
  more_paths_handed: (s, d) => `más de ${s} rutas dadas a ${d}`,
  too_many_wrappers: () => 'demasiados programas que ejecutan otros',
  arithmetic_never_closes: () => 'aritmética que nunca se cierra, demasiadas veces',
  path_too_long: (s) => `una ruta de más de ${s} caracteres`,
  brace_too_large: (s) => `una expansión de llaves de más de ${s} palabras`,
  command_not_a_string: () => 'la orden falta o no es una cadena',
  name_at_run_time: (s) => `un nombre de orden calculado al ejecutar (& ${s})`,
  name_not_plain: (s) => `un nombre de orden que no es una palabra simple (${s})`,
  could_be_catalogued: (s, d) => `un argumento calculado al ejecutar (${s} podría ser ${d})`,
  could_be_behind_option: (s, d) => `un argumento calculado al ejecutar (${s} podría ser ${d}, tras una opción que persona-gate no conoce)`,
  write_target_at_run_time: (s) => `un destino de escritura calculado al ejecutar (${s})`,
  path_at_run_time: (s, d) => `una ruta calculada al ejecutar (${s}) dada a ${d || 'una redirección'}`,
  home_after_change: (s) => `una ruta en el directorio personal (${s}) después de que la línea cambie HOME`,
  redirect_from_other_home: (s) => `una redirección desde ${s}, un directorio que persona-gate no resuelve`,
  redirect_from_path_at_run_time: (s) => `una redirección desde una ruta calculada al ejecutar (${s})`,
  assigns_variable_named_at_run_time: () => 'aritmética que asigna una variable cuyo nombre se conoce al ejecutar',
  relative_after_unknown_cd: () => 'una ruta relativa usada tras un cambio a un directorio que solo se conoce al ejecutar',
  xargs_into_line_read_again: (s) => `argumentos que xargs lee al ejecutar, dados a una línea de órdenes que se vuelve a leer (${s})`,
  xargs_into_ssh: () => 'argumentos que xargs lee al ejecutar, dados a una orden que ssh ejecuta en otra máquina',
  command_string_at_run_time: (s) => `una orden construida al ejecutar (${s} con una expansión)`,
  bash_only_in_sh: (s, d) => `${s} en una orden que ${d} ejecuta con sh POSIX, que lo lee de otro modo que bash`,
  remote_command_at_run_time: () => 'una orden remota construida al ejecutar (ssh con una expansión)',
  preview_at_run_time: () => 'una orden de vista previa construida al ejecutar (fzf --preview con una expansión)',
  preview_nests_quotes: () => 'una orden de vista previa (fzf --preview) con marcadores junto a código que anida comillas',
  preview_escaped_placeholder: (s) => `un marcador escapado (${s}) en una orden de vista previa (fzf --preview)`,
  preview_unquoted_placeholder: (s) => `un marcador que fzf no entrecomilla (${s}) en una orden de vista previa (fzf --preview)`,
  preview_placeholder_in_quotes: (s) => `un marcador entre comillas (${s}) en una orden de vista previa (fzf --preview)`,
  set_option_at_run_time: () => 'set con una opción que solo se conoce al ejecutar',
  set_changes_reading: (s) => `set ${s}, que cambia cómo se leen las palabras siguientes`,
  set_o_changes_reading: (s) => `set -o ${s}, que cambia cómo se leen las palabras siguientes`,
  shopt_option_at_run_time: () => 'shopt con una opción que solo se conoce al ejecutar',
  shopt_changes_reading: (s) => `shopt ${s}, que cambia cómo se leen las palabras de la línea`,
  callback: (s) => `${s} -C ejecuta una orden por cada línea`,
  setter_option_at_run_time: (s, d) => `${s} con una opción que solo se conoce al ejecutar (${d})`,
  nameref: (s, d) => `${s} ${d}: una referencia de nombre, con la que una asignación cambia otra variable`,
  sets_variable_named_at_run_time: (s, d) => `${s} asigna una variable cuyo nombre se conoce al ejecutar (${d})`,
});

const TEXTS = tablesOnFirstUse<Table>({ en: () => EN, es: spanish });

/** The words of a problem in a locale (English unless told). */
export function unreadableText(u: Unreadable, locale: Locale = 'en'): string {
  return TEXTS[locale][u.id](u.subject ?? '', u.detail ?? '');
}

/** Every id, for the tests that check each has its words in every locale. */
export const UNREADABLE_IDS = Object.keys(EN) as UnreadableId[];
