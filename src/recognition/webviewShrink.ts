/**
 * The shrinker used when a recognition runs into a preview panel: the panel's webview shrinks the
 * picture with the browser's own decoder, resizer and JPEG encoder (src/webview/recognition/shrink.ts,
 * several times faster than jimp + WebAssembly in the extension host), and the host checks what
 * comes back before it is sent. Whenever the webview cannot (no panel, no answer, a refusal, an
 * answer that fails the checks), jimp + WebAssembly (./resize) do it in the host, so a picture is
 * never sent unshrunk. Pure: the panel is reached through {@link WebviewShrinkPort}.
 */
import { imageSize, jpegOrientation, mimeOf, orientedSize, sniffImageFormat, type Shrinker } from './image';
import type { ShrinkRequest } from './protocol';
import type { WebviewShrunk } from './panelHost';

/** How the picture was shrunk, for the notes and the bench. */
export type ShrunkBy = 'webview' | 'fallback';

/** The panel's side: undefined when there is no webview to ask. */
export type WebviewShrinkPort = ((request: ShrinkRequest, signal?: AbortSignal) => Promise<WebviewShrunk>) | undefined;

/**
 * A shrinker asking the webview first and `fallback` (loaded only when needed) otherwise.
 * `onShrunk` is told which of the two did it; `onFallback` why the webview's answer was not used.
 */
export function webviewFirst(
  port: WebviewShrinkPort,
  fallback: () => Shrinker,
  hooks: { onShrunk?(by: ShrunkBy): void; onFallback?(reason: string): void } = {},
): Shrinker {
  return async (bytes, format, maxBytes, signal) => {
    const stored = imageSize(bytes);
    if (port && stored) {
      const orientation = jpegOrientation(bytes); // 1 for anything but a JPEG
      const upright = orientedSize(stored, orientation);
      try {
        const got = await port({ bytes, mime: mimeOf(format), ...upright, orientation, maxBytes }, signal);
        const problem = checkShrunk(got, upright, maxBytes);
        if (!problem) {
          hooks.onShrunk?.('webview');
          return { bytes: got.bytes, format: 'jpeg', width: got.width, height: got.height };
        }
        hooks.onFallback?.(problem);
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        hooks.onFallback?.(err instanceof Error ? err.message : String(err));
      }
    }
    const out = await fallback()(bytes, format, maxBytes, signal);
    hooks.onShrunk?.('fallback');
    return out;
  };
}

/**
 * Why a picture the webview answered cannot be sent, or undefined when it can: it must be a JPEG
 * of the size it claims, under `maxBytes`, with the upright picture's aspect (within one pixel).
 */
export function checkShrunk(
  got: WebviewShrunk,
  upright: { width: number; height: number },
  maxBytes: number,
): string | undefined {
  if (sniffImageFormat(got.bytes) !== 'jpeg') return 'the answer is not a JPEG';
  if (got.bytes.length > maxBytes) return `the answer is ${got.bytes.length} bytes, over ${maxBytes}`;
  const size = imageSize(got.bytes);
  if (!size || size.width !== got.width || size.height !== got.height)
    return `the answer is not the ${got.width} × ${got.height} it claims`;
  // Aspect within one pixel: the height the upright picture would have at this width.
  const expected = (got.width * upright.height) / upright.width;
  if (Math.abs(expected - got.height) > 1)
    return `the answer (${got.width} × ${got.height}) lost the aspect of ${upright.width} × ${upright.height}`;
  return undefined;
}
