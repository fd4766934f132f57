/**
 * The four Shunong calls as VS Code's chat uses them (the language model tools and the `@shunong`
 * participant share them): arguments checked, the platform asked through the shared connection,
 * the answer turned into the text a model reads (src/chat/toolText.ts). A failure is an answer
 * too — a miss, a missing key, a rejected argument — told in words the model can pass on; only a
 * cancellation throws.
 */
import vscode = require('vscode');
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
import { failureText, noHitText } from './authorText';
import { isPlatformError } from '../../shunong/errors';
import type { FlowNote, ImageSource } from '../../recognition/flow';
import { ImageRefusedError } from '../../recognition/image';
import { loadShrinker } from '../../recognition/resize';
import { pictureCandidates } from '../../chat/picturePath';
import { RECOGNITION_TYPES, isRecognitionType } from '../../recognition/types';
import { describeRefusal, readPicture } from '../shared/recognition/picture';
import { recognizeThrough } from '../shared/recognition/recognizing';
import type { SearchOptions } from '../../knowledge/history';
import type { Connection } from '../shared/connection';
import type { KnowledgeStore } from '../shared/knowledgeStore';
import { commitOutcome, searchThrough, textSearchOptions } from '../shared/search/searching';
import { describeError } from '../shared/errors';
import { withSignal } from '../shared/signal';

/** What the calls need: the shared connection, and the knowledge store the search reads the known bases from. */
export interface CallServices {
  readonly connection: Connection;
  readonly store: KnowledgeStore;
}

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

/** A rejected input, told to the model (nothing was sent to the platform). */
function badInput(detail: string): CallAnswer {
  return { ok: false, passages: [], text: `Invalid input (nothing was sent to the platform): ${detail}` };
}

/** A failure of the platform call as the model reads it; the user-facing sentence is localised. */
function failure(err: unknown, connection: Connection): CallAnswer {
  if (isPlatformError(err, 'cancelled')) throw new vscode.CancellationError();
  return {
    ok: false,
    passages: [],
    text: `The Shunong platform call failed: ${describeError(err, connection.endpoint)}`,
    author: failureText(err, connection),
  };
}

const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/**
 * The search `input` asks for, as the knowledge search commands would run its words: the
 * `shunong.knowledge.*` settings (of the active editor's document, as the commands read them) and
 * the knowledge base the query's crop names, except what the model asked for itself. Or why the
 * input is refused.
 */
export function searchOptionsOf(input: SearchInput): { options: SearchOptions; scope?: vscode.Uri } | CallAnswer {
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
  const scope = vscode.window.activeTextEditor?.document.uri;
  const options = {
    ...textSearchOptions(input.query.trim(), scope, loadKnowledge()),
    ...(isText(input.kbCode) ? { kbCode: input.kbCode.trim() } : {}),
    ...(typeof topK === 'number' ? { topK } : {}),
    ...(typeof t === 'number' ? { scoreThreshold: t } : {}),
  };
  return { options, ...(scope ? { scope } : {}) };
}

/**
 * `knowledge_search` through the knowledge search the commands run (see {@link searchOptionsOf});
 * without a knowledge base every base of the account is searched one by one and fused by rank, so
 * each passage names its own base.
 */
export async function searchKnowledge(
  services: CallServices,
  input: SearchInput,
  token: vscode.CancellationToken,
): Promise<CallAnswer> {
  const search = searchOptionsOf(input);
  if ('text' in search) return search;
  const { options, scope } = search;
  const { connection, store } = services;
  try {
    const outcome = await withSignal(token, (signal) => searchThrough(connection, store.state, options, signal, scope));
    // The bases seen spare the next search a listing call; the history keeps the author's own searches.
    void commitOutcome(store, outcome, false).catch(() => undefined);
    const failed = outcome.failed.map(
      (f) => `Knowledge base ${f.kbCode} could not be searched: ${describeError(f.error, connection.endpoint)}`,
    );
    if (outcome.kind === 'miss') {
      const reason = platformReason(outcome.miss);
      return {
        ok: false,
        passages: [],
        text: [knowledgeMissText(reason, outcome.miss, loadKnowledge().describeMiss), ...failed].join('\n'),
        author: noHitText(reason, outcome.miss),
      };
    }
    return { ok: true, text: [knowledgeHitText(outcome), ...failed].join('\n'), passages: returnedPassages(outcome) };
  } catch (err) {
    return failure(err, connection);
  }
}

/** The platform's own words of a miss (one knowledge base's; a miss of several bases has none). */
function platformReason(miss: object): string | undefined {
  const reason = (miss as { reason?: unknown }).reason;
  return typeof reason === 'string' && reason !== '' ? reason : undefined;
}

/** `weather_search`: `now` (the default) or the 7-day forecast. */
export async function weather(
  { connection }: CallServices,
  input: WeatherInput,
  token: vscode.CancellationToken,
): Promise<CallAnswer> {
  if (!isText(input.location)) return badInput('`location` must be a city name or a 9-digit city code.');
  if (input.date !== undefined && typeof input.date !== 'string') return badInput('`date` must be `now` or a date.');
  const location = input.location.trim();
  const now = !isText(input.date) || input.date.trim().toLowerCase() === 'now';
  try {
    const text = await withSignal(token, async (signal) =>
      now
        ? weatherNowText(
            location,
            await connection.run((c) => c.weatherNow(location, { signal }), { offerSetKey: false }),
          )
        : weatherForecastText(
            await connection.run((c) => c.weatherForecast(location, { signal }), { offerSetKey: false }),
          ),
    );
    return { ok: true, text, passages: [] };
  } catch (err) {
    return failure(err, connection);
  }
}

/** `get_current_time`. */
export async function currentTime(
  { connection }: CallServices,
  input: TimeInput,
  token: vscode.CancellationToken,
): Promise<CallAnswer> {
  if (input.withSolarTerms !== undefined && typeof input.withSolarTerms !== 'boolean') {
    return badInput('`withSolarTerms` must be true or false.');
  }
  try {
    const args = input.withSolarTerms ? { withSolarTerms: true } : {};
    const t = await withSignal(token, (signal) =>
      connection.run((c) => c.currentTime(args, { signal }), { offerSetKey: false }),
    );
    return { ok: true, text: currentTimeText(t), passages: [] };
  } catch (err) {
    return failure(err, connection);
  }
}

/**
 * `crop_growth_recognize` on a workspace image or an http(s) URL, through the Recognize command's
 * flow: the same file checks, a picture over 4 MB shrunk and a WebP converted to JPEG, a URL the
 * platform cannot fetch downloaded and sent as base64. There is no preview panel here to shrink
 * with the browser's encoder, so jimp does it, as it does for the command when its webview cannot.
 */
export async function recognizeCrop(
  { connection }: CallServices,
  input: RecognizeInput,
  token: vscode.CancellationToken,
): Promise<CallAnswer> {
  const type = input.recognitionType;
  if (typeof type !== 'string' || !isRecognitionType(type)) {
    return badInput(`\`recognitionType\` must be one of ${RECOGNITION_TYPES.join(', ')}.`);
  }
  if (!isText(input.image)) return badInput('`image` must be a workspace image path or an http(s) URL.');
  const image = input.image.trim();
  try {
    let source: ImageSource;
    if (/^https?:\/\//i.test(image)) {
      source = { kind: 'url', url: image };
    } else {
      const picture = await readWorkspacePicture(image);
      if (typeof picture === 'string') return badInput(picture);
      source = { kind: 'bytes', bytes: picture.bytes, name: image };
    }
    const outcome = await withSignal(token, (signal) =>
      recognizeThrough(connection, source, type, { shrinker: loadShrinker, offerSetKey: false }, signal),
    );
    return {
      ok: true,
      text: [recognitionText(outcome.result), ...outcome.notes.map(noteLine)].join('\n'),
      passages: [],
    };
  } catch (err) {
    // cancelled while the picture was shrunk: the flow rejects with the signal's reason
    if (token.isCancellationRequested) throw new vscode.CancellationError();
    if (err instanceof ImageRefusedError)
      return { ...badInput(`${image}: ${err.message}.`), author: describeRefusal(err, image) };
    return failure(err, connection);
  }
}

/** How the picture was sent, for the model (it may tell the author the platform saw a smaller copy). */
function noteLine(n: FlowNote): string {
  switch (n.kind) {
    case 'shrunk':
      return `The photo (${n.fromBytes} bytes) was over the platform's 4 MB limit and was sent shrunk to ${n.width} × ${n.height} (${n.toBytes} bytes).`;
    case 'converted':
      return `The ${n.from.toUpperCase()} photo was sent converted to JPEG (${n.width} × ${n.height}).`;
    case 'oriented':
      return `The photo was turned upright (EXIF orientation ${n.orientation}) before it was sent.`;
    case 'fallback':
      return `The platform could not download the URL (${n.reason}); the extension downloaded it and sent the picture.`;
  }
}

/**
 * The picture at `relative` in one of the workspace folders (multi-root: the first folder holding
 * it; a path may start with its folder's name, as VS Code writes workspace-relative paths), read
 * and checked as the Recognize command reads a file; or why not.
 */
async function readWorkspacePicture(relative: string): Promise<{ bytes: Uint8Array } | string> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) return 'no workspace folder is open to read the image from.';
  const candidates = pictureCandidates(folders, relative).map((c) =>
    vscode.Uri.joinPath((folders[c.folder] as vscode.WorkspaceFolder).uri, c.path),
  );
  if (candidates.length === 0) return '`image` must stay inside the workspace folder.';
  for (const uri of candidates) {
    try {
      return { bytes: await readPicture(uri) };
    } catch (err) {
      // a refusal is the answer; a folder without the file leaves the next one to try
      if (err instanceof ImageRefusedError) throw err;
    }
  }
  return `the image ${relative} could not be read.`;
}
