/**
 * Whether a path a setting or a tool names stays inside the folder it is read against (the
 * workspace folder). The rule is on the text alone — no file system, so no symbolic link is
 * followed — and the same for every caller: Windows separators count as `/`, `.` and `..` are
 * resolved, and what is absolute (`/x`, `C:\x`, `C:x`, `\\server\share`) or climbs out (`..`,
 * `../sibling`) is outside. Pure (no vscode import).
 */
import { posix } from 'node:path';

/** `path` normalised with `/` separators when it stays inside the folder it is relative to, else undefined. */
export function insideFolder(path: string): string | undefined {
  const rel = posix.normalize(path.replace(/\\/g, '/'));
  if (posix.isAbsolute(rel) || rel === '..' || rel.startsWith('../') || /^[a-z]:/i.test(rel)) return undefined;
  return rel;
}
