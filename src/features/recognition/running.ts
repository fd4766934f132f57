/**
 * One recognition run into a preview panel: the "loading" state (again with the picture once it is
 * known, so the webview decodes it while the platform works), the call through the shared
 * connection with a cancellable progress notification, then the result or the error. A newer run
 * of the same panel makes an older one's answer "cancelled".
 */
import vscode = require('vscode');
import type { Failures } from '../shared/failures';
import type { Connection } from '../shared/connection';
import { isPlatformError } from '../shared/errors';
import type { FlowNote, FlowOutcome, ImageSource, PreviewImage } from '../../recognition/flow';
import { withCancellableProgress } from '../shared/progress';
import { ImageRefusedError, mimeOf, toDataUri, type Shrinker } from '../../recognition/image';
import type { ImageView } from '../../recognition/protocol';
import { loadShrinker } from '../../recognition/resize';
import { runPreview, type RunEnd } from '../../recognition/run';
import { webviewFirst, type ShrunkBy } from '../../recognition/webviewShrink';
import { summarize, type RecognitionSummary } from '../../recognition/summary';
import type { RecognitionType } from '../../recognition/types';
import type { Source } from './state';
import type { PreviewCopies } from './copies';
import { describeFailure, noteText, panelTitle, resultView, typeName } from './strings';
import type { RecognitionPanel } from './panel';
import { recognizeThrough } from '../shared/recognition/recognizing';
import type { PanelState, RecognizeCommandResult } from './state';

/** Runs recognitions into panels, through the shared connection. */
export class Runner {
  constructor(
    private readonly connection: Connection,
    private readonly copies: PreviewCopies,
    private readonly failures: Failures,
  ) {}

  /** One recognition run into `panel`. */
  async run(panel: RecognitionPanel, state: PanelState): Promise<RecognizeCommandResult> {
    const { run, abort, firstBytes } = startRun(panel, state);
    const { source, type } = state;
    const notes: FlowNote[] = [];
    let shrunkBy: ShrunkBy | undefined;
    const shrinker = webviewFirst((request, signal) => panel.shrink(request, signal), loadShrinker, {
      onShrunk: (by) => (shrunkBy = by),
      onFallback: (reason) =>
        this.failures.note('recognition', `the preview could not shrink the picture (${reason}): jimp does`),
    });
    const isLatest = (): boolean => run === state.run;
    try {
      const end = await runPreview(
        {
          run,
          title: source.title,
          type,
          message: vscode.l10n.t('Recognizing {0} ({1})…', source.title, typeName(type)),
        },
        {
          post: (m) => panel.post(m),
          isLatest,
          recognize: (onPreview) => this.recognize({ source, type, firstBytes }, shrinker, notes, onPreview, abort),
          picture: (preview, asGiven) => this.picture(panel, source, preview, asGiven),
          done: (outcome, image) => {
            const summary = summarize(outcome.result, type);
            state.outcome = outcome;
            state.summary = summary;
            return { view: resultView(source, outcome, summary, run, image), answer: summary };
          },
          failure: (err) => {
            const cancelled = abort.signal.aborted || isPlatformError(err, 'cancelled');
            return {
              cancelled,
              message: cancelled ? vscode.l10n.t('Cancelled.') : describeFailure(err, source, this.connection.endpoint),
              retryable: !(err instanceof ImageRefusedError) || err.reason === 'cannot-shrink',
            };
          },
        },
      );
      return commandResult(end, source.key, notes, shrunkBy);
    } finally {
      if (state.abort === abort) state.abort = undefined;
    }
  }

  /** Recognises the picture under a cancellable progress notification, noting each step there and in `notes`. */
  private recognize(
    { source, type, firstBytes }: { source: Source; type: RecognitionType; firstBytes: Uint8Array | undefined },
    shrinker: Shrinker,
    notes: FlowNote[],
    onPreview: (preview: PreviewImage, asGiven: boolean) => void,
    abort: AbortController,
  ): Thenable<FlowOutcome> {
    return withCancellableProgress(
      vscode.l10n.t('Recognizing {0} ({1})…', source.title, typeName(type)),
      async (signal, progress) => {
        const input: ImageSource = source.url
          ? { kind: 'url', url: source.url }
          : {
              kind: 'bytes',
              bytes: source.data ?? firstBytes ?? (await vscode.workspace.fs.readFile(source.uri as vscode.Uri)),
              name: source.title,
            };
        return recognizeThrough(
          this.connection,
          input,
          type,
          {
            shrinker: () => shrinker,
            onNote: (n) => {
              notes.push(n);
              progress.report({ message: noteText(n) });
              if (n.kind === 'fallback') void vscode.window.showInformationMessage(noteText(n));
            },
            onPreview,
          },
          signal,
        );
      },
      abort,
    );
  }

  /**
   * The picture as the webview loads it: the image file itself when the bytes sent are the file's,
   * else a copy in the preview copies' folder; a data URI only when that copy cannot be written.
   */
  private async picture(
    panel: RecognitionPanel,
    source: Source,
    preview: PreviewImage,
    asGiven: boolean,
  ): Promise<ImageView | undefined> {
    if (!preview.size) return undefined;
    const { width, height } = preview.size;
    if (asGiven && source.uri && !source.data) return { src: panel.pictureSrc(source.uri), width, height };
    // Shrunk by the webview: it shows the pixels it drew (the copy serves a reload).
    const pixels = panel.pixelsOf(preview.bytes);
    const shown = { width, height, ...(pixels === undefined ? {} : { pixels }) };
    try {
      return { src: panel.pictureSrc(await this.copies.write(source.key, preview.bytes, preview.format)), ...shown };
    } catch {
      return { src: toDataUri(preview.bytes, mimeOf(preview.format)), ...shown };
    }
  }
}

/** Starts a new run: aborts the last one, clears its result, titles the panel and takes the command's bytes. */
function startRun(
  panel: RecognitionPanel,
  state: PanelState,
): { run: number; abort: AbortController; firstBytes: Uint8Array | undefined } {
  state.abort?.abort();
  const abort = new AbortController();
  state.abort = abort;
  const run = ++state.run;
  state.outcome = undefined;
  state.summary = undefined;
  state.saved = undefined;
  const firstBytes = state.firstBytes;
  state.firstBytes = undefined;
  panel.panel.title = panelTitle(state.source, state.type);
  return { run, abort, firstBytes };
}

/** What the command answers for how the run ended; a picture refused is also said in a message. */
function commandResult(
  end: RunEnd<RecognitionSummary>,
  key: string | undefined,
  notes: FlowNote[],
  shrunkBy: ShrunkBy | undefined,
): RecognizeCommandResult {
  if (end.status === 'stale') return { key, status: 'cancelled' };
  if (end.status === 'done')
    return { key, status: 'done', summary: end.answer, notes, ...(shrunkBy ? { shrunkBy } : {}) };
  const refused = end.error instanceof ImageRefusedError;
  if (!end.cancelled && refused) void vscode.window.showErrorMessage(end.message);
  return {
    key,
    status: end.cancelled ? 'cancelled' : refused ? 'refused' : 'failed',
    message: end.message,
    notes,
  };
}
