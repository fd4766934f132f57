/**
 * The webview's shrinker: decodes, resizes and re-encodes a picture with the browser's own image
 * pipeline — `createImageBitmap` with the EXIF orientation applied (`imageOrientation:
 * 'from-image'`) and the resize done while decoding (`resizeQuality: 'high'`), drawn on white (a
 * JPEG has no alpha) on an `OffscreenCanvas`, encoded by `convertToBlob` as JPEG — following the
 * plan jimp follows in the host (src/recognition/shrink-plan.ts). The JPEG goes back as binary in a
 * `shrunk` message; a cancelled request answers nothing.
 */
import type { HostMessage } from '../../recognition/protocol';
import { JPEG_QUALITY, MAX_ATTEMPTS, firstScale, nextScale, scaledSize } from '../../recognition/shrink-plan';
import { post } from './api';

type Shrink = Extract<HostMessage, { type: 'shrink' }>;

const cancelled = new Set<number>();

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

/** Shrinks the picture of `m` under its limit and answers `shrunk` (the JPEG, or why not). */
export async function shrinkPicture(m: Shrink): Promise<void> {
  const { requestId } = m;
  const stop = (): boolean => cancelled.delete(requestId);
  try {
    const data = asBytes(m.bytes);
    const source = new Blob([data], { type: m.mime });
    let scale = firstScale(m.width, m.height, data.byteLength, m.maxBytes);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const { width, height } = scaledSize(m.width, m.height, scale);
      const bitmap = await createImageBitmap(source, {
        imageOrientation: 'from-image',
        resizeWidth: width,
        resizeHeight: height,
        resizeQuality: 'high',
      });
      if (stop()) return bitmap.close();
      if (bitmap.width !== width || bitmap.height !== height) {
        bitmap.close();
        throw new Error(`the browser decoded ${bitmap.width} × ${bitmap.height}, not ${width} × ${height}`);
      }
      const canvas = new OffscreenCanvas(width, height);
      const ctx = canvas.getContext('2d');
      if (!ctx) throw new Error('no 2D canvas');
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, width, height);
      ctx.drawImage(bitmap, 0, 0);
      bitmap.close();
      const out = await canvas.convertToBlob({ type: 'image/jpeg', quality: JPEG_QUALITY / 100 });
      if (stop()) return;
      if (out.type !== 'image/jpeg') throw new Error(`the browser encoded ${out.type || 'nothing'}, not JPEG`);
      if (out.size <= m.maxBytes) {
        const bytes = new Uint8Array(await out.arrayBuffer());
        if (stop()) return;
        post({ type: 'shrunk', requestId, bytes, width, height });
        return;
      }
      scale = nextScale(scale, out.size, m.maxBytes);
    }
    post({ type: 'shrunk', requestId, error: `could not bring the image under ${m.maxBytes} bytes` });
  } catch (err) {
    if (stop()) return;
    post({ type: 'shrunk', requestId, error: err instanceof Error ? err.message : String(err) });
  }
}
