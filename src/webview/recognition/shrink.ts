/**
 * The webview's shrinker: decodes, resizes and re-encodes a picture with the browser's own image
 * pipeline, following the plan jimp follows in the host (src/recognition/shrink-plan.ts), and
 * answers the JPEG as binary in a `shrunk` message; a cancelled request answers nothing.
 *
 * The picture is decoded once for all attempts, upright, and no larger than any attempt may need
 * (the plan's largest scale): a WebCodecs `ImageDecoder` asked for a smaller `desiredWidth` ×
 * `desiredHeight` decodes a JPEG at a reduced DCT scale (n/8), with the EXIF orientation carried
 * on the frame (`rotation`, `flip`) and applied by `createImageBitmap`. When that is not available
 * or not trustworthy (a PNG or WebP, no `ImageDecoder`, a frame not turned as the host says it
 * should be, or decoded smaller than asked), `createImageBitmap` of the bytes decodes at full size
 * with `imageOrientation: 'from-image'`. Each attempt draws that bitmap at its size on white (a
 * JPEG has no alpha) on an `OffscreenCanvas` (`imageSmoothingQuality: 'high'`) and encodes it with
 * `convertToBlob` as JPEG.
 */
import type { HostMessage } from '../../recognition/protocol';
import { JPEG_QUALITY, ShrinkPlan, maxScale, type Size } from '../../recognition/shrink-plan';
import { post } from './api';

type Shrink = Extract<HostMessage, { type: 'shrink' }>;

const cancelled = new Set<number>();
/** Requests this document has started (a request posted while it loaded may arrive twice). */
const started = new Set<number>();

/** Stops the shrink `requestId` at its next step (nothing is answered). */
export function cancelShrink(requestId: number): void {
  cancelled.add(requestId);
}

/** The picture's bytes as `postMessage` delivered them (a typed array, or its buffer). */
function asBytes(v: unknown): Uint8Array<ArrayBuffer> {
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  if (ArrayBuffer.isView(v) && v.buffer instanceof ArrayBuffer)
    return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  throw new Error(`the picture arrived as ${Object.prototype.toString.call(v)}, not as bytes`);
}

/** A decoded frame with the orientation metadata of WebCodecs (Chromium ≥ 125; not in TypeScript's DOM types yet). */
type OrientedFrame = VideoFrame & { rotation?: number; flip?: boolean };

/**
 * The picture to shrink, decoded once, upright, at least as large as any attempt may be (`cover`
 * of its upright size): at a reduced DCT scale by `ImageDecoder` when it can be trusted, else at
 * full size by `createImageBitmap`. Every attempt is drawn from it.
 */
class Picture {
  private decoded: Promise<ImageBitmap> | undefined;

  constructor(
    private readonly data: Uint8Array<ArrayBuffer>,
    private readonly mime: string,
    /** The upright size (EXIF orientation applied). */
    private readonly upright: Size,
    private readonly orientation: number,
    private readonly cover: number,
  ) {}

  /** The upright picture, decoded on first use. */
  bitmap(): Promise<ImageBitmap> {
    this.decoded ??= this.decode();
    return this.decoded;
  }

  private async decode(): Promise<ImageBitmap> {
    // Only a JPEG decodes at a reduced scale (n/8); other formats, and browsers without
    // WebCodecs' ImageDecoder, are decoded at full size.
    if (this.mime === 'image/jpeg' && this.cover < 1 && typeof ImageDecoder === 'function') {
      try {
        const frame = await this.reduced();
        if (frame)
          try {
            return await createImageBitmap(frame);
          } finally {
            frame.close();
          }
      } catch {
        // the full-size decode below
      }
    }
    return createImageBitmap(new Blob([this.data], { type: this.mime }), { imageOrientation: 'from-image' });
  }

  /** A frame of at least `cover` of the picture, oriented as the host says; undefined when it cannot be trusted. */
  private async reduced(): Promise<OrientedFrame | undefined> {
    // The DCT scales a JPEG decoder offers are n/8: ask for the next one up, never less than needed.
    const at = Math.min(1, Math.ceil(this.cover * 8 - 1e-9) / 8);
    const turns = this.orientation >= 5;
    const stored = turns ? { width: this.upright.height, height: this.upright.width } : this.upright;
    const decoder = new ImageDecoder({
      data: this.data,
      type: this.mime,
      desiredWidth: Math.ceil(stored.width * at),
      desiredHeight: Math.ceil(stored.height * at),
      preferAnimation: false,
    });
    try {
      const frame = (await decoder.decode({ frameIndex: 0 })).image as OrientedFrame;
      const flips = [2, 4, 5, 7].includes(this.orientation);
      const oriented =
        (this.orientation === 1 || frame.rotation !== undefined) &&
        Boolean(frame.flip) === flips &&
        frame.displayWidth > frame.displayHeight === this.upright.width > this.upright.height;
      const enough =
        frame.displayWidth >= Math.floor(this.upright.width * this.cover) &&
        frame.displayHeight >= Math.floor(this.upright.height * this.cover);
      if (oriented && enough) return frame;
      frame.close();
      return undefined;
    } finally {
      decoder.close();
    }
  }

  close(): void {
    void this.decoded?.then(
      (b) => b.close(),
      () => undefined,
    );
  }
}

/** Shrinks the picture of `m` under its limit and answers `shrunk` (the JPEG, or why not). */
export async function shrinkPicture(m: Shrink): Promise<void> {
  const { requestId } = m;
  if (started.has(requestId)) return;
  started.add(requestId);
  post({ type: 'shrinking', requestId });
  const stop = (): boolean => cancelled.delete(requestId);
  // Trace marks (the bench reads them; nothing else does): where the shrink's time goes.
  const mark = (what: string): void => void performance.mark(`shunong-shrink:${requestId}:${what}`);
  mark('start');
  let picture: Picture | undefined;
  try {
    const data = asBytes(m.bytes);
    const plan = new ShrinkPlan(m.width, m.height, data.byteLength, m.maxBytes);
    picture = new Picture(data, m.mime, m, m.orientation, maxScale(m.width, m.height));
    let kept: { blob: Blob; size: Size } | undefined;
    let attempt = 0;
    for (let size: Size | undefined = plan.size; size; attempt++) {
      const { width, height } = size;
      const bitmap = await picture.bitmap();
      if (stop()) return;
      const turned = bitmap.width > bitmap.height !== m.width > m.height && bitmap.width !== bitmap.height;
      if (turned || bitmap.width < width || bitmap.height < height)
        throw new Error(`the browser decoded ${bitmap.width} × ${bitmap.height}, not ${m.width} × ${m.height}`);
      const canvas = new OffscreenCanvas(width, height);
      const ctx = canvas.getContext('2d');
      if (!ctx) throw new Error('no 2D canvas');
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, width, height);
      ctx.imageSmoothingEnabled = true;
      ctx.imageSmoothingQuality = 'high';
      ctx.drawImage(bitmap, 0, 0, width, height);
      mark(`decoded:${attempt}`);
      const out = await canvas.convertToBlob({ type: 'image/jpeg', quality: JPEG_QUALITY / 100 });
      mark(`encoded:${attempt}`);
      if (stop()) return;
      if (out.type !== 'image/jpeg') throw new Error(`the browser encoded ${out.type || 'nothing'}, not JPEG`);
      const verdict = plan.report(out.size);
      if (verdict.keep) kept = { blob: out, size };
      size = verdict.next?.size;
    }
    if (!kept) {
      post({ type: 'shrunk', requestId, error: `could not bring the image under ${m.maxBytes} bytes` });
      return;
    }
    const bytes = new Uint8Array(await kept.blob.arrayBuffer());
    if (stop()) return;
    post({ type: 'shrunk', requestId, bytes, ...kept.size });
    mark('posted');
  } catch (err) {
    if (stop()) return;
    post({ type: 'shrunk', requestId, error: err instanceof Error ? err.message : String(err) });
  } finally {
    picture?.close();
  }
}
