import { hasOption, valuesOf } from '../../getopt';
import type { NamedReader } from '../../read/classify';
import { opaque, reads, word, writer } from '../readers';
import { awkProgram, programsOf } from './awk-program';

/** awk: what its program writes, or opaque when it runs what cannot be read (awk-program.ts). */
export const awkReader: NamedReader = (ctx) => {
  const { parsed } = ctx;
  // mawk's -W exec FILE takes the program from FILE, -W interactive from a terminal: every -W is opaque
  const programs = valuesOf(parsed, '-e', '--source');
  // a program file, an extension or include file, the debugger, or files it profiles and dumps into
  if (
    hasOption(
      parsed,
      '-f',
      '--file',
      '-E',
      '--exec',
      '-i',
      '--include',
      '-l',
      '--load',
      '-D',
      '--debug',
      '-p',
      '--profile',
      '-d',
      '--dump-variables',
      '-o',
      '--pretty-print',
      '-W',
    )
  )
    return opaque(ctx, 'awk_program_runs');
  if (programs.length === 0 && !parsed.operands[0]) return reads(ctx);
  const writes: string[] = [];
  let readsInput = false;
  // the commands it runs are read by the walk (commands.ts), as shell lines of their own
  for (const p of programsOf(parsed)) {
    if (p.dynamic) return opaque(ctx, 'awk_program_runs');
    const read = awkProgram(p.text);
    if (read === 'runs_built_command') return opaque(ctx, 'runs_commands_from_input');
    if (read === 'writes_built_target') return opaque(ctx, 'awk_program_runs');
    if (read === 'not_read') return opaque(ctx, 'awk_program_unread');
    writes.push(...read.writes);
    readsInput ||= read.readsInput;
  }
  // only BEGIN rules: awk exits after them, and opens none of its file operands
  if (!readsInput && writes.length === 0) return { ...ctx.base, level: 'none', kind: 'reader', effects: [] };
  // operands are files it reads, or var=value assignments
  return writer(
    ctx,
    writes.map((w) => ({ path: word(w), effect: 'write' as const })),
    true,
  );
};
