/**
 * A draft written through the REST chat completions endpoint (knowledge + optional weather tools),
 * streamed into a read-only preview beside the bulletin, cancellable from the progress
 * notification; its knowledge citations resolved to real passages once it has ended.
 */
import vscode = require('vscode');
import { loadPlatform } from '../../bundles';
import type { ChatRequest, ChatResult, WeatherCitation } from '../../shunong/index';
import { describeError, isPlatformError } from '../shared/errors';
import { withCancellableProgress } from '../shared/progress';
import { DraftPreview, renderPreview, type PreviewState } from './draftDocuments';
import type { DraftOutcome, DraftServices } from './types';
import type { DraftOptions } from './options';
import { resolveAll } from './resolve';

/** The preview of one draft: its document, what it shows, and how it is redrawn (now, or soon). */
export interface DraftView {
  readonly uri: vscode.Uri;
  readonly state: PreviewState;
  flush(): void;
  soon(): void;
}

/** A draft that ended: the endpoint's result and its preview. */
export interface Streamed {
  readonly result: ChatResult;
  readonly view: DraftView;
}

/** The request for `question` with `options`; undefined (said and logged) when it cannot be made. */
export function draftRequest(
  services: DraftServices,
  question: string,
  options: DraftOptions,
): ChatRequest | undefined {
  try {
    return loadPlatform().chatRequest(
      question,
      {
        knowledge: {
          query: question,
          kbCode: options.kbCode || undefined,
          topK: options.topK,
          minScore: options.minScore,
          useRerank: options.useRerank,
        },
        weather: options.weather ? { location: options.weather, date: options.weatherDate } : undefined,
      },
      true,
    );
  } catch (e) {
    services.failures.report('shunong.draftWithKnowledge', e);
    return undefined;
  }
}

/** Opens the preview of a new draft beside the bulletin. */
export async function openDraftView(preview: DraftPreview, question: string): Promise<DraftView> {
  const uri = preview.next();
  const state: PreviewState = {
    question,
    content: '',
    status: vscode.l10n.t('Drafting…'),
    knowledge: [],
    weather: [],
    usage: '',
  };
  preview.set(uri, renderPreview(state));
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), {
    viewColumn: vscode.ViewColumn.Beside,
    preserveFocus: true,
    preview: true,
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    preview.set(uri, renderPreview(state));
  };
  return { uri, state, flush, soon: () => void (timer ??= setTimeout(flush, 60)) };
}

/** Streams the draft into `view`; on failure or cancel, what the command did instead. */
export async function streamDraft(
  services: DraftServices,
  request: ChatRequest,
  question: string,
  view: DraftView,
): Promise<Streamed | DraftOutcome> {
  const { state } = view;
  try {
    const result = await withCancellableProgress(
      vscode.l10n.t('Shunong: drafting with knowledge'),
      (signal, progress) => write(services, request, question, view, signal, progress),
    );
    return { result, view };
  } catch (e) {
    const cancelled = isPlatformError(e, 'cancelled');
    state.status = cancelled
      ? vscode.l10n.t('Cancelled: nothing was inserted.')
      : vscode.l10n.t('Failed: {0}', describeError(e, services.connection.endpoint));
    view.flush();
    if (cancelled)
      void vscode.window.showInformationMessage(vscode.l10n.t('Drafting cancelled. Nothing was inserted.'));
    else services.failures.report('shunong.draftWithKnowledge', e);
    return { status: cancelled ? 'cancelled' : 'failed', content: state.content, preview: view.uri.toString() };
  }
}

/** The stream itself: deltas into the preview, then the citations resolved. */
async function write(
  services: DraftServices,
  request: ChatRequest,
  question: string,
  { state, soon }: DraftView,
  signal: AbortSignal,
  progress: vscode.Progress<{ message?: string }>,
): Promise<ChatResult> {
  const platform = loadPlatform();
  progress.report({ message: vscode.l10n.t('Writing…') });
  let done: ChatResult | undefined;
  for await (const ev of services.connection.rest().stream(request, { signal })) {
    if (ev.type === 'delta') {
      state.content += ev.content;
      soon();
    } else done = ev.result;
  }
  if (!done) throw new platform.ProtocolError('no result');
  state.content = done.content;
  progress.report({ message: vscode.l10n.t('Finding the cited passages…') });
  state.knowledge = await resolveAll(services.connection, done.annotations, question, signal);
  state.weather = done.annotations
    .filter((a): a is WeatherCitation => platform.isWeatherCitation(a))
    .map((w) => ({
      provider: w.provider,
      location: w.location,
      date: w.date,
      summary: w.summary,
      updatedAt: w.updated_at,
    }));
  return done;
}
