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
import * as vscode from 'vscode';
import { loadCitations, loadPlatform } from '../../platform';
import type { Annotation, ChatResult, ChatUsage, KnowledgeCitation, WeatherCitation } from '../../shunong/index';
import type { Connection } from '../shared/connection';
import { describeError, isPlatformError } from '../shared/errors';
import { settings } from '../shared/settings';
import { langOf } from '../bulletin/text';
import type { Citations } from '../cite/index';
import type { CitedPassage } from '../../citations/passage';
import { buildBlocks, splitDraft, type DraftSentence, type ResolvedKnowledge, type WeatherSource } from './model';

export const DRAFT_SCHEME = 'shunong-draft';

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

/** The options of a draft. */
export interface DraftOptions {
  kbCode: string;
  topK: number;
  minScore: number;
  useRerank: boolean;
  weather: string;
  weatherDate: 'now' | 'forecast';
}

/** The services the feature needs. */
export interface DraftServices {
  connection: Connection;
  citations: () => Citations;
}

/** The read-only preview documents (`shunong-draft:` URIs). */
class DraftPreview implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  private count = 0;
  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }
  /** A fresh preview URI. */
  next(): vscode.Uri {
    this.count++;
    return vscode.Uri.from({ scheme: DRAFT_SCHEME, path: `/draft-${this.count}.md` });
  }
  set(uri: vscode.Uri, text: string): void {
    if (this.texts.get(uri.toString()) === text) return;
    this.texts.set(uri.toString(), text);
    this.emitter.fire(uri);
  }
  dispose(): void {
    this.emitter.dispose();
  }
}

/** The defaults of the options (settings, then the REST page's defaults). */
export function defaultOptions(uri?: vscode.Uri): DraftOptions {
  const k = settings.knowledge(uri);
  return {
    kbCode: k.defaultKbCode,
    topK: k.topK,
    minScore: 0.5,
    useRerank: k.useRerank,
    weather: '',
    weatherDate: 'forecast',
  };
}

/** The nearest heading at or above `line` (its text), if any. */
export function currentHeading(doc: vscode.TextDocument, line: number): string | undefined {
  for (let l = line; l >= 0; l--) {
    const m = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(doc.lineAt(l).text);
    if (m && m[1]) return m[1];
  }
  return undefined;
}

async function askQuestion(editor: vscode.TextEditor): Promise<string | undefined> {
  const selected = editor.document.getText(editor.selection).trim();
  const value = selected || currentHeading(editor.document, editor.selection.active.line) || '';
  const q = await vscode.window.showInputBox({
    title: vscode.l10n.t('Draft with Knowledge'),
    prompt: vscode.l10n.t(
      'The question the draft answers (taken from the selection or the current heading; edit it freely).',
    ),
    value,
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Type a question.')),
  });
  return q?.trim() || undefined;
}

async function askNumber(
  title: string,
  value: number,
  min: number,
  max: number,
  integer: boolean,
): Promise<number | undefined> {
  const v = await vscode.window.showInputBox({
    title,
    value: String(value),
    validateInput: (s) => {
      const n = Number(s);
      return Number.isFinite(n) && n >= min && n <= max && (!integer || Number.isInteger(n))
        ? undefined
        : vscode.l10n.t('Enter a number from {0} to {1}.', min, max);
    },
  });
  return v === undefined ? undefined : Number(v);
}

/** The options loop: pick "Draft now", or an option to change it. */
async function pickOptions(start: DraftOptions): Promise<DraftOptions | undefined> {
  const o = { ...start };
  for (;;) {
    const on = vscode.l10n.t('on');
    const off = vscode.l10n.t('off');
    const items: (vscode.QuickPickItem & { id: string })[] = [
      { id: 'go', label: `$(sparkle) ${vscode.l10n.t('Draft now')}` },
      { id: 'kb', label: vscode.l10n.t('Knowledge base'), description: o.kbCode || vscode.l10n.t('all') },
      { id: 'topK', label: vscode.l10n.t('Passages to retrieve (top_k)'), description: String(o.topK) },
      { id: 'minScore', label: vscode.l10n.t('Minimum score (min_score)'), description: String(o.minScore) },
      { id: 'rerank', label: vscode.l10n.t('Rerank'), description: o.useRerank ? on : off },
      {
        id: 'weather',
        label: vscode.l10n.t('Include the weather for a place'),
        description: o.weather || vscode.l10n.t('none'),
      },
    ];
    const pick = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Draft with Knowledge: options'),
      placeHolder: vscode.l10n.t('Pick "Draft now", or an option to change it'),
      ignoreFocusOut: true,
    });
    if (!pick) return undefined;
    switch (pick.id) {
      case 'go':
        return o;
      case 'kb': {
        const v = await vscode.window.showInputBox({
          title: vscode.l10n.t('Knowledge base code (empty = all)'),
          value: o.kbCode,
          placeHolder: 'RICE_001',
        });
        if (v !== undefined) o.kbCode = v.trim();
        break;
      }
      case 'topK': {
        const v = await askNumber(vscode.l10n.t('Passages to retrieve (top_k)'), o.topK, 1, 20, true);
        if (v !== undefined) o.topK = v;
        break;
      }
      case 'minScore': {
        const v = await askNumber(vscode.l10n.t('Minimum score (min_score)'), o.minScore, 0, 1, false);
        if (v !== undefined) o.minScore = v;
        break;
      }
      case 'rerank':
        o.useRerank = !o.useRerank;
        break;
      case 'weather': {
        const v = await vscode.window.showInputBox({
          title: vscode.l10n.t('Include the weather for a place (empty = none)'),
          value: o.weather,
          placeHolder: '成都',
        });
        if (v !== undefined) o.weather = v.trim();
        break;
      }
    }
  }
}

/** The usage line; figures from the local endpoint are labelled as estimates. */
export function usageText(u: ChatUsage | undefined, local: boolean): string {
  if (!u) return vscode.l10n.t('No usage was reported.');
  const k = u.agriwis_knowledge_search_usage;
  const w = u.agriwis_weather_search_usage;
  const text = vscode.l10n.t(
    'Knowledge search: {0} call(s), {1} chunk(s) · Weather: {2} call(s) · Tokens: {3} prompt + {4} completion = {5}',
    k?.tool_usage ?? 0,
    k?.chunk_usage ?? 0,
    w?.tool_usage ?? 0,
    u.prompt_tokens,
    u.completion_tokens,
    u.total_tokens,
  );
  return local ? `${text} ${vscode.l10n.t('(estimates counted by the local endpoint)')}` : text;
}

interface PreviewState {
  question: string;
  content: string;
  status: string;
  knowledge: ResolvedKnowledge[];
  weather: WeatherSource[];
  usage: string;
}

function renderPreview(s: PreviewState): string {
  const lines = [`# ${vscode.l10n.t('Draft')}: ${s.question}`, '', s.content || '…', '', `*${s.status}*`];
  if (s.knowledge.length || s.weather.length) {
    lines.push('', '---', '', `**${vscode.l10n.t('Sources')}**`, '');
    s.knowledge.forEach((k, i) =>
      lines.push(
        `${i + 1}. ${k.title} · ${k.kbId} — ${k.passage ? `${k.passage.docName}#${k.passage.chunkIndex}` : vscode.l10n.t('not matched to a passage (cited as 〔title · kb_id〕)')}`,
      ),
    );
    for (const w of s.weather)
      lines.push(
        `- ${vscode.l10n.t('Weather')}: ${w.location} · ${w.date} · ${w.summary} (${w.provider}, ${w.updatedAt})`,
      );
  }
  if (s.usage) lines.push('', `**${vscode.l10n.t('Usage')}**: ${s.usage}`);
  return lines.join('\n') + '\n';
}

function kbNameOf(kbCodes: string, kbNames: string, code: string): string {
  const codes = kbCodes.split(',');
  const names = kbNames.split(',');
  return names[codes.indexOf(code)] ?? code;
}

function sourceLabel(
  s: DraftSentence,
  knowledge: readonly ResolvedKnowledge[],
  weather: readonly WeatherSource[],
): string {
  if (s.from.kind === 'knowledge') {
    const k = knowledge[s.from.index]!;
    return k.passage ? `${k.passage.docName}#${k.passage.chunkIndex}` : `〔${k.title} · ${k.kbId}〕`;
  }
  if (s.from.kind === 'weather') return `${vscode.l10n.t('Weather')}: ${weather[s.from.index]?.location ?? ''}`;
  return vscode.l10n.t('not found verbatim in a cited passage');
}

/** Runs the command. */
export async function draftWithKnowledge(
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
    void vscode.window.showErrorMessage(describeError(e, endpoint));
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
    result = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Shunong: drafting with knowledge'),
        cancellable: true,
      },
      async (progress, token) => {
        const ctl = new AbortController();
        const sub = token.onCancellationRequested(() => ctl.abort());
        try {
          progress.report({ message: vscode.l10n.t('Writing…') });
          let done: ChatResult | undefined;
          for await (const ev of client.stream(request, { signal: ctl.signal })) {
            if (ev.type === 'delta') {
              state.content += ev.content;
              soon();
            } else done = ev.result;
          }
          if (!done) throw new platform.ProtocolError('no result');
          state.content = done.content;
          progress.report({ message: vscode.l10n.t('Finding the cited passages…') });
          state.knowledge = await resolveAll(services, done.annotations, question, ctl.signal);
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
        } finally {
          sub.dispose();
        }
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
    else void vscode.window.showErrorMessage(describeError(e, endpoint));
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
    langOf(vscode.env.language),
    loadCitations().escapeSnippetText,
  );
  const target = await vscode.window.showTextDocument(editor.document, {
    viewColumn: editor.viewColumn ?? vscode.ViewColumn.One,
    preserveFocus: false,
  });
  const ok = await services.citations().insertDraft(target, blocks);
  state.status = ok
    ? vscode.l10n.t('Inserted {0} of {1} sentences.', accepted.size, sentences.length)
    : vscode.l10n.t('Nothing was inserted.');
  flush();
  return { ...base, status: ok ? 'inserted' : 'failed' };
}

async function chooseSentences(
  sentences: DraftSentence[],
  state: PreviewState,
  scripted: DraftArgs['accept'],
): Promise<Set<number> | undefined> {
  if (scripted !== undefined) {
    if (scripted === 'all') return new Set(sentences.map((s) => s.id));
    if (scripted === 'none') return undefined;
    return new Set(scripted.filter((id) => sentences.some((s) => s.id === id)));
  }
  if (sentences.length === 0) return undefined;
  const choice = await vscode.window.showQuickPick(
    [
      {
        id: 'all',
        label: `$(check) ${vscode.l10n.t('Accept all')}`,
        description: vscode.l10n.t('{0} sentences', sentences.length),
      },
      { id: 'part', label: `$(checklist) ${vscode.l10n.t('Choose sentences…')}` },
      { id: 'none', label: `$(trash) ${vscode.l10n.t('Discard')}` },
    ],
    { title: vscode.l10n.t('Insert the draft into the bulletin?'), placeHolder: state.usage, ignoreFocusOut: true },
  );
  if (!choice || choice.id === 'none') return undefined;
  if (choice.id === 'all') return new Set(sentences.map((s) => s.id));
  const picks = await vscode.window.showQuickPick(
    sentences.map((s) => ({
      label: s.text,
      description: sourceLabel(s, state.knowledge, state.weather),
      picked: true,
      id: s.id,
    })),
    {
      title: vscode.l10n.t('Keep the checked sentences'),
      canPickMany: true,
      ignoreFocusOut: true,
      matchOnDescription: true,
    },
  );
  return picks ? new Set(picks.map((p) => p.id)) : undefined;
}

/** Resolves each knowledge citation to a passage by searching its summary in its knowledge base (MCP). */
async function resolveAll(
  services: DraftServices,
  annotations: Annotation[],
  question: string,
  signal: AbortSignal,
): Promise<ResolvedKnowledge[]> {
  const platform = loadPlatform();
  const cites = annotations.filter((a): a is KnowledgeCitation => platform.isKnowledgeCitation(a));
  const out: ResolvedKnowledge[] = [];
  for (const k of cites) {
    const r: ResolvedKnowledge = { kbId: k.kb_id, title: k.title, summary: k.summary, score: k.score };
    const prefix = platform.summaryPrefix(k.summary);
    if (prefix) {
      try {
        const hits = await services.connection.run((c) =>
          c.knowledgeSearch({ query: prefix, kbCode: k.kb_id, topK: 10, scoreThreshold: 0 }, { signal }),
        );
        const s = platform.matchCitation(k, hits.sources);
        if (s) {
          const passage: CitedPassage = {
            docName: s.doc_name,
            chunkIndex: s.chunk_index,
            content: s.content,
            kbCode: k.kb_id,
            kbName: kbNameOf(hits.kb_code, hits.kb_name, k.kb_id),
            query: question,
            score: k.score ?? s.score,
            scoreType: k.score !== undefined ? 'cosine_similarity(0~1)' : hits.score_type,
            retrievedAt: new Date().toISOString(),
          };
          r.passage = passage;
        }
      } catch (e) {
        if (isPlatformError(e, 'cancelled')) throw e;
        // not resolved: cited as 〔title · kb_id〕
      }
    }
    out.push(r);
  }
  return out;
}

/** Registers the command and the preview provider. */
export function activate(context: vscode.ExtensionContext, services: DraftServices): void {
  const preview = new DraftPreview();
  context.subscriptions.push(
    preview,
    vscode.workspace.registerTextDocumentContentProvider(DRAFT_SCHEME, preview),
    vscode.commands.registerCommand('shunong.draftWithKnowledge', (args?: DraftArgs) =>
      draftWithKnowledge(services, preview, args),
    ),
  );
}
