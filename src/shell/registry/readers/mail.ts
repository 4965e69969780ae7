import { hasOption } from '../../getopt';
import type { NamedReader } from '../../read/classify';
import { modeUsed, opaque, reads } from '../readers';

/**
 * mail, mailx and mutt send a message to the addresses they are given (or, with `-t`, to those
 * its headers name). Without any, they read a mailbox and run the commands their input or the
 * terminal gives them (`!cmd`, `| cmd`): opaque. mutt's `-a FILE…` takes files up to `--`, after
 * which the addresses stand; without `--` every word after it is a file, and mutt composes at a
 * terminal.
 */
export const mailReader: NamedReader = (ctx) => {
  const { parsed } = ctx;
  if (modeUsed(ctx, 'query')) return reads(ctx);
  if (ctx.name === 'mutt' && hasOption(parsed, '-a')) {
    const end = ctx.words.findIndex((w) => w.text === '--');
    if (end === -1 || end === ctx.words.length - 1) return opaque(ctx, 'mail_runs_commands');
  }
  if (parsed.operands.length === 0 && !modeUsed(ctx, 'recipients')) return opaque(ctx, 'mail_runs_commands');
  return ctx.base;
};
