/**
 * Where a chat tool's workspace-relative picture path may be, in a workspace of one folder or
 * several: in each folder, in order, and first in the folder it names when it starts with a
 * folder's name (VS Code writes workspace-relative paths of a multi-root workspace that way).
 * Only paths that stay inside their folder are offered ({@link insideFolder}).
 */
import { insideFolder } from '../paths';

/** A workspace folder as the lookup needs it. */
export interface FolderName {
  readonly name: string;
}

/** One place to look: the folder (its index) and the path inside it. */
export interface PictureCandidate {
  readonly folder: number;
  readonly path: string;
}

/**
 * The places `relative` may be, the likeliest first (a leading `/` is read as relative), each path
 * normalised; none that climbs out of its folder.
 */
export function pictureCandidates(folders: readonly FolderName[], relative: string): PictureCandidate[] {
  const rel = relative.replace(/^\/+/, '');
  const named: PictureCandidate[] = [];
  const plain: PictureCandidate[] = [];
  folders.forEach((f, folder) => {
    if (rel.startsWith(`${f.name}/`)) named.push({ folder, path: rel.slice(f.name.length + 1) });
    plain.push({ folder, path: rel });
  });
  return [...named, ...plain].flatMap((c) => {
    const path = insideFolder(c.path);
    return path === undefined ? [] : [{ folder: c.folder, path }];
  });
}
