import { createHash } from 'node:crypto';
import { lstatSync, readFileSync, readlinkSync } from 'node:fs';

/** One line saying what is at `path` on disk — kind, mode, size and a digest of the content — to compare before and after. */
export function describePath(path: string): string {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return 'missing';
  }
  const mode = (st.mode & 0o7777).toString(8).padStart(4, '0');
  if (st.isSymbolicLink()) return `symlink -> ${readlinkSync(path)}`;
  if (st.isDirectory()) return `dir ${mode}`;
  if (!st.isFile()) return `other ${mode}`;
  let digest: string;
  try {
    digest = createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 16);
  } catch (err) {
    digest = `unreadable (${(err as NodeJS.ErrnoException).code})`;
  }
  return `file ${mode} ${st.size}B ${digest}`;
}
