/**
 * The one message protocol between the recognition panel (host, src/features/recognition/panel.ts)
 * and its webview (src/webview/recognition/, TypeScript bundled into media/recognition/main.js,
 * which imports these types). The webview starts with `ready`; the host answers `init` and then the
 * current state, and again after every reload of the webview.
 */

/** The three recognition models of crop_growth_recognize (`model_id` equals the type). */
export type RecognitionType = 'tea_count' | 'tea_stage' | 'wheat_stage';

/** All recognition types, in the order they are offered. */
export const RECOGNITION_TYPES: readonly RecognitionType[] = ['tea_count', 'tea_stage', 'wheat_stage'];

/** Narrows a value to a recognition type. */
export function isRecognitionType(v: unknown): v is RecognitionType {
  return typeof v === 'string' && (RECOGNITION_TYPES as readonly string[]).includes(v);
}

/** Every string the webview shows besides server data; localised by the host. */
export interface WebviewStrings {
  recognitionType: string;
  rerun: string;
  retry: string;
  insert: string;
  save: string;
  zoomFit: string;
  zoomActual: string;
  zoomIn: string;
  zoomOut: string;
  zoomToolbar: string;
  zoomLevel: string;
  loading: string;
  summary: string;
  detections: string;
  noDetections: string;
  colIndex: string;
  colClass: string;
  colConfidence: string;
  colBox: string;
  lowConfidenceMark: string;
  imageUnavailable: string;
  imageAlt: string;
  adviceTitle: string;
  renderFailed: string;
}

/** One box, in the pixel space of the previewed image. */
export interface BoxView {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  className: string;
  confidence: number;
  /** Confidence under 0.5. */
  low: boolean;
}

/**
 * A picture for the webview: `src` is a webview resource URI (`webview.asWebviewUri` of the file, or
 * of a copy in the extension's storage when the bytes sent differ from any file), or a data URI only
 * when no such file exists. `width` × `height` is its stored pixel size (the space of the boxes).
 */
export interface ImageView {
  src: string;
  width: number;
  height: number;
  /**
   * The webview's shrink request whose answer this picture is: the webview shows the pixels it
   * drew and encoded for it, when it still has them, instead of loading and decoding `src` again
   * while the platform works.
   */
  pixels?: number;
}

/** A label / value line of the summary. */
export interface SummaryRow {
  label: string;
  value: string;
}

/** Everything the webview shows for a result. */
export interface ResultView {
  /** Increases with every run of this panel (a late answer of an older run is ignored). */
  run: number;
  title: string;
  recognitionType: RecognitionType;
  /** The previewed picture (the bytes the platform analysed). */
  image: ImageView | undefined;
  boxes: BoxView[];
  /** The headline: "12 tea buds", "Growth stage: 拔节期", "No clear growth stage in this picture". */
  headline: string;
  /** recognized_result was null. */
  noConclusion: boolean;
  summary: SummaryRow[];
  /** Low-confidence warning with retake advice (empty when none). */
  warnings: string[];
  /** How the image was sent (fallback download, shrinking), for the user's information. */
  notes: string[];
  /** The platform's shooting advice, shown with no conclusion or low confidence. */
  advice: string[];
  /** Accessible description of the annotated picture. */
  figureLabel: string;
}

/** A recognition type offered for a re-run. */
export interface TypeOption {
  id: RecognitionType;
  label: string;
}

/**
 * A request to shrink a picture in the webview (the browser's decoder, resizer and JPEG encoder):
 * `bytes` as read (posted as binary, in parts, not base64), `width` × `height` its size once
 * upright (EXIF orientation applied), `orientation` that EXIF orientation (1–8; 1 for a PNG or
 * WebP), `maxBytes` the limit to come under.
 */
export interface ShrinkRequest {
  bytes: Uint8Array;
  mime: string;
  width: number;
  height: number;
  orientation: number;
  maxBytes: number;
}

/**
 * The size of the parts a picture to shrink travels in: the webview decodes a JPEG while its later
 * parts are still on their way, instead of waiting for one message of the whole file.
 */
export const SHRINK_PART_BYTES = 1024 * 1024;

/** Host → webview. */
export type HostMessage =
  | { type: 'init'; strings: WebviewStrings; types: TypeOption[] }
  /** A run started; `image`, when known, is the picture being analysed (shown while the platform works). */
  | {
      type: 'loading';
      run: number;
      title: string;
      recognitionType: RecognitionType;
      message: string;
      image?: ImageView;
    }
  | { type: 'result'; view: ResultView }
  | { type: 'error'; run: number; title: string; recognitionType: RecognitionType; message: string; retryable: boolean }
  | { type: 'status'; message: string; error: boolean }
  | { type: 'renderAnnotated'; requestId: number }
  /**
   * A picture to shrink: the request without its bytes (`byteLength` of them, in `parts` parts).
   * The host posts the parts of this `delivery` once the webview has said `shrinking` for it; a
   * request is sent again, as a new delivery, after a reload.
   */
  | ({ type: 'shrink'; requestId: number; delivery: number; byteLength: number; parts: number } & Omit<
      ShrinkRequest,
      'bytes'
    >)
  /** Part `index` of the bytes of a shrink request's delivery (binary, at most {@link SHRINK_PART_BYTES}). */
  | { type: 'shrinkPart'; requestId: number; delivery: number; index: number; bytes: Uint8Array }
  /** The shrink `requestId` was cancelled: stop, answer nothing. */
  | { type: 'cancelShrink'; requestId: number };

/** Webview → host. */
export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'rendered'; run: number; boxes: number; ms: number }
  | { type: 'insert' }
  | { type: 'save' }
  | { type: 'retry' }
  | { type: 'rerun'; recognitionType: RecognitionType }
  | { type: 'annotated'; requestId: number; png?: string; error?: string }
  /**
   * The shrink request `requestId` arrived in its `delivery` (a request posted while the webview
   * loaded is then not sent again): send its bytes.
   */
  | { type: 'shrinking'; requestId: number; delivery: number }
  /** The answer to `shrink`: a JPEG of `width` × `height` (upright), or why not. */
  | { type: 'shrunk'; requestId: number; bytes?: Uint8Array; width?: number; height?: number; error?: string };

/** Binary data as it may arrive through `postMessage` (a typed array or its buffer). */
function binary(v: unknown): Uint8Array | undefined {
  if (v instanceof Uint8Array) return v;
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  return undefined;
}

const isSide = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;

/** Validates a message from the webview (it is untrusted input). */
export function parseWebviewMessage(m: unknown): WebviewMessage | undefined {
  if (typeof m !== 'object' || m === null) return undefined;
  const o = m as Record<string, unknown>;
  switch (o['type']) {
    case 'ready':
    case 'insert':
    case 'save':
    case 'retry':
      return { type: o['type'] };
    case 'rendered':
      return typeof o['run'] === 'number' && typeof o['boxes'] === 'number' && typeof o['ms'] === 'number'
        ? { type: 'rendered', run: o['run'], boxes: o['boxes'], ms: o['ms'] }
        : undefined;
    case 'rerun':
      return isRecognitionType(o['recognitionType'])
        ? { type: 'rerun', recognitionType: o['recognitionType'] }
        : undefined;
    case 'annotated': {
      if (typeof o['requestId'] !== 'number') return undefined;
      const msg: WebviewMessage = { type: 'annotated', requestId: o['requestId'] };
      if (typeof o['png'] === 'string') msg.png = o['png'];
      if (typeof o['error'] === 'string') msg.error = o['error'];
      return msg;
    }
    case 'shrinking':
      return typeof o['requestId'] === 'number' && typeof o['delivery'] === 'number'
        ? { type: 'shrinking', requestId: o['requestId'], delivery: o['delivery'] }
        : undefined;
    case 'shrunk': {
      if (typeof o['requestId'] !== 'number') return undefined;
      const bytes = binary(o['bytes']);
      if (bytes && isSide(o['width']) && isSide(o['height']))
        return { type: 'shrunk', requestId: o['requestId'], bytes, width: o['width'], height: o['height'] };
      return {
        type: 'shrunk',
        requestId: o['requestId'],
        error: typeof o['error'] === 'string' ? o['error'] : 'no picture in the answer',
      };
    }
    default:
      return undefined;
  }
}
