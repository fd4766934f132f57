/**
 * "Shunong: Draft with Knowledge…": a grounded draft written through the REST chat completions
 * endpoint (knowledge + optional weather tools), streamed into a read-only preview beside the
 * bulletin (cancellable from the progress notification), then accepted whole, in part (sentences
 * picked in a checkbox list) or not at all. Accepting inserts the text and its citations as one
 * undoable edit through the Citations service: each `knowledge_citation` is resolved to a real passage
 * by searching its summary in its knowledge base (MCP knowledge_search) and cited in the bulletin's
 * style; one that does not resolve is written as `〔title · kb_id〕` with a note, never as a made-up
 * `doc_name#chunk_index`; a `weather_citation` becomes the weather brief's source line.
 */
import vscode = require('vscode');
import { loadCitations, loadPlatform } from '../../bundles';
import type { ChatResult, ChatUsage, WeatherCitation } from '../../shunong/index';
import type { Connection } from '../shared/connection';
import { describeError, isPlatformError, showError } from '../shared/errors';
import { insertLanguageFor } from '../shared/language';
import { withCancellableProgress } from '../shared/progress';
import type { DraftBlock } from '../../citations/draftPlan';
import { buildBlocks, splitDraft } from '../../citations/draftBlocks';
import { chooseSentences, sourceLabel } from './choose';
import { askQuestion, defaultOptions, pickOptions, type DraftOptions } from './options';
import { DraftPreview, DRAFT_SCHEME, renderPreview, usageText, type PreviewState } from './draftDocuments';
import { resolveAll } from './resolve';

/** Arguments for scripted runs (tests, other commands); without them the command asks. */
export interface DraftArgs {
  question?: string;
  kbCode?: string;
  topK?: number;
  minScore?: number;
  useRerank?: boolean;
  /** A place to include the weather for ('' = none). */
  weather?: string;
  weatherDate?: 'now' | 'forecast';
  /** What to accept: all, none, or sentence ids (see the outcome's `sentences`). */
  accept?: 'all' | 'none' | number[];
}

/** What the command did. */
export interface DraftOutcome {
  status: 'inserted' | 'discarded' | 'cancelled' | 'failed';
  content?: string;
  sentences?: { id: number; text: string; source: string }[];
  usage?: ChatUsage | undefined;
  resolved?: number;
  unresolved?: number;
  preview?: string;
}

/** Inserts a drafted text with its citations into a bulletin (one edit); the citation service does it. */
export interface DraftInserter {
  insertDraft(editor: vscode.TextEditor, blocks: readonly DraftBlock[]): Promise<boolean>;
}

/** The services the feature needs. */
export interface DraftServices {
  connection: Connection;
  citations: DraftInserter;
}

/** Runs the command. */
async function draftWithKnowledge(
  services: DraftServices,
  preview: DraftPreview,
  args?: DraftArgs,
): Promise<DraftOutcome> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'markdown') {
    void vscode.window.showWarningMessage(
      vscode.l10n.t('Open a Markdown bulletin and put the cursor where the draft goes.'),
    );
    return { status: 'failed' };
  }
  const scripted = args !== undefined && typeof args === 'object' && typeof args.question === 'string';
  const question = scripted ? args.question!.trim() : await askQuestion(editor);
  if (!question) return { status: 'cancelled' };
  const defaults = defaultOptions(editor.document.uri);
  const options: DraftOptions | undefined = scripted
    ? {
        kbCode: args.kbCode ?? defaults.kbCode,
        topK: args.topK ?? defaults.topK,
        minScore: args.minScore ?? defaults.minScore,
        useRerank: args.useRerank ?? defaults.useRerank,
        weather: args.weather ?? '',
        weatherDate: args.weatherDate ?? 'forecast',
      }
    : await pickOptions(defaults);
  if (!options) return { status: 'cancelled' };

  const endpoint = services.connection.endpoint;
  const platform = loadPlatform();
  const client = services.connection.rest();
  let request;
  try {
    request = platform.chatRequest(
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
    void showError(e, endpoint);
    return { status: 'failed' };
  }

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
  const soon = (): void => {
    timer ??= setTimeout(flush, 60);
  };

  let result: ChatResult | undefined;
  try {
    result = await withCancellableProgress(
      vscode.l10n.t('Shunong: drafting with knowledge'),
      async (signal, progress) => {
        progress.report({ message: vscode.l10n.t('Writing…') });
        let done: ChatResult | undefined;
        for await (const ev of client.stream(request, { signal })) {
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
      },
    );
  } catch (e) {
    const cancelled = isPlatformError(e, 'cancelled');
    state.status = cancelled
      ? vscode.l10n.t('Cancelled: nothing was inserted.')
      : vscode.l10n.t('Failed: {0}', describeError(e, endpoint));
    flush();
    if (cancelled)
      void vscode.window.showInformationMessage(vscode.l10n.t('Drafting cancelled. Nothing was inserted.'));
    else void showError(e, endpoint);
    return { status: cancelled ? 'cancelled' : 'failed', content: state.content, preview: uri.toString() };
  }

  const sentences = splitDraft(result.content, state.knowledge, state.weather);
  state.usage = usageText(result.usage, client.isLocal);
  state.status = vscode.l10n.t('Done. Choose what to insert.');
  flush();
  const base: DraftOutcome = {
    content: result.content,
    sentences: sentences.map((s) => ({
      id: s.id,
      text: s.text,
      source: sourceLabel(s, state.knowledge, state.weather),
    })),
    usage: result.usage,
    resolved: state.knowledge.filter((k) => k.passage).length,
    unresolved: state.knowledge.filter((k) => !k.passage).length,
    preview: uri.toString(),
    status: 'discarded',
  };

  const accepted = await chooseSentences(sentences, state, scripted ? args.accept : undefined);
  if (!accepted || accepted.size === 0) {
    state.status = vscode.l10n.t('Discarded: nothing was inserted.');
    flush();
    return base;
  }
  const blocks = buildBlocks(
    sentences,
    accepted,
    state.knowledge,
    state.weather,
    insertLanguageFor(editor.document),
    loadCitations().inlineText,
  );
  const target = await vscode.window.showTextDocument(editor.document, {
    viewColumn: editor.viewColumn ?? vscode.ViewColumn.One,
    preserveFocus: false,
  });
  const ok = await services.citations.insertDraft(target, blocks);
  state.status = ok
    ? vscode.l10n.t('Inserted {0} of {1} sentences.', accepted.size, sentences.length)
    : vscode.l10n.t('Nothing was inserted.');
  flush();
  return { ...base, status: ok ? 'inserted' : 'failed' };
}

/** Registers the command and the preview provider. */
export function activate(context: vscode.ExtensionContext, services: DraftServices): { preview: DraftPreview } {
  const preview = new DraftPreview();
  context.subscriptions.push(
    preview,
    vscode.workspace.registerTextDocumentContentProvider(DRAFT_SCHEME, preview),
    vscode.commands.registerCommand('shunong.draftWithKnowledge', (args?: DraftArgs) =>
      draftWithKnowledge(services, preview, args),
    ),
  );
  return { preview };
}
