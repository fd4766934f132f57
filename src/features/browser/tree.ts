/**
 * The knowledge browser's tree: knowledge bases seen (with their codes), recent searches (query →
 * passages) and pinned passages. Tooltips carry server text as plain text only.
 */
import vscode = require('vscode');
import { showBidi } from '../../text/bidi';
import { plainForMarkdown } from '../../text/plain';
import { PASSAGE_MIME, type CitedPassage } from '../../citations/passage';
import {
  idOf,
  isPinned,
  keyOf,
  type SearchRecord,
  type SeenKnowledgeBase,
  type StoredPassage,
} from '../../knowledge/history';
import { firstLine } from '../../knowledge/snippet';
import type { KnowledgeStore } from '../shared/knowledgeStore';
import { passageCount, scoreLine, scoreNote, scoreText } from '../shared/passageText';

/** A node of the knowledge browser. */
export type BrowserNode =
  | { readonly type: 'section'; readonly id: string; readonly section: 'bases' | 'history' | 'pins' }
  | { readonly type: 'base'; readonly id: string; readonly base: SeenKnowledgeBase }
  | { readonly type: 'search'; readonly id: string; readonly record: SearchRecord }
  | {
      readonly type: 'passage';
      readonly id: string;
      readonly passage: CitedPassage;
      readonly stored?: StoredPassage;
      /** The search it belongs to; absent for a pin. */
      readonly record?: SearchRecord;
    };

/** The tree data provider and drag source of the knowledge browser. */
export class KnowledgeTree
  implements vscode.TreeDataProvider<BrowserNode>, vscode.TreeDragAndDropController<BrowserNode>, vscode.Disposable
{
  private readonly changed = new vscode.EventEmitter<BrowserNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly dragMimeTypes = [PASSAGE_MIME];
  readonly dropMimeTypes: readonly string[] = [];
  private readonly nodes = new Map<string, BrowserNode>();
  private readonly parents = new Map<string, BrowserNode>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly store: KnowledgeStore) {
    this.subscription = store.onDidChange(() => this.refresh());
  }

  /** Rebuilds the tree from the store. */
  refresh(): void {
    this.nodes.clear();
    this.parents.clear();
    this.changed.fire(undefined);
  }

  private remember<T extends BrowserNode>(node: T, parent?: BrowserNode): T {
    const known = this.nodes.get(node.id) as T | undefined;
    if (known && JSON.stringify(known) === JSON.stringify(node)) return known;
    this.nodes.set(node.id, node);
    if (parent) this.parents.set(node.id, parent);
    return node;
  }

  /** The sections (only those with content: an empty tree shows the welcome view). */
  getChildren(node?: BrowserNode): BrowserNode[] {
    const s = this.store.state;
    if (!node) {
      if (s.bases.length === 0 && s.history.length === 0 && s.pins.length === 0) return [];
      return (['history', 'pins', 'bases'] as const).map((section) =>
        this.remember({ type: 'section', id: `section:${section}`, section }),
      );
    }
    switch (node.type) {
      case 'section':
        if (node.section === 'bases')
          return s.bases.map((base) => this.remember({ type: 'base', id: `base:${base.code}`, base }, node));
        if (node.section === 'history')
          return s.history.map((record) => this.remember({ type: 'search', id: `search:${record.id}`, record }, node));
        return s.pins.map((passage) => this.remember({ type: 'passage', id: `pin:${idOf(passage)}`, passage }, node));
      case 'search':
        return node.record.passages.map((stored) =>
          this.remember(
            {
              type: 'passage',
              id: `passage:${node.record.id}/${idOf(stored.passage)}`,
              passage: stored.passage,
              stored,
              record: node.record,
            },
            node,
          ),
        );
      default:
        return [];
    }
  }

  getParent(node: BrowserNode): BrowserNode | undefined {
    if (node.type === 'section') return undefined;
    const known = this.parents.get(node.id);
    if (known) return known;
    if (node.type === 'base') return this.remember({ type: 'section', id: 'section:bases', section: 'bases' });
    if (node.type === 'search') return this.remember({ type: 'section', id: 'section:history', section: 'history' });
    if (node.record) return this.remember({ type: 'search', id: `search:${node.record.id}`, record: node.record });
    return this.remember({ type: 'section', id: 'section:pins', section: 'pins' });
  }

  /** The passage node of a search, for reveal. */
  passageNode(recordId: string, passageId: string): BrowserNode | undefined {
    const record = this.store.state.history.find((r) => r.id === recordId);
    if (!record) return undefined;
    const section = this.remember({ type: 'section', id: 'section:history', section: 'history' });
    const searchNode = this.remember({ type: 'search', id: `search:${record.id}`, record }, section);
    return this.getChildren(searchNode).find((n) => n.type === 'passage' && idOf(n.passage) === passageId);
  }

  getTreeItem(node: BrowserNode): vscode.TreeItem {
    const s = this.store.state;
    switch (node.type) {
      case 'section': {
        const [label, count, icon] =
          node.section === 'bases'
            ? [vscode.l10n.t('Knowledge bases'), s.bases.length, 'database']
            : node.section === 'history'
              ? [vscode.l10n.t('Recent searches'), s.history.length, 'history']
              : [vscode.l10n.t('Pinned passages'), s.pins.length, 'pinned'];
        const item = new vscode.TreeItem(
          label,
          count > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
        );
        item.id = node.id;
        item.description = String(count);
        item.iconPath = new vscode.ThemeIcon(icon);
        item.contextValue = `shunong.section.${node.section}`;
        return item;
      }
      case 'base': {
        const item = new vscode.TreeItem(
          showBidi(node.base.name ?? node.base.code),
          vscode.TreeItemCollapsibleState.None,
        );
        item.id = node.id;
        item.description = showBidi(node.base.code);
        item.tooltip = showBidi(`${node.base.name ?? ''} (${node.base.code})`);
        item.iconPath = new vscode.ThemeIcon('library');
        item.contextValue = 'shunong.base';
        return item;
      }
      case 'search': {
        const r = node.record;
        const item = new vscode.TreeItem(r.options.query, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = node.id;
        item.description = `${passageCount(r.passages.length)} · ${r.options.kbCode ?? vscode.l10n.t('all knowledge bases')}`;
        item.tooltip = `${r.options.query}\n${r.kbCodes.join(', ')}\n${r.at.slice(0, 16).replace('T', ' ')}`;
        item.iconPath = new vscode.ThemeIcon('search');
        item.contextValue = 'shunong.search';
        return item;
      }
      case 'passage': {
        const p = node.passage;
        const pinned = isPinned(s, p);
        const item = new vscode.TreeItem(showBidi(firstLine(p.content, 60)), vscode.TreeItemCollapsibleState.None);
        item.id = node.id;
        item.description = showBidi(`${keyOf(p)} · ${p.kbName}`);
        item.tooltip = tooltip(p, node.stored);
        item.iconPath = new vscode.ThemeIcon(pinned ? 'pinned' : 'quote');
        item.contextValue = pinned ? 'shunong.passage.pinned' : 'shunong.passage';
        item.command = {
          command: 'shunong.browser.openPassage',
          title: vscode.l10n.t('Open the full passage'),
          arguments: [node],
        };
        return item;
      }
    }
  }

  /** Dragging passages: the first one travels as a cited passage (the Markdown drop inserts it cited). */
  handleDrag(source: readonly BrowserNode[], dataTransfer: vscode.DataTransfer): void {
    const node = source.find((n): n is BrowserNode & { type: 'passage' } => n.type === 'passage');
    if (node) dataTransfer.set(PASSAGE_MIME, new vscode.DataTransferItem(JSON.stringify(node.passage)));
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

/** The tooltip of a passage: citation, base, snippet, score — all server text appended as text. */
export function tooltip(p: CitedPassage, stored: StoredPassage | undefined): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, false);
  md.supportHtml = false;
  md.isTrusted = false;
  md.appendMarkdown('**');
  md.appendText(plainForMarkdown(showBidi(keyOf(p))));
  md.appendMarkdown('**\n\n');
  md.appendText(plainForMarkdown(showBidi(`${p.kbName} (${p.kbCode})`)));
  md.appendMarkdown('\n\n---\n\n');
  md.appendText(plainForMarkdown(showBidi(p.content.length > 800 ? `${p.content.slice(0, 800)}…` : p.content)));
  md.appendMarkdown('\n\n---\n\n');
  // A pin kept without its list: only what the score's type allows (the hover's wording).
  md.appendText(plainForMarkdown(stored ? scoreText(stored) : scoreLine(p)));
  md.appendMarkdown('\n\n');
  if (stored) {
    md.appendText(plainForMarkdown(scoreNote(p.scoreType, false)));
    md.appendMarkdown('\n\n');
  }
  md.appendText(
    plainForMarkdown(vscode.l10n.t('Retrieved {0} for "{1}"', p.retrievedAt.slice(0, 16).replace('T', ' '), p.query)),
  );
  return md;
}
