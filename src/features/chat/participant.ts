/**
 * `@shunong` in VS Code's chat: `/search` (the default) and `/draft` ask the knowledge base, then
 * the model the author chose (`request.model`) writes from the passages returned — and only from
 * them: each paragraph is buffered and grounded before it is shown (src/chat/grounding.ts), any
 * citation that is not a passage of this turn is removed and the author told. The passages are shown
 * as references; a button inserts the answer into the active bulletin with real citations, through
 * the same insertion as the draft (one edit, one undo). `/weather` and `/today` answer from the tools.
 */
import type { CommandId } from '../../settings/commands';
import type { Command } from '../shared/commands';
import vscode = require('vscode');
import { groundParagraph, ParagraphBuffer, runsOf } from '../../chat/grounding';
import { groundedPrompt, type ChatTask } from '../../chat/prompt';
import type { ReturnedPassage } from '../../chat/toolText';
import type { CitedPassage } from '../../citations/passage';
import type { DraftBlock } from '../../citations/draftPlan';
import type { Connection } from '../shared/connection';
import type { KnowledgeStore } from '../shared/knowledgeStore';
import { uiLanguage } from '../shared/language';
import type { PassageDocs } from '../shared/passageDocs';
import type { SafetyService } from '../shared/safety';
import { settings } from '../shared/settings';
import { showBidi } from '../../text/bidi';
import { plainForMarkdown } from '../../text/plain';
import { passagesText, todayText, weatherText } from './authorText';
import { searchKnowledge, type CallAnswer } from './calls';

/** The participant id, as package.json declares it. */
const PARTICIPANT_ID = 'shunong.chat';
/** The command the insert button runs. */
const INSERT_COMMAND: CommandId = 'shunong.chat.insertAnswer';

/** What the participant needs. */
export interface ParticipantServices {
  readonly connection: Connection;
  readonly store: KnowledgeStore;
  readonly docs: PassageDocs;
  /** The draft insertion (one edit, one undo step). */
  insertDraft(editor: vscode.TextEditor, blocks: readonly DraftBlock[]): Promise<boolean>;
  /** The dose check of a paragraph against the passages it cites (none: not checked). */
  readonly safety?: SafetyService;
}

/** What one answer left: its blocks for the insertion, the citations removed. */
export interface ChatAnswer {
  readonly id: string;
  readonly blocks: readonly DraftBlock[];
  readonly removed: readonly string[];
  readonly passages: readonly ReturnedPassage[];
}

/** Text for chat Markdown: shown as text, never as Markdown or a link. */
/** Text (ours, or the platform's weather and calendar words) shown as it is: no link, no markup, bidi controls visible. */
function asText(text: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.appendText(plainForMarkdown(showBidi(text)));
  return md;
}

function citedPassage(p: ReturnedPassage, query: string, at: string): CitedPassage {
  return {
    docName: p.docName,
    chunkIndex: p.chunkIndex,
    content: p.content,
    kbCode: p.kbCode,
    kbName: p.kbName,
    query,
    score: p.score,
    scoreType: p.scoreType,
    retrievedAt: at,
  };
}

/** The participant's handler and its answers (kept for the insert button; the tests read them). */
export class ShunongParticipant {
  private readonly answers = new Map<string, ChatAnswer>();
  private counter = 0;

  constructor(private readonly services: ParticipantServices) {}

  /** The answer with `id`, if it is still kept. */
  answer(id: string): ChatAnswer | undefined {
    return this.answers.get(id);
  }

  /** Answers one chat request. */
  readonly handle: vscode.ChatRequestHandler = async (request, _context, stream, token) => {
    const { connection } = this.services;
    const prompt = request.prompt.trim();
    if (request.command === 'today') {
      stream.markdown(asText(await todayText(connection, token)));
      return {};
    }
    if (request.command === 'weather') {
      const answer = await weatherText(connection, prompt || settings.weather().defaultLocation.trim(), token);
      stream.markdown('markdown' in answer ? new vscode.MarkdownString(answer.markdown) : asText(answer.text));
      return {};
    }
    const task: ChatTask = request.command === 'draft' ? 'draft' : 'search';
    if (!prompt) {
      stream.markdown(
        asText(vscode.l10n.t('Ask a question after @shunong, e.g. "@shunong /search 小麦拔节期怎么追肥".')),
      );
      return {};
    }
    stream.progress(vscode.l10n.t('Searching the Shunong knowledge base…'));
    const found = await searchKnowledge(this.services, { query: prompt }, token);
    if (!found.ok || found.passages.length === 0) {
      stream.markdown(
        asText(
          vscode.l10n.t(
            'The knowledge base returned no passage for this question, so nothing is cited and nothing is written from it.',
          ),
        ),
      );
      stream.markdown(asText(`\n\n${found.author ?? ''}`));
      return { metadata: { passages: 0 } };
    }
    const retrievedAt = new Date().toISOString();
    const cited = new Map(found.passages.map((p) => [p.key, citedPassage(p, prompt, retrievedAt)]));
    for (const p of cited.values()) stream.reference(this.services.docs.remember(p));
    const model = request.model as vscode.LanguageModelChat | undefined;
    if (!model) {
      stream.markdown(
        asText(
          vscode.l10n.t(
            'No language model is available in this chat; here are the passages the knowledge base returned.',
          ),
        ),
      );
      stream.markdown(asText(`\n\n${passagesText(found.passages)}`));
      return { metadata: { passages: found.passages.length } };
    }
    return this.write(task, prompt, found, cited, model, stream, token);
  };

  private async write(
    task: ChatTask,
    prompt: string,
    found: CallAnswer,
    cited: ReadonlyMap<string, CitedPassage>,
    model: vscode.LanguageModelChat,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<vscode.ChatResult> {
    stream.progress(vscode.l10n.t('Writing with {0}…', model.name));
    const messages = [
      vscode.LanguageModelChatMessage.User(groundedPrompt(task, found.passages)),
      vscode.LanguageModelChatMessage.User(prompt),
    ];
    const allowed = new Set(cited.keys());
    const blocks: DraftBlock[] = [];
    const removed: string[] = [];
    const show = (paragraph: string): void => {
      const g = groundParagraph(paragraph, allowed);
      removed.push(...g.removed);
      if (!g.text.trim()) return;
      // The model's Markdown is shown untrusted (no commands, no HTML).
      stream.markdown(new vscode.MarkdownString(`${g.text}\n\n`));
      for (const note of this.doseNotes(g.text, cited)) stream.markdown(asText(`⚠ ${note}\n\n`));
      blocks.push({
        runs: runsOf(g.text).map((r) => ({
          text: r.text,
          cites: r.keys.map((k) => ({ kind: 'passage' as const, passage: cited.get(k)! })),
        })),
      });
    };
    const buffer = new ParagraphBuffer();
    try {
      const response = await model.sendRequest(messages, {}, token);
      for await (const fragment of response.text) for (const p of buffer.push(fragment)) show(p);
      for (const p of buffer.flush()) show(p);
    } catch (err) {
      if (token.isCancellationRequested) return {};
      const why = err instanceof Error ? err.message : String(err);
      stream.markdown(asText(vscode.l10n.t('The language model could not answer: {0}', why)));
      return { errorDetails: { message: why } };
    }
    if (removed.length > 0) {
      stream.markdown(
        asText(
          vscode.l10n.t(
            'Removed {0} citation(s) that are not passages the knowledge base returned in this answer: {1}',
            removed.length,
            removed.join(' '),
          ),
        ),
      );
    }
    const id = `a${++this.counter}`;
    this.answers.set(id, { id, blocks, removed, passages: found.passages });
    if (blocks.length) {
      stream.button({ command: INSERT_COMMAND, arguments: [id], title: vscode.l10n.t('Insert into the bulletin') });
    }
    return { metadata: { answerId: id, passages: found.passages.length, removed: removed.length } };
  }

  /**
   * What a grounded paragraph says of a dose that its cited passages do not give (a different
   * value, a dilution that does not add up, a fact they lack), in the UI language: marked under
   * the paragraph, in the same pass that removes invented citations. Once inserted, the editor's
   * own dose Problems take over.
   */
  private doseNotes(text: string, cited: ReadonlyMap<string, CitedPassage>): string[] {
    const safety = this.services.safety;
    if (!safety || !/〔/.test(text)) return [];
    const found = safety.core.checkDoses(text, {
      rules: safety.rules,
      lookup: (key) => {
        const p = cited.get(key);
        return p ? { text: p.content } : undefined;
      },
      date: safety.today(),
    });
    return found
      .filter((f) => f.code === 'dose-mismatch' || f.code === 'dose-arithmetic' || f.code === 'dose-unsupported')
      .map((f) => vscode.l10n.t('Not what the cited passage gives: {0}', safety.core.doseMessage(f, uiLanguage())));
  }

  /** The insert button: the answer into the active Markdown editor at the cursor, one edit. */
  async insert(id: unknown): Promise<boolean> {
    const answer = typeof id === 'string' ? this.answers.get(id) : undefined;
    if (!answer) {
      void vscode.window.showWarningMessage(vscode.l10n.t('This chat answer is no longer available; ask again.'));
      return false;
    }
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document.languageId !== 'markdown') {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('Open a Markdown bulletin and put the cursor where the answer goes.'),
      );
      return false;
    }
    return this.services.insertDraft(editor, answer.blocks);
  }
}

/**
 * Creates `@shunong` (or takes over the stand-in activation registered, `takeOver`); dispose to
 * remove it. Its insert command ({@link insertAnswerCommand}) is the registry's.
 */
/** "Insert this answer", the button under an answer of `@shunong`. */
export function insertAnswerCommand(participant: ShunongParticipant): Command {
  return { id: INSERT_COMMAND, run: (id: unknown) => participant.insert(id) };
}

export function registerParticipant(
  participant: ShunongParticipant,
  extensionUri: vscode.Uri,
  takeOver?: (handler: vscode.ChatRequestHandler) => vscode.Disposable | undefined,
): vscode.Disposable {
  let chat = takeOver?.(participant.handle);
  if (!chat) {
    const created = vscode.chat.createChatParticipant(PARTICIPANT_ID, participant.handle);
    created.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'icon.png');
    chat = created;
  }
  return chat;
}
