/**
 * Reading a recognition result (pure, no `vscode`): counts split by the 0.5 confidence line,
 * stage or "no conclusion", and the Markdown summary inserted into a bulletin. Every user-visible
 * word comes from a {@link Words} (`vscode.l10n` for the UI, the document's catalogue for the summary).
 */
import type { Words } from '../text/words';
import { inlineText } from '../text/markdown';
import type { Recognition, RecognitionType } from './types';

/** Detections under this confidence are not trusted: the platform advises retaking the photo. */
export const LOW_CONFIDENCE = 0.5;

/** What a result says, ready to render. */
export interface RecognitionSummary {
  type: RecognitionType;
  /** `count` for tea_count, `stage` when a growth stage was recognised, `none` when recognized_result is null. */
  kind: 'count' | 'stage' | 'none';
  modelId: string;
  modelName: string;
  /** All detections (the server's `count` when it is larger). */
  total: number;
  /** Detections with confidence ≥ 0.5. */
  confident: number;
  /** Detections with confidence < 0.5. */
  low: number;
  /** The recognised stage (kind `stage`). */
  stage?: string;
  /** Milliseconds, from `inference_time` (seconds). */
  inferenceMs?: number;
  /** `input_size` as [w, h]. */
  inputSize?: [number, number];
  /** Lowest and highest confidence among detections. */
  minConfidence?: number;
  maxConfidence?: number;
  /** True when the platform's reading should be checked with a new photo (low-confidence boxes or stage). */
  retakeAdvised: boolean;
}

/** Summarises a result for the requested type. */
export function summarize(result: Recognition, type: RecognitionType): RecognitionSummary {
  const d = result.data;
  const confidences = d.detections.map((x) => x.confidence);
  const low = confidences.filter((c) => c < LOW_CONFIDENCE).length;
  const total = Math.max(d.detections.length, Number.isFinite(d.count) ? d.count : 0);
  const r = d.recognized_result;
  const kind: RecognitionSummary['kind'] =
    type === 'tea_count' || typeof r === 'number' ? 'count' : typeof r === 'string' && r.trim() ? 'stage' : 'none';
  const s: RecognitionSummary = {
    type,
    kind,
    modelId: d.model_id,
    modelName: d.model_name,
    total,
    confident: total - low,
    low,
    // A low-confidence box casts doubt on the reading (a stage read only from such boxes has one
    // too), and no conclusion asks for a better photo.
    retakeAdvised: low > 0 || kind === 'none',
  };
  if (kind === 'stage' && typeof r === 'string') s.stage = r.trim();
  if (typeof d.inference_time === 'number' && Number.isFinite(d.inference_time))
    s.inferenceMs = Math.round(d.inference_time * 1000 * 10) / 10;
  if (d.input_size && d.input_size.length >= 2) s.inputSize = [d.input_size[0] ?? 0, d.input_size[1] ?? 0];
  if (confidences.length) {
    s.minConfidence = Math.min(...confidences);
    s.maxConfidence = Math.max(...confidences);
  }
  return s;
}

/** The words of the Markdown summary (the host passes localised ones). */
export interface SummaryLabels {
  /** The whole paragraph, e.g. "**Crop image recognition (Tea bud count)**: a; b; c." from the type name and the parts. */
  paragraph(typeName: string, parts: readonly string[]): string;
  /** Human name of a recognition type, e.g. "Tea bud count". */
  typeName(type: RecognitionType): string;
  /** e.g. "{count} tea buds detected". */
  count(n: number): string;
  /** e.g. "growth stage: {stage}". */
  stage(stage: string): string;
  /** "no clear growth stage in this picture". */
  noStage: string;
  /** e.g. "{low} of {total} detections below confidence 0.5; retake the photo to confirm". */
  lowConfidence(low: number, total: number): string;
  /** e.g. "all detections at confidence ≥ 0.5". */
  allConfident: string;
  /** e.g. "confidence {min}–{max}". */
  confidenceRange(min: string, max: string): string;
  /** e.g. "model {name} ({id})". */
  model(name: string, id: string): string;
  /** e.g. "recognised on {date}". */
  date(date: string): string;
  /** Shooting advice lines (the platform's 拍摄建议). */
  advice: readonly string[];
  /** Alt text of the annotated picture. */
  imageAlt: string;
  /** Link text of the original picture. */
  original: string;
}

/** The name of a recognition type, e.g. "Tea bud count". */
export function typeNameIn(type: RecognitionType, words: Words): string {
  switch (type) {
    case 'tea_count':
      return words.t('Tea bud count');
    case 'tea_stage':
      return words.t('Tea growth stage');
    case 'wheat_stage':
      return words.t('Wheat growth stage');
  }
}

/** The platform's shooting advice (拍摄建议): the general line, then the tea-count or the growth-stage one. */
export function shootingAdvice(words: Words): { general: string; teaCount: string; stages: string } {
  return {
    general: words.t('Shoot straight down, let the crop fill most of the frame, and avoid strong backlight.'),
    teaCount: words.t('For tea bud counting, single buds must be distinguishable: shoot from less than 50 cm.'),
    stages: words.t('For growth stages, get the whole plant in the frame, keeping stems, leaves and ears visible.'),
  };
}

/** The words of the Markdown summary in the language of `words`. */
export function summaryLabels(words: Words): SummaryLabels {
  const advice = shootingAdvice(words);
  return {
    paragraph: (type, parts) => words.t('**Crop image recognition ({0})**: {1}.', type, parts.join(words.t('; '))),
    typeName: (type) => typeNameIn(type, words),
    count: (n) => words.t('{0} tea buds detected', String(n)),
    stage: (stage) => words.t('growth stage {0}', stage),
    noStage: words.t('no clear growth stage in this picture'),
    lowConfidence: (low, total) =>
      words.t('{0} of {1} detections below confidence 0.5, retake the photo to confirm', String(low), String(total)),
    allConfident: words.t('all detections at confidence 0.5 or above'),
    confidenceRange: (min, max) => words.t('confidence {0}–{1}', min, max),
    model: (name, id) => words.t('model {0} ({1})', name, id),
    date: (date) => words.t('recognised on {0}', date),
    advice: [advice.general, advice.teaCount, advice.stages],
    imageAlt: words.t('Annotated crop photo'),
    original: words.t('original photo'),
  };
}

/** Options of {@link summaryMarkdown}. */
export interface SummaryMarkdownOptions {
  labels: SummaryLabels;
  /** YYYY-MM-DD. */
  date: string;
  /** Relative link (already URL-encoded) to the saved annotated picture. */
  imageLink?: string;
  /** Relative link (already URL-encoded) to the saved original. */
  originalLink?: string;
}

/** Formats a confidence as two decimals. */
function formatConfidence(c: number): string {
  return c.toFixed(2);
}

/**
 * The Markdown inserted into a bulletin: one paragraph (type, result, confidence note, model,
 * date), the shooting advice when the reading is not trustworthy, and the saved pictures.
 */
export function summaryMarkdown(s: RecognitionSummary, o: SummaryMarkdownOptions): string {
  const L = o.labels;
  const parts: string[] = [];
  if (s.kind === 'count') parts.push(L.count(s.total));
  else if (s.stage !== undefined) parts.push(L.stage(inlineText(s.stage)));
  else parts.push(L.noStage);
  if (s.total > 0) {
    parts.push(s.low > 0 ? L.lowConfidence(s.low, s.total) : L.allConfident);
    if (s.minConfidence !== undefined && s.maxConfidence !== undefined)
      parts.push(L.confidenceRange(formatConfidence(s.minConfidence), formatConfidence(s.maxConfidence)));
  }
  parts.push(L.model(inlineText(s.modelName), inlineText(s.modelId)));
  parts.push(L.date(o.date));
  const lines = [L.paragraph(L.typeName(s.type), parts)];
  if (s.kind === 'none' || s.low > 0) {
    lines.push('');
    for (const a of L.advice) lines.push(`> - ${a}`);
  }
  if (o.imageLink) {
    lines.push('');
    lines.push(
      `![${inlineText(L.imageAlt)}](<${o.imageLink}>)` +
        (o.originalLink ? ` [${inlineText(L.original)}](<${o.originalLink}>)` : ''),
    );
  }
  return lines.join('\n') + '\n';
}

/**
 * A relative Markdown link from a document to a file (both absolute POSIX-style paths),
 * each segment percent-encoded.
 */
export function relativeLink(fromDocument: string, toFile: string): string {
  const from = fromDocument.split('/').slice(0, -1).filter(Boolean);
  const to = toFile.split('/').filter(Boolean);
  let i = 0;
  // The file's own name is never a shared folder, even when a folder of the document bears it.
  while (i < to.length - 1 && from[i] === to[i]) i++;
  const up = from.slice(i).map(() => '..');
  return [...up, ...to.slice(i).map(encodeURIComponent)].join('/');
}
