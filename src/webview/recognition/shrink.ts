/**
 * The webview's shrinker: decodes, resizes and re-encodes a picture with the browser's own image
 * pipeline, following the plan jimp follows in the host (src/recognition/shrinkPlan.ts), and
 * answers the JPEG as binary in a `shrunk` message; a cancelled request answers nothing.
 *
 * The bytes come in parts (`shrinkPart`), which the host sends once this document has said
 * `shrinking` for the request's delivery. The picture is decoded once for all attempts, upright,
 * and no larger than any attempt may need (the plan's largest scale): a JPEG by a WebCodecs
 * `ImageDecoder` fed the parts as a stream, so that it decodes while the later parts are still on
 * their way; asked for a smaller `desiredWidth` × `desiredHeight` it decodes at a reduced DCT
 * scale (n/8). The EXIF orientation is carried on the frame (`rotation`, `flip`): a frame not
 * turned is drawn as it is, a turned one through `createImageBitmap`. When that is not available
 * or not trustworthy (a PNG or WebP, no `ImageDecoder`, a turned JPEG at full size, a frame not
 * turned as the host says it should be, or decoded smaller than asked), `createImageBitmap` of all
 * the bytes, once in, decodes at full size with `imageOrientation: 'from-image'`.
 * Each attempt draws that picture at its size on white (a JPEG has no alpha) on an
 * `OffscreenCanvas` (`imageSmoothingQuality: 'high'`) and encodes it with `convertToBlob` as JPEG;
 * the pixels of the one kept stay for the preview (`takePixels`).
 */
import type { HostMessage } from '../../recognition/protocol';
import { JPEG_QUALITY, ShrinkPlan, maxScale, type Size } from '../../recognition/shrinkPlan';
import { post } from './api';
import { Incoming } from './incoming';

type Shrink = Extract<HostMessage, { type: 'shrink' }>;
type ShrinkPart = Extract<HostMessage, { type: 'shrinkPart' }>;

const cancelled = new Set<number>();
/** Requests this document has started (a request posted while it loaded may arrive twice). */
const started = new Set<number>();
/** The bytes of the started requests, as their parts arrive. */
const arriving = new Map<number, Incoming>();

/** The pixels of the last picture this document shrank, drawn as they were encoded (./figure shows them). */
let lastPixels: { requestId: number; bitmap: ImageBitmap } | undefined;

/** The pixels of the picture shrunk for `requestId`, handed over once; undefined when gone. */
export function takePixels(requestId: number): ImageBitmap | undefined {
  if (lastPixels?.requestId !== requestId) return undefined;
  const { bitmap } = lastPixels;
  lastPixels = undefined;
  return bitmap;
}

/** Stops the shrink `requestId` at its next step (nothing is answered). */
export function cancelShrink(requestId: number): void {
  cancelled.add(requestId);
  arriving.get(requestId)?.fail(new Error('cancelled'));
}

/** Takes a part of a started request's bytes (a part of another delivery of it is ignored). */
export function receivePart(m: ShrinkPart): void {
  const incoming = arriving.get(m.requestId);
  if (incoming?.delivery === m.delivery) incoming.add(m.index, m.bytes);
}

/** A decoded picture to draw from (a bitmap, or a frame not turned), at `width` × `height`. */
interface Decoded {
  source: CanvasImageSource;
  width: number;
  height: number;
  close(): void;
}

const asDecoded = (b: ImageBitmap): Decoded => ({
  source: b,
  width: b.width,
  height: b.height,
  close: () => b.close(),
});

/** A decoded frame with the orientation metadata of WebCodecs (Chromium ≥ 125; not in TypeScript's DOM types yet). */
type OrientedFrame = VideoFrame & { rotation?: number; flip?: boolean };

/**
 * The picture to shrink, decoded once, upright, at least as large as any attempt may be (`cover`
 * of its upright size): a JPEG by `ImageDecoder` from the parts as they arrive (at a reduced DCT
 * scale when `cover` allows) when it can be trusted, else, and any other format, by
 * `createImageBitmap` of all the bytes at full size. Every attempt is drawn from it.
 */
class Picture {
  private decoded: Promise<Decoded> | undefined;

  constructor(
    private readonly data: Incoming,
    private readonly mime: string,
    /** The upright size (EXIF orientation applied). */
    private readonly upright: Size,
    private readonly orientation: number,
    private readonly cover: number,
  ) {}

  /** The upright picture, decoded on first use. */
  pixels(): Promise<Decoded> {
    this.decoded ??= this.decode();
    return this.decoded;
  }

  private async decode(): Promise<Decoded> {
    // A JPEG is decoded by ImageDecoder while its parts arrive, at a reduced scale when it may be;
    // other formats, and browsers without WebCodecs' ImageDecoder, by createImageBitmap once all
    // the bytes are in. The DCT scales are n/8: the next one up, never less than needed.
    const at = Math.min(1, Math.ceil(this.cover * 8 - 1e-9) / 8);
    // A frame to turn is turned by createImageBitmap only when decoded at a reduced scale
    // (Chromium 156 leaves a full-size frame as stored): a turned JPEG at full size waits for all
    // its bytes and goes to createImageBitmap below.
    if (this.mime === 'image/jpeg' && typeof ImageDecoder === 'function' && (this.orientation === 1 || at < 1)) {
      try {
        const frame = await this.frame(at);
        // A frame neither turned nor flipped is drawn as it is (no copy into a bitmap first).
        if (frame && !frame.rotation && !frame.flip)
          return { source: frame, width: frame.displayWidth, height: frame.displayHeight, close: () => frame.close() };
        if (frame)
          try {
            const bitmap = await createImageBitmap(frame);
            if (bitmap.width === frame.displayWidth && bitmap.height === frame.displayHeight) return asDecoded(bitmap);
            bitmap.close(); // not turned: the full-size decode below
          } finally {
            frame.close();
          }
      } catch {
        // the full-size decode below (which fails too when the bytes did not arrive)
      }
    }
    const parts = await this.data.complete;
    return asDecoded(await createImageBitmap(new Blob(parts, { type: this.mime }), { imageOrientation: 'from-image' }));
  }

  /** A frame of at least `cover` of the picture, oriented as the host says; undefined when it cannot be trusted. */
  private async frame(at: number): Promise<OrientedFrame | undefined> {
    const turns = this.orientation >= 5;
    const stored = turns ? { width: this.upright.height, height: this.upright.width } : this.upright;
    const decoder = new ImageDecoder({
      data: this.data.stream(),
      type: this.mime,
      ...(at < 1 ? { desiredWidth: Math.ceil(stored.width * at), desiredHeight: Math.ceil(stored.height * at) } : {}),
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
  const data = new Incoming(m.delivery, m.parts, m.byteLength);
  arriving.set(requestId, data);
  post({ type: 'shrinking', requestId, delivery: m.delivery });
  const stop = (): boolean => cancelled.delete(requestId);
  let picture: Picture | undefined;
  try {
    const plan = new ShrinkPlan(m.width, m.height, m.byteLength, m.maxBytes);
    picture = new Picture(data, m.mime, m, m.orientation, maxScale(m.width, m.height));
    let kept: { blob: Blob; size: Size; canvas: OffscreenCanvas } | undefined;
    let size: Size | undefined = plan.size;
    while (size) {
      const { width, height } = size;
      const decoded = await picture.pixels();
      if (stop()) return;
      const turned = decoded.width > decoded.height !== m.width > m.height && decoded.width !== decoded.height;
      if (turned || decoded.width < width || decoded.height < height)
        throw new Error(`the browser decoded ${decoded.width} × ${decoded.height}, not ${m.width} × ${m.height}`);
      const canvas = new OffscreenCanvas(width, height);
      const ctx = canvas.getContext('2d');
      if (!ctx) throw new Error('no 2D canvas');
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, width, height);
      ctx.imageSmoothingEnabled = true;
      ctx.imageSmoothingQuality = 'high';
      ctx.drawImage(decoded.source, 0, 0, width, height);
      const out = await canvas.convertToBlob({ type: 'image/jpeg', quality: JPEG_QUALITY / 100 });
      if (stop()) return;
      if (out.type !== 'image/jpeg') throw new Error(`the browser encoded ${out.type || 'nothing'}, not JPEG`);
      const verdict = plan.report(out.size);
      if (verdict.keep) kept = { blob: out, size, canvas };
      size = verdict.next?.size;
    }
    if (!kept) {
      post({ type: 'shrunk', requestId, error: `could not bring the image under ${m.maxBytes} bytes` });
      return;
    }
    const bytes = new Uint8Array(await kept.blob.arrayBuffer());
    if (stop()) return;
    post({ type: 'shrunk', requestId, bytes, ...kept.size });
    // What the preview will show: these pixels, not the JPEG decoded again while the platform works.
    lastPixels?.bitmap.close();
    lastPixels = { requestId, bitmap: kept.canvas.transferToImageBitmap() };
  } catch (err) {
    if (stop()) return;
    post({ type: 'shrunk', requestId, error: err instanceof Error ? err.message : String(err) });
  } finally {
    arriving.delete(requestId);
    data.fail(new Error('the shrink ended'));
    picture?.close();
  }
}
