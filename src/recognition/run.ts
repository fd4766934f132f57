/**
 * What one recognition run shows in its preview, in order, without `vscode`: "loading"; "loading"
 * again with the picture once it is known (so the webview decodes it while the platform works,
 * unless the run has ended or been overtaken); then the result or the error. An answer that arrives
 * after a newer run of the same panel started is dropped ("stale").
 */
import type { FlowOutcome, PreviewImage } from './flow';
import type { HostMessage, ImageView, ResultView } from './protocol';
import type { RecognitionType } from './types';

/** The run being shown. */
export interface RunHeader {
  /** Its number in the panel (increases with every run). */
  run: number;
  title: string;
  type: RecognitionType;
  /** The loading message. */
  message: string;
}

/** What a run needs from its host. */
export interface RunHost<R> {
  /** Posts to the panel's webview. */
  post(m: HostMessage): void;
  /** Whether this run is still the panel's latest. */
  isLatest(): boolean;
  /** Runs the recognition; `onPreview` is told the picture sent as soon as it is known. */
  recognize(onPreview: (preview: PreviewImage, asGiven: boolean) => void): PromiseLike<FlowOutcome>;
  /** The picture as the webview loads it (undefined without a pixel size). */
  picture(preview: PreviewImage, asGiven: boolean): Promise<ImageView | undefined>;
  /** Records a result; answers its view, and what the run answers with it. */
  done(outcome: FlowOutcome, image: ImageView | undefined): { view: ResultView; answer: R };
  /** How a failure is shown. */
  failure(err: unknown): { message: string; cancelled: boolean; retryable: boolean };
}

/** How a run ended. */
export type RunEnd<R> =
  | { status: 'done'; answer: R }
  | { status: 'stale' }
  | { status: 'failed'; error: unknown; message: string; cancelled: boolean };

/** Runs one recognition into its preview. */
export async function runPreview<R>(header: RunHeader, host: RunHost<R>): Promise<RunEnd<R>> {
  const { run, title, type, message } = header;
  host.post({ type: 'loading', run, title, recognitionType: type, message });
  let picture: Promise<ImageView | undefined> | undefined;
  let settled = false;
  try {
    const outcome = await host.recognize((preview, asGiven) => {
      const shown = host.picture(preview, asGiven);
      picture = shown;
      void shown.then((image) => {
        if (image && !settled && host.isLatest())
          host.post({ type: 'loading', run, title, recognitionType: type, message, image });
      });
    });
    const image = picture ? await picture : outcome.preview ? await host.picture(outcome.preview, false) : undefined;
    settled = true;
    if (!host.isLatest()) return { status: 'stale' };
    const { view, answer } = host.done(outcome, image);
    host.post({ type: 'result', view });
    return { status: 'done', answer };
  } catch (error) {
    settled = true;
    if (!host.isLatest()) return { status: 'stale' };
    const f = host.failure(error);
    host.post({ type: 'error', run, title, recognitionType: type, message: f.message, retryable: f.retryable });
    return { status: 'failed', error, message: f.message, cancelled: f.cancelled };
  }
}
