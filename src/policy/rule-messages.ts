import { tablesOnFirstUse } from '../core/locale-tables';
import { didYouMean } from '../core/nearest';

const near = (word: string, accepted: readonly string[]) => didYouMean('en', word, accepted, true);
const cerca = (word: string, accepted: readonly string[]) => didYouMean('es', word, accepted, true);
const quoted = (items: readonly string[]) => Array.from(items, (i) => JSON.stringify(i)).join(', ');

/** The validation problems, in English and Spanish. */
const englishRules = () => ({
  notDotted: (key: string) => `command key "${key}" must be dotted: family.….leaf`,
  familyUndeclared: (family: string, key: string, families: readonly string[] = []) =>
    `family "${family}" of command "${key}" is not declared in catalog.families${near(family, families)}`,
  aboveFamily: (level: string, familyLevel: string) => `level ${level} is above its family's level ${familyLevel}`,
  ownerNotPersona: (owner: string, personas: readonly string[] = []) =>
    `owner "${owner}" is not a declared persona${near(owner, personas)}`,
  toolClaimed: (tool: string, first: string) => `tool "${tool}" is already the command "${first}"`,
  toolIsMeta: (tool: string) => `tool "${tool}" is also a meta tool`,
  familyMissing: (family: string, families: readonly string[] = []) =>
    `family "${family}" does not exist in the catalog${near(family, families)}`,
  delegateNotPersona: (delegate: string, personas: readonly string[] = []) =>
    `delegate "${delegate}" is not a declared persona${near(delegate, personas)}`,
  agentTypeBound: (agentType: string, first: string) => `agent type "${agentType}" is already bound to persona "${first}"`,
  notACommand: (key: string, commands: readonly string[] = []) => `"${key}" is not a declared command${near(key, commands)}`,
  readAndSwitch: (key: string) => `"${key}" cannot be both a read and a switch`,
  stageNameTwice: (name: string) => `stage name "${name}" is used twice`,
  stageToolUnknown: (entry: string, known: readonly string[] = []) =>
    `"${entry}" is not a tool, command or family known to the catalog${near(entry, known)}`,
  stageToolOutside: (entry: string, families: string) =>
    `"${entry}" is outside the persona's families (${families}); a stage can only narrow`,
  stageMissing: (target: string, persona: string, stages: readonly string[] = []) =>
    `stage "${target}" is not a stage of persona "${persona}"${near(target, stages)}`,
  metaIsBuiltin: (tool: string) => `"${tool}" is a built-in tool and cannot be a meta tool`,
  notJson: (detail: string) => `not valid JSON: ${detail}`,
  unknownKey: (key: string, accepted: readonly string[]) =>
    `unknown key "${key}"${near(key, accepted)}; accepted here: ${quoted(accepted)}`,
  badValue: (value: string, accepted: readonly string[]) => `"${value}" is not one of ${quoted(accepted)}${near(value, accepted)}`,
  required: (key: string, accepted: readonly string[] = []) =>
    `"${key}" is missing, and is required${accepted.length > 0 ? `: one of ${quoted(accepted)}` : ''}`,
  trailingComma: () => 'a comma with nothing after it (JSON allows none before } or ]): remove it',
  notJsonAt: (detail: string, line: number, column: number, text: string) =>
    `not valid JSON at line ${line}, column ${column}: ${detail}${text ? ` (the line reads \`${text}\`)` : ''}`,
});

export type RuleMessages = ReturnType<typeof englishRules>;

const spanishRules = (): RuleMessages => ({
  notDotted: (key) => `la clave de orden "${key}" debe tener puntos: familia.….hoja`,
  familyUndeclared: (family, key, families = []) =>
    `la familia "${family}" de la orden "${key}" no está declarada en catalog.families${cerca(family, families)}`,
  aboveFamily: (level, familyLevel) => `el nivel ${level} está por encima del nivel de su familia, ${familyLevel}`,
  ownerNotPersona: (owner, personas = []) => `el propietario "${owner}" no es una persona declarada${cerca(owner, personas)}`,
  toolClaimed: (tool, first) => `la herramienta "${tool}" ya es la orden "${first}"`,
  toolIsMeta: (tool) => `la herramienta "${tool}" también es una metaherramienta`,
  familyMissing: (family, families = []) => `la familia "${family}" no existe en el catálogo${cerca(family, families)}`,
  delegateNotPersona: (delegate, personas = []) => `el delegado "${delegate}" no es una persona declarada${cerca(delegate, personas)}`,
  agentTypeBound: (agentType, first) => `el tipo de agente "${agentType}" ya está ligado a la persona "${first}"`,
  notACommand: (key, commands = []) => `"${key}" no es una orden declarada${cerca(key, commands)}`,
  readAndSwitch: (key) => `"${key}" no puede ser a la vez lectura y cambio de perfil`,
  stageNameTwice: (name) => `el nombre de etapa "${name}" se usa dos veces`,
  stageToolUnknown: (entry, known = []) =>
    `"${entry}" no es una herramienta, orden ni familia conocida por el catálogo${cerca(entry, known)}`,
  stageToolOutside: (entry, families) =>
    `"${entry}" está fuera de las familias de la persona (${families}); una etapa solo puede restringir`,
  stageMissing: (target, persona, stages = []) => `la etapa "${target}" no es una etapa de la persona "${persona}"${cerca(target, stages)}`,
  metaIsBuiltin: (tool) => `"${tool}" es una herramienta integrada y no puede ser una metaherramienta`,
  notJson: (detail) => `no es JSON válido: ${detail}`,
  unknownKey: (key, accepted) => `clave desconocida "${key}"${cerca(key, accepted)}; aquí se aceptan: ${quoted(accepted)}`,
  badValue: (value, accepted) => `"${value}" no es uno de ${quoted(accepted)}${cerca(value, accepted)}`,
  required: (key, accepted = []) => `falta "${key}", que es obligatorio${accepted.length > 0 ? `: uno de ${quoted(accepted)}` : ''}`,
  trailingComma: () => 'una coma sin nada detrás (JSON no admite ninguna antes de } o ]): quítala',
  notJsonAt: (detail, line, column, text) =>
    `no es JSON válido en la línea ${line}, columna ${column}: ${detail}${text ? ` (la línea dice \`${text}\`)` : ''}`,
});

/** Each language's table is made on its first use: the hook loads these with the policy reader, and needs them only when a policy does not check out. */
export const RULE_MESSAGES: Record<'en' | 'es', RuleMessages> = tablesOnFirstUse({ en: englishRules, es: spanishRules });
