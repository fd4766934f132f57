/**
 * The recognition feature's user-facing text: type names, the webview's strings, failures (a
 * refusal told in the words the chat's tool uses too: src/features/shared/recognition/picture.ts),
 * the notes on how a picture was sent, the result view and the Markdown summary's words.
 */
import vscode = require('vscode');
import { showBidi } from '../../text/bidi';
import * as path from 'node:path';
import { describeError, isPlatformError } from '../shared/errors';
import { DownloadError } from '../../recognition/download';
import type { FlowNote, FlowOutcome } from '../../recognition/flow';
import { ImageRefusedError, MAX_INPUT_BYTES } from '../../recognition/image';
import type { ImageView, ResultView, TypeOption, WebviewStrings } from '../../recognition/protocol';
import { LOW_CONFIDENCE, shootingAdvice, typeNameIn, type RecognitionSummary } from '../../recognition/summary';
import { RECOGNITION_TYPES, type RecognitionType } from '../../recognition/types';
import { describeRefusal } from '../shared/recognition/picture';
import type { Source } from './state';

/** The localised name of a recognition type. */
export function typeName(type: RecognitionType): string {
  return typeNameIn(type, vscode.l10n);
}

/** Every string the webview shows, localised. */
export function webviewStrings(): WebviewStrings {
  return {
    recognitionType: vscode.l10n.t('Recognition type'),
    rerun: vscode.l10n.t('Re-run'),
    retry: vscode.l10n.t('Retry'),
    insert: vscode.l10n.t('Insert Summary into Bulletin'),
    save: vscode.l10n.t('Save Images to Workspace'),
    zoomFit: vscode.l10n.t('Fit'),
    zoomActual: vscode.l10n.t('Actual size (100%)'),
    zoomIn: vscode.l10n.t('Zoom in'),
    zoomOut: vscode.l10n.t('Zoom out'),
    zoomToolbar: vscode.l10n.t('Zoom'),
    zoomLevel: vscode.l10n.t('Zoom level'),
    loading: vscode.l10n.t('Recognizing…'),
    summary: vscode.l10n.t('Summary'),
    detections: vscode.l10n.t('Detections'),
    noDetections: vscode.l10n.t('No detections.'),
    colIndex: '#',
    colClass: vscode.l10n.t('Class'),
    colConfidence: vscode.l10n.t('Confidence'),
    colBox: vscode.l10n.t('Box (x1, y1, x2, y2)'),
    lowConfidenceMark: vscode.l10n.t('(low)'),
    imageUnavailable: vscode.l10n.t(
      'The picture could not be fetched for the preview; the result is shown without it.',
    ),
    imageAlt: vscode.l10n.t('The recognised photo'),
    adviceTitle: vscode.l10n.t('Shooting advice'),
    renderFailed: vscode.l10n.t('The annotated picture could not be drawn.'),
  };
}

/** The recognition types offered for a re-run. */
export function typeOptions(): TypeOption[] {
  return RECOGNITION_TYPES.map((id) => ({ id, label: `${typeName(id)} (${id})` }));
}

/** The panel's title: the picture's short name and the type. */
export function panelTitle(source: Source, type: RecognitionType): string {
  const short = source.url ? source.stem : path.posix.basename(source.uri?.path ?? source.title);
  return vscode.l10n.t('{0} · {1}', short, typeName(type));
}

/** Why our own download of a URL failed. */
function describeDownload(err: DownloadError): string {
  switch (err.reason) {
    case 'http':
      return vscode.l10n.t('Downloading {0} failed: HTTP {1}.', err.url, String(err.status ?? ''));
    case 'not-image':
      return vscode.l10n.t('{0} did not return an image.', err.url);
    case 'too-large':
      return vscode.l10n.t(
        '{0} is larger than the {1} MB this extension downloads.',
        err.url,
        String(MAX_INPUT_BYTES / (1024 * 1024)),
      );
    case 'timeout':
      return vscode.l10n.t('Downloading {0} timed out.', err.url);
    case 'bad-url':
      return vscode.l10n.t('{0} is not an http(s) URL the extension can download.', err.url);
    case 'cancelled':
      return vscode.l10n.t('Cancelled.');
    case 'network':
      return vscode.l10n.t('{0} could not be downloaded (network error).', err.url);
  }
}

/** A user-facing sentence about how the image was sent. */
export function noteText(n: FlowNote): string {
  switch (n.kind) {
    case 'fallback':
      return vscode.l10n.t(
        'The platform could not download the image ({0}); the extension downloaded it itself and sent it as data.',
        n.timedOut ? vscode.l10n.t('timed out') : n.status !== undefined ? `HTTP ${n.status}` : n.reason,
      );
    case 'shrunk':
      return vscode.l10n.t(
        'The image ({0} MB) was shrunk to {1} MB ({2} × {3}) before upload: the platform takes at most 4 MB.',
        (n.fromBytes / 1048576).toFixed(1),
        (n.toBytes / 1048576).toFixed(1),
        String(n.width),
        String(n.height),
      );
    case 'oriented':
      return vscode.l10n.t('The photo was turned upright (EXIF orientation {0}) before upload.', String(n.orientation));
    case 'converted':
      return vscode.l10n.t(
        'The {0} image was converted to JPEG ({1} × {2}, {3} MB) before upload, a format the platform documents.',
        n.from.toUpperCase(),
        String(n.width),
        String(n.height),
        (n.toBytes / 1048576).toFixed(1),
      );
  }
}

/** The platform's shooting advice (拍摄建议) relevant to a type. */
function adviceFor(type: RecognitionType): string[] {
  const a = shootingAdvice(vscode.l10n);
  return [a.general, type === 'tea_count' ? a.teaCount : a.stages];
}

/** The result's headline: "12 tea buds", "Growth stage: 拔节期", or no conclusion. */
function headline(s: RecognitionSummary): string {
  if (s.kind === 'count')
    return s.type === 'tea_count'
      ? vscode.l10n.t('{0} tea buds', String(s.total))
      : vscode.l10n.t('{0} detections', String(s.total));
  if (s.kind === 'stage' && s.stage) return vscode.l10n.t('Growth stage: {0}', s.stage);
  return vscode.l10n.t('No clear growth stage in this picture');
}

/** Builds what the webview shows. */
export function resultView(
  source: Source,
  o: FlowOutcome,
  s: RecognitionSummary,
  run: number,
  image: ImageView | undefined,
): ResultView {
  const d = o.result.data;
  const rows = summaryRows(o, s);
  const warnings = resultWarnings(s);
  return {
    run,
    title: source.title,
    recognitionType: s.type,
    image,
    boxes: d.detections.map((x) => ({
      x1: x.bbox[0] ?? 0,
      y1: x.bbox[1] ?? 0,
      x2: x.bbox[2] ?? 0,
      y2: x.bbox[3] ?? 0,
      className: showBidi(x.class_name),
      confidence: x.confidence,
      low: x.confidence < LOW_CONFIDENCE,
    })),
    headline: headline(s),
    noConclusion: s.kind === 'none',
    summary: rows,
    warnings,
    notes: o.notes.map(noteText),
    advice: s.kind === 'none' || s.retakeAdvised ? adviceFor(s.type) : [],
    figureLabel: vscode.l10n.t(
      '{0}: {1} boxes drawn, {2} with confidence below 0.5.',
      source.title,
      String(d.detections.length),
      String(s.low),
    ),
  };
}

/** The rows of the result's summary: the model, the result, the detections, the times and sizes, how the picture was sent. */
function summaryRows(o: FlowOutcome, s: RecognitionSummary): ResultView['summary'] {
  const rows: ResultView['summary'] = [
    { label: vscode.l10n.t('Model'), value: `${s.modelName} (${s.modelId})` },
    { label: vscode.l10n.t('Result'), value: headline(s) },
    {
      label: vscode.l10n.t('Detections'),
      value: vscode.l10n.t(
        '{0} (confidence ≥ 0.5: {1}; below 0.5: {2})',
        String(s.total),
        String(s.confident),
        String(s.low),
      ),
    },
  ];
  if (s.inferenceMs !== undefined)
    rows.push({ label: vscode.l10n.t('Inference time'), value: vscode.l10n.t('{0} ms', String(s.inferenceMs)) });
  if (s.inputSize) rows.push({ label: vscode.l10n.t('Input size'), value: `${s.inputSize[0]} × ${s.inputSize[1]}` });
  if (o.preview?.size)
    rows.push({ label: vscode.l10n.t('Picture'), value: `${o.preview.size.width} × ${o.preview.size.height} px` });
  rows.push({
    label: vscode.l10n.t('Sent as'),
    value: o.sentAs === 'url' ? vscode.l10n.t('URL') : vscode.l10n.t('image data (base64)'),
  });
  return rows;
}

/** The warnings on a result read with a low confidence. */
function resultWarnings(s: RecognitionSummary): string[] {
  const warnings: string[] = [];
  if (s.low > 0)
    warnings.push(
      vscode.l10n.t(
        '{0} of {1} detections have a confidence below 0.5: do not rely on them; retake the photo.',
        String(s.low),
        String(s.total),
      ),
    );
  else if (s.kind === 'stage' && s.retakeAdvised)
    warnings.push(
      vscode.l10n.t('The stage was read with a confidence below 0.5: retake the photo before relying on it.'),
    );
  return warnings;
}

/** The sentence shown for a failed run. */
export function describeFailure(err: unknown, source: Source, endpoint: string): string {
  if (err instanceof ImageRefusedError) return describeRefusal(err, source.title);
  if (err instanceof DownloadError) return describeDownload(err);
  if (isPlatformError(err, 'image-download'))
    return vscode.l10n.t('The platform could not download the image: {0}', err.reason);
  if (isPlatformError(err, 'input-validation'))
    return vscode.l10n.t('The platform rejected the request: {0}', err.detail);
  if (isPlatformError(err, 'tool-failure')) return vscode.l10n.t('The recognition failed: {0}', err.reason);
  if (isPlatformError(err, 'result-shape'))
    return vscode.l10n.t('The platform answered in an unexpected form: {0}', err.message);
  return describeError(err, endpoint);
}
