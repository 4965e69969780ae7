import type { Effect, NamedReader } from '../../read/classify';
import type { Word } from '../../syntax/word';
import { sedScript, sedScripts } from './sed-script';
import { baseName, joinPath, opaque, parentOf, reads, word, writer } from '../readers';

/**
 * sed: its script read as sed reads it — the files `w` writes, and whether `e` (or the `e` flag of
 * `s`) runs commands — then, with -i, the files it edits in place and their backups.
 */

/** Files `w` names that are not files of the workspace. */
const STREAMS = new Set(['/dev/stdout', '/dev/stderr']);

export const sedReader: NamedReader = (ctx) => {
  const { parsed } = ctx;
  const { scripts, fromFile, files } = sedScripts(parsed);
  const inPlace = parsed.used.some((u) => u.option.data?.mode === 'in-place');
  const written: Word[] = [];
  for (const script of scripts) {
    const read = script.dynamic ? null : sedScript(script.text);
    if (fromFile || read === null || read === 'runs_input') {
      const r = opaque(ctx, read === 'runs_input' && !fromFile ? 'sed_runs_commands_from_input' : 'sed_script_runs');
      return inPlace ? { ...r, effects: files.map((path) => ({ path, effect: 'write' as const })) } : r;
    }
    for (const w of read.writes) if (w !== '' && !STREAMS.has(w)) written.push(word(w, script));
  }
  if (fromFile) return opaque(ctx, 'sed_script_runs');
  const effects: Effect[] = written.map((path) => ({ path, effect: 'write' }));
  if (!inPlace) return effects.length > 0 ? writer(ctx, effects) : reads(ctx);
  for (const path of files) effects.push({ path, effect: 'write' });
  // a backup under the suffix given (`-i.bak`, `--in-place=.bak`); a `*` in it stands for the file's name
  for (const u of parsed.used) {
    if (u.option.data?.mode !== 'in-place' || u.value === undefined) continue;
    const suffix = u.value.text;
    for (const file of files) {
      if (!suffix.includes('*')) effects.push({ path: word(`${file.text}${suffix}`, file), effect: 'write' });
      else {
        const named = suffix.replace(/\*/g, baseName(file.text));
        effects.push(
          { path: word(named, file), effect: 'write' },
          { path: word(joinPath(parentOf(file.text), named), file), effect: 'write' },
        );
      }
    }
  }
  return writer(ctx, effects);
};
