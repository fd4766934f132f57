/** The draft's read-only preview beside the bulletin (`shunong-draft:` documents) and its text. */
import vscode = require('vscode');
import type { ChatUsage } from '../../shunong/index';
import type { ResolvedKnowledge, WeatherSource } from '../../citations/draftBlocks';

export const DRAFT_SCHEME = 'shunong-draft';

/** The read-only preview documents (`shunong-draft:` URIs). */
export class DraftPreview implements vscode.TextDocumentContentProvider {
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

/** What the preview shows. */
export interface PreviewState {
  question: string;
  content: string;
  status: string;
  knowledge: ResolvedKnowledge[];
  weather: WeatherSource[];
  usage: string;
}

/** The preview's Markdown. */
export function renderPreview(s: PreviewState): string {
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
