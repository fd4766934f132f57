/**
 * "Citations" view: the citations of the active bulletin, each with its uses (jump to each) and,
 * when cached, its passage. Native TreeView in the Shunong container.
 */
import type { Command } from '../shared/commands';
import vscode = require('vscode');
import { showBidi } from '../../text/bidi';
import { plainForMarkdown } from '../../text/plain';
import type { CitationCache, DocumentModel, SourceRange } from '../../citations/index';

/** What the view reads: a document's citation model and the workspace cache of passages. */
export interface CitationSources {
  model(doc: vscode.TextDocument): DocumentModel;
  readonly cache: CitationCache;
}

type Node =
  | { kind: 'citation'; key: string; label: string; kb: string; uses: SourceRange[]; problem: boolean }
  | { kind: 'use'; key: string; range: SourceRange; line: string };

/** Tree data of the active Markdown editor's citations. */
export class CitationTree implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private doc: vscode.TextDocument | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly subs: vscode.Disposable[];

  constructor(private readonly citations: CitationSources) {
    this.doc = markdownOf(vscode.window.activeTextEditor);
    this.subs = [
      vscode.window.onDidChangeActiveTextEditor((e) => {
        const doc = markdownOf(e);
        if (doc || !e) {
          this.doc = doc;
          this.refresh();
        }
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document === this.doc) this.refreshSoon();
      }),
    ];
  }

  /** Re-reads the tree now. */
  refresh(): void {
    this.changed.fire(undefined);
  }

  private refreshSoon(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.refresh(), 300);
  }

  /** The document the view shows. */
  get document(): vscode.TextDocument | undefined {
    return this.doc;
  }

  getChildren(node?: Node): Node[] {
    const doc = this.doc;
    if (!doc || doc.isClosed) return [];
    if (node?.kind === 'citation')
      return node.uses.map((range) => ({
        kind: 'use',
        key: node.key,
        range,
        line: doc.lineAt(range.line).text.trim(),
      }));
    if (node) return [];
    return citationNodes(this.citations.model(doc));
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'use') {
      const item = new vscode.TreeItem(node.line.length > 60 ? `${node.line.slice(0, 60)}…` : node.line);
      item.description = vscode.l10n.t('line {0}', node.range.line + 1);
      item.iconPath = new vscode.ThemeIcon('arrow-right');
      item.command = {
        command: 'shunong.citations.reveal',
        title: vscode.l10n.t('Go to the citation'),
        arguments: [this.doc?.uri, node.range.start, node.range.end],
      };
      return item;
    }
    const item = new vscode.TreeItem(
      showBidi(node.label),
      node.uses.length ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
    );
    item.description = node.uses.length
      ? `${showBidi(node.kb)} · ${node.uses.length === 1 ? vscode.l10n.t('1 use') : vscode.l10n.t('{0} uses', node.uses.length)}`
      : `${showBidi(node.kb)} · ${vscode.l10n.t('unused')}`;
    item.iconPath = new vscode.ThemeIcon(node.problem ? 'warning' : 'quote');
    item.contextValue = this.citations.cache.has(node.key) ? 'citation.cached' : 'citation';
    const ctx = this.citations.cache.get(node.key);
    item.tooltip = ctx
      ? new vscode.MarkdownString().appendText(plainForMarkdown(showBidi(`${node.key}\n\n${ctx.content}`)))
      : showBidi(node.key);
    if (ctx)
      item.command = {
        command: 'shunong.openPassage',
        title: vscode.l10n.t('Open the full passage'),
        arguments: [node.key],
      };
    return item;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.changed.dispose();
    for (const s of this.subs) s.dispose();
  }
}

function markdownOf(e: vscode.TextEditor | undefined): vscode.TextDocument | undefined {
  return e && e.document.languageId === 'markdown' ? e.document : undefined;
}

/** One node per cited source: our definitions (in number order) and inline citations. */
function citationNodes(model: DocumentModel): Node[] {
  const nodes: Node[] = [];
  const problems = new Set(model.problems.map((p) => p.label).filter((l): l is string => l !== undefined));
  for (const d of [...model.definitions].sort((a, b) => a.number - b.number)) {
    if (d.duplicateLabel) continue;
    const key = d.citation ? `${d.citation.docName}#${d.citation.chunkIndex}` : d.citationRaw;
    const uses = model.references.filter((r) => r.ours && r.label === d.label).map((r) => r.range);
    nodes.push({
      kind: 'citation',
      key,
      label: `[^${d.label}] ${key}`,
      kb: d.kbName,
      uses,
      problem: problems.has(d.label) || !d.citation,
    });
  }
  const inline = new Map<string, SourceRange[]>();
  for (const c of model.inlineCitations) {
    const key = c.citation ? `${c.citation.docName}#${c.citation.chunkIndex}` : c.raw;
    inline.set(key, [...(inline.get(key) ?? []), c.range]);
  }
  for (const [key, uses] of inline)
    nodes.push({ kind: 'citation', key, label: `〔${key}〕`, kb: '', uses, problem: false });
  return nodes;
}

/** Registers the view; returns it with its reveal command. */
export function registerCitationTree(citations: CitationSources): {
  tree: CitationTree;
  disposables: vscode.Disposable[];
  reveal: Command;
} {
  const tree = new CitationTree(citations);
  const view = vscode.window.createTreeView('shunong.citations', { treeDataProvider: tree, showCollapseAll: true });
  const reveal: Command = {
    id: 'shunong.citations.reveal',
    run: async (uri: vscode.Uri, start: number, end: number) => {
      const doc = await vscode.workspace.openTextDocument(uri);
      const editor = await vscode.window.showTextDocument(doc);
      const range = new vscode.Range(doc.positionAt(start), doc.positionAt(end));
      editor.selection = new vscode.Selection(range.start, range.end);
      editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    },
  };
  return { tree, disposables: [tree, view], reveal };
}
