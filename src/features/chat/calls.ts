/**
 * The four Shunong calls as VS Code's chat uses them (the language model tools and the `@shunong`
 * participant share them): arguments checked, the platform asked through the shared connection,
 * the answer turned into the text a model reads (src/chat/toolText.ts). A failure is an answer
 * too — a miss, a missing key, a rejected argument — told in words the model can pass on; only a
 * cancellation throws.
 */
import * as vscode from 'vscode';
import {
  currentTimeText,
  knowledgeHitText,
  knowledgeMissText,
  recognitionText,
  returnedPassages,
  weatherForecastText,
  weatherNowText,
  type ReturnedPassage,
} from '../../chat/toolText';
import { loadKnowledge } from '../../bundles';
import { missText } from './authorText';
import { signalOf } from './signal';
import { isPlatformError } from '../../shunong/errors';
import type { RecognitionType } from '../../shunong/schemas';
import type { Connection } from '../shared/connection';
import { describeError } from '../shared/errors';

/** What a call answers: the model's text, and for a knowledge hit the passages it may cite. */
export interface CallAnswer {
  /** The answer as the model reads it (English, with the platform's rules). */
  readonly text: string;
  /** A failure or a miss as the author reads it, in the display language. */
  readonly author?: string;
  readonly ok: boolean;
  readonly passages: readonly ReturnedPassage[];
}

/** Input of `shunong_searchKnowledge`. */
export interface SearchInput {
  query?: unknown;
  kbCode?: unknown;
  topK?: unknown;
  scoreThreshold?: unknown;
}

/** Input of `shunong_weather`. */
export interface WeatherInput {
  location?: unknown;
  date?: unknown;
}

/** Input of `shunong_currentTime`. */
export interface TimeInput {
  withSolarTerms?: unknown;
}

/** Input of `shunong_recognizeCrop`. */
export interface RecognizeInput {
  image?: unknown;
  recognitionType?: unknown;
}

const RECOGNITION_TYPES: readonly RecognitionType[] = ['wheat_stage', 'tea_stage', 'tea_count'];
const MAX_IMAGE_BYTES = 4 * 1024 * 1024;

/** A rejected input, told to the model (nothing was sent to the platform). */
function badInput(detail: string): CallAnswer {
  return { ok: false, passages: [], text: `Invalid input (nothing was sent to the platform): ${detail}` };
}

/** A failure of the platform call as the model reads it; the user-facing sentence is localised. */
function failure(err: unknown, connection: Connection): CallAnswer {
  if (isPlatformError(err, 'cancelled')) throw new vscode.CancellationError();
  const author = missText(err, connection);
  if (isPlatformError(err, 'knowledge-miss')) {
    return { ok: false, passages: [], text: knowledgeMissText(err.reason, err, loadKnowledge().describeMiss), author };
  }
  return {
    ok: false,
    passages: [],
    text: `The Shunong platform call failed: ${describeError(err, connection.endpoint)}`,
    author,
  };
}

const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** `knowledge_search`, its input checked first. */
export async function searchKnowledge(
  connection: Connection,
  input: SearchInput,
  token: vscode.CancellationToken,
): Promise<CallAnswer> {
  if (!isText(input.query)) return badInput('`query` must be a non-empty string.');
  if (input.kbCode !== undefined && typeof input.kbCode !== 'string') return badInput('`kbCode` must be a string.');
  const topK = input.topK;
  if (topK !== undefined && (typeof topK !== 'number' || !Number.isInteger(topK) || topK < 1 || topK > 20)) {
    return badInput('`topK` must be an integer from 1 to 20.');
  }
  const t = input.scoreThreshold;
  if (t !== undefined && (typeof t !== 'number' || !(t >= 0 && t <= 1))) {
    return badInput('`scoreThreshold` must be a number from 0 to 1.');
  }
  const args = {
    query: input.query.trim(),
    ...(isText(input.kbCode) ? { kbCode: input.kbCode.trim() } : {}),
    ...(typeof topK === 'number' ? { topK } : {}),
    ...(typeof t === 'number' ? { scoreThreshold: t } : {}),
  };
  try {
    const signal = signalOf(token);
    const result = await connection.run((c) => c.knowledgeSearch(args, { signal }), { offerSetKey: false });
    return { ok: true, text: knowledgeHitText(result), passages: returnedPassages(result) };
  } catch (err) {
    return failure(err, connection);
  }
}

/** `weather_search`: `now` (the default) or the 7-day forecast. */
export async function weather(
  connection: Connection,
  input: WeatherInput,
  token: vscode.CancellationToken,
): Promise<CallAnswer> {
  if (!isText(input.location)) return badInput('`location` must be a city name or a 9-digit city code.');
  if (input.date !== undefined && typeof input.date !== 'string') return badInput('`date` must be `now` or a date.');
  const location = input.location.trim();
  const now = !isText(input.date) || input.date.trim().toLowerCase() === 'now';
  try {
    const signal = signalOf(token);
    const text = now
      ? weatherNowText(
          location,
          await connection.run((c) => c.weatherNow(location, { signal }), { offerSetKey: false }),
        )
      : weatherForecastText(
          await connection.run((c) => c.weatherForecast(location, { signal }), { offerSetKey: false }),
        );
    return { ok: true, text, passages: [] };
  } catch (err) {
    return failure(err, connection);
  }
}

/** `get_current_time`. */
export async function currentTime(
  connection: Connection,
  input: TimeInput,
  token: vscode.CancellationToken,
): Promise<CallAnswer> {
  if (input.withSolarTerms !== undefined && typeof input.withSolarTerms !== 'boolean') {
    return badInput('`withSolarTerms` must be true or false.');
  }
  try {
    const signal = signalOf(token);
    const args = input.withSolarTerms ? { withSolarTerms: true } : {};
    const t = await connection.run((c) => c.currentTime(args, { signal }), { offerSetKey: false });
    return { ok: true, text: currentTimeText(t), passages: [] };
  } catch (err) {
    return failure(err, connection);
  }
}

/** `crop_growth_recognize` on a workspace image (sent as base64) or an http(s) URL. */
export async function recognizeCrop(
  connection: Connection,
  input: RecognizeInput,
  token: vscode.CancellationToken,
): Promise<CallAnswer> {
  const type = input.recognitionType;
  if (typeof type !== 'string' || !(RECOGNITION_TYPES as readonly string[]).includes(type)) {
    return badInput(`\`recognitionType\` must be one of ${RECOGNITION_TYPES.join(', ')}.`);
  }
  if (!isText(input.image)) return badInput('`image` must be a workspace image path or an http(s) URL.');
  const image = input.image.trim();
  const recognitionType = type as RecognitionType;
  let args:
    { imageUrl: string; recognitionType: RecognitionType } | { imageBase64: string; recognitionType: RecognitionType };
  if (/^https?:\/\//i.test(image)) {
    args = { imageUrl: image, recognitionType };
  } else {
    const bytes = await readWorkspaceImage(image);
    if (typeof bytes === 'string') return badInput(bytes);
    args = { imageBase64: Buffer.from(bytes).toString('base64'), recognitionType };
  }
  try {
    const signal = signalOf(token);
    const r = await connection.run((c) => c.recognizeCrop(args, { signal }), { offerSetKey: false });
    return { ok: true, text: recognitionText(r), passages: [] };
  } catch (err) {
    return failure(err, connection);
  }
}

/** The bytes of a JPEG or PNG inside a workspace folder, or why not. */
async function readWorkspaceImage(relative: string): Promise<Uint8Array | string> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) return 'no workspace folder is open to read the image from.';
  const uri = vscode.Uri.joinPath(folder.uri, relative.replace(/^\/+/, ''));
  if (!uri.path.startsWith(folder.uri.path.replace(/\/?$/, '/')))
    return '`image` must stay inside the workspace folder.';
  let bytes: Uint8Array;
  try {
    bytes = await vscode.workspace.fs.readFile(uri);
  } catch {
    return `the image ${relative} could not be read.`;
  }
  const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
  const png = bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47;
  if (!jpeg && !png) return `${relative} is not a JPEG or PNG image.`;
  if (bytes.byteLength > MAX_IMAGE_BYTES) return `${relative} is larger than 4 MB.`;
  return bytes;
}
