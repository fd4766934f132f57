/**
 * The pictures a bulletin shows, found and read for embedding: where to look for each `src`
 * (beside the bulletin, from the workspace root, in the recognition copies' folder) and what the
 * bytes are. The host reads files (the CLI through `fs`, the extension through `workspace.fs`). Pure.
 */
import { imageSize, sniffImageFormat } from '../recognition/header';
import type { ImageMap, LoadedImage, PublishDocument, PublishWarning } from './model';

/** A place to look for an image: a path relative to one of three folders. */
export interface ImageCandidate {
  base: 'document' | 'workspace' | 'saveFolder';
  /** Forward slashes, no leading slash, percent-decoded. */
  path: string;
}

/** Reads a candidate's bytes, or undefined when there is no such file. */
export type ImageReader = (candidate: ImageCandidate) => Promise<Uint8Array | undefined>;

/**
 * Where an image `src` may be, in order: a path relative to the bulletin, then the same path from
 * the workspace root (a leading `/` means the root only), then the file name in the recognition
 * copies' folder (a copy inserted into another bulletin). Empty for web addresses and other URIs.
 */
function imageCandidates(src: string): ImageCandidate[] {
  // a URI, or a protocol-relative web address (`//host/…`, as the preview reads it)
  if (/^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(src)) return [];
  let path = src.replace(/[?#].*/, ''); // a link's address has no line break
  try {
    path = decodeURIComponent(path);
  } catch {
    // a stray % stays as written
  }
  path = path.replace(/\\/g, '/');
  const rooted = path.startsWith('/');
  const rel = path.replace(/^\/+/, '').replace(/^(?:\.\/)+/, '');
  if (!rel) return [];
  const name = rel.split('/').pop()!;
  const out: ImageCandidate[] = rooted ? [] : [{ base: 'document', path: rel }];
  out.push({ base: 'workspace', path: rel }, { base: 'saveFolder', path: name });
  return out;
}

/** Reads every image of a document; missing, remote and unreadable ones are warnings. */
export async function loadImages(
  doc: Pick<PublishDocument, 'images'>,
  read: ImageReader,
): Promise<{ images: ImageMap; warnings: PublishWarning[] }> {
  const images = new Map<string, LoadedImage>();
  const warnings: PublishWarning[] = [];
  for (const { src, line } of doc.images) {
    if (images.has(src) || warnings.some((w) => 'src' in w && w.src === src)) continue;
    // a data: URI is no file (imageCandidates has none for it): its own bytes or none
    const bytes = dataUriBytes(src) ?? (await firstFound(imageCandidates(src), read));
    if (bytes === undefined) {
      warnings.push(
        /^(?:https?:)?\/\//i.test(src) ? { code: 'image-remote', src, line } : { code: 'image-missing', src, line },
      );
      continue;
    }
    const format = sniffImageFormat(bytes);
    const size = format ? imageSize(bytes) : undefined;
    if (!format || !size) {
      warnings.push({ code: 'image-unsupported', src, line, format: (/\.(\w+)$/.exec(src)?.[1] ?? '?').toLowerCase() });
      continue;
    }
    images.set(src, { bytes, format, width: size.width, height: size.height });
  }
  return { images, warnings };
}

async function firstFound(candidates: ImageCandidate[], read: ImageReader): Promise<Uint8Array | undefined> {
  for (const c of candidates) {
    const bytes = await read(c);
    if (bytes !== undefined) return bytes;
  }
  return undefined;
}

/** The bytes of a base64 `data:` URI, or undefined. */
function dataUriBytes(src: string): Uint8Array | undefined {
  const m = /^data:[^;,]*;base64,(.*)/is.exec(src);
  return m ? new Uint8Array(Buffer.from(m[1]!, 'base64')) : undefined;
}

/** An image as a `data:` URI. */
export function dataUri(img: LoadedImage): string {
  return `data:image/${img.format};base64,${Buffer.from(img.bytes).toString('base64')}`;
}
