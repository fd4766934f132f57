/**
 * The recognition flow without `vscode`: an image source and a type in, a validated result out.
 * Local bytes go as bare base64 (checked and, over 4 MB, shrunk first); URLs go as `imageUrl`
 * and, when the platform reports it cannot download them, are downloaded here and sent once
 * more as base64.
 */
import { imageSize, jpegOrientation, prepareForUpload, type ImageFormat, type PixelSize, type Shrinker } from './image';
import { isPlatformError } from '../shunong/errors';
import type { DownloadedImage } from './download';
import type { Recognition, RecognitionType } from './types';

/** Where the picture comes from. */
export type ImageSource =
  | { kind: 'bytes'; bytes: Uint8Array; /** file name, for display and saved copies */ name: string }
  | { kind: 'url'; url: string };

/** The arguments of crop_growth_recognize (exactly one image field, always a type). */
export type RecognizeArgs =
  { imageUrl: string; recognitionType: RecognitionType } | { imageBase64: string; recognitionType: RecognitionType };

/** Something the user should be told about the way the image was sent. */
export type FlowNote =
  | { kind: 'shrunk'; fromBytes: number; toBytes: number; width: number; height: number }
  | { kind: 'oriented'; orientation: number }
  | { kind: 'converted'; from: ImageFormat; toBytes: number; width: number; height: number }
  | { kind: 'fallback'; status: number | undefined; timedOut: boolean; reason: string };

/** What the flow needs from outside. */
export interface FlowDeps {
  /** Calls crop_growth_recognize. */
  call(args: RecognizeArgs, signal?: AbortSignal): Promise<Recognition>;
  /** Downloads an image (no credentials, size-capped, image type checked). */
  download(url: string, signal?: AbortSignal): Promise<DownloadedImage>;
  /** Loads the shrinker on demand (jimp is heavy; it is loaded only when needed). */
  shrinker(): Shrinker | undefined;
  /** Told as soon as something noteworthy happens (e.g. to update a progress message). */
  onNote?(note: FlowNote): void;
  /**
   * Told, before the call, which picture is being sent (so it can be shown while the platform
   * works). `asGiven` is true when `preview.bytes` are the bytes given to the flow, unchanged.
   */
  onPreview?(preview: PreviewImage, asGiven: boolean): void;
}

/** The picture shown in the preview: the bytes the platform analysed, so the boxes fit. */
export interface PreviewImage {
  bytes: Uint8Array;
  format: ImageFormat;
  /** Stored pixel size (the space of the boxes). */
  size: PixelSize | undefined;
}

/** The outcome of a successful recognition. */
export interface FlowOutcome {
  result: Recognition;
  type: RecognitionType;
  sentAs: 'url' | 'base64';
  /** What to show; undefined when a URL was recognised and could not be fetched for display. */
  preview: PreviewImage | undefined;
  /** The original picture as the user gave it (for the saved copy), when we have its bytes. */
  original: { bytes: Uint8Array; format: ImageFormat } | undefined;
  notes: FlowNote[];
}

/**
 * Runs one recognition. Throws `ImageRefusedError` (before any request), `DownloadError` (our own
 * fallback download failed) or the platform's typed errors.
 */
export async function recognize(
  source: ImageSource,
  type: RecognitionType,
  deps: FlowDeps,
  signal?: AbortSignal,
): Promise<FlowOutcome> {
  const notes: FlowNote[] = [];
  const note = (n: FlowNote): void => {
    notes.push(n);
    deps.onNote?.(n);
  };
  if (source.kind === 'bytes') return { ...(await sendBytes(source.bytes, type, deps, note, signal)), notes };

  let result: Recognition;
  try {
    result = await deps.call({ imageUrl: source.url, recognitionType: type }, signal);
  } catch (err) {
    if (!isPlatformError(err, 'image-download')) throw err;
    note({ kind: 'fallback', status: err.status, timedOut: err.timedOut, reason: err.reason });
    const downloaded = await deps.download(source.url, signal);
    return { ...(await sendBytes(downloaded.bytes, type, deps, note, signal)), notes };
  }
  // Recognised from the URL: fetch the same picture for the preview (best effort).
  let preview: PreviewImage | undefined;
  let original: FlowOutcome['original'];
  for (const url of [source.url, result.data.original_image]) {
    if (!url) continue;
    try {
      const got = await deps.download(url, signal);
      preview = { bytes: got.bytes, format: got.format, size: imageSize(got.bytes) };
      original = { bytes: got.bytes, format: got.format };
      break;
    } catch {
      if (signal?.aborted) throw signal.reason;
    }
  }
  return { result, type, sentAs: 'url', preview, original, notes };
}

async function sendBytes(
  bytes: Uint8Array,
  type: RecognitionType,
  deps: FlowDeps,
  note: (n: FlowNote) => void,
  signal: AbortSignal | undefined,
): Promise<Omit<FlowOutcome, 'notes'>> {
  // A JPEG whose EXIF orientation turns it is re-encoded upright, so the platform and the preview
  // see the same pixels (the boxes are in stored-pixel coordinates).
  const orientation = jpegOrientation(bytes); // 1 for anything but a JPEG
  const prepared = await prepareForUpload(bytes, {
    shrinker: () => deps.shrinker(),
    reencode: orientation !== 1,
    ...(signal ? { signal } : {}),
  });
  if (prepared.reencoded?.why === 'size')
    note({
      kind: 'shrunk',
      fromBytes: prepared.reencoded.fromBytes,
      toBytes: prepared.reencoded.toBytes,
      width: prepared.reencoded.width,
      height: prepared.reencoded.height,
    });
  if (prepared.reencoded?.why === 'format')
    note({
      kind: 'converted',
      from: prepared.originalFormat,
      toBytes: prepared.reencoded.toBytes,
      width: prepared.reencoded.width,
      height: prepared.reencoded.height,
    });
  // re-encoded for any reason, a turned JPEG comes out upright
  if (prepared.reencoded && orientation !== 1) note({ kind: 'oriented', orientation });
  // Sizes come from the headers (no decoding).
  const preview: PreviewImage = { bytes: prepared.bytes, format: prepared.format, size: imageSize(prepared.bytes) };
  deps.onPreview?.(preview, prepared.bytes === bytes);
  // Cancelled while shrinking (or just after): nothing is sent.
  signal?.throwIfAborted();
  const result = await deps.call({ imageBase64: prepared.base64, recognitionType: type }, signal);
  return {
    result,
    type,
    sentAs: 'base64',
    preview,
    original: { bytes: prepared.original, format: prepared.originalFormat },
  };
}
