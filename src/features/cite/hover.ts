/** The hover of a citation: the cached passage, its knowledge base, its score by type and a link to the full passage. */
import vscode = require('vscode');
import { showBidi } from '../../text/bidi';
import { plainForMarkdown } from '../../text/plain';
import type { CitationCache, CitationContext, DocumentModel, SourceRange } from '../../citations/index';
import { loadCitations } from '../../bundles';
import { scoreLine } from '../shared/passageText';
import type { SourceOutcome, SourceOutcomes } from '../shared/sourceOutcomes';
import { toRange } from './ranges';

/** What a citation at an offset cites: its range, the passage and, for a footnote, its knowledge base. */
interface CitedAt {
  range: SourceRange;
  citation: { docName: string; chunkIndex: number };
  kb: string | undefined;
  kbCode: string | undefined;
}

/** The hover of a citation reference, definition or inline citation at `pos` (undefined elsewhere). */
export function citationHover(
  doc: vscode.TextDocument,
  pos: vscode.Position,
  model: DocumentModel,
  cache: CitationCache,
  outcomes?: SourceOutcomes,
): vscode.Hover | undefined {
  const offset = doc.offsetAt(pos);
  const cited = citedAt(model, offset);
  if (!cited) return undefined;
  const { range, citation, kb, kbCode } = cited;
  const key = `${citation.docName}#${citation.chunkIndex}`;
  const ctx = cache.get(key);
  const md = new vscode.MarkdownString(undefined, false);
  md.supportHtml = false;
  md.isTrusted = { enabledCommands: ['shunong.openPassage', 'shunong.fetchPassage'] };
  md.appendMarkdown('**');
  md.appendText(plainForMarkdown(showBidi(key)));
  md.appendMarkdown('**');
  const verified = outcomes?.get(loadCitations().sourceKey(kbCode || undefined, key));
  if (verified) {
    md.appendMarkdown('\n\n');
    md.appendText(outcomeLine(verified));
  }
  if (ctx) appendCached(md, ctx, key);
  else appendUncached(md, kb, doc, offset);
  return new vscode.Hover(md, toRange(doc, range));
}

/** The citation reference, definition or inline citation at `offset`, with what it cites (undefined elsewhere). */
function citedAt(model: DocumentModel, offset: number): CitedAt | undefined {
  const inside = (r: SourceRange): boolean => offset >= r.start && offset < r.end;
  const defByLabel = new Map(model.definitions.filter((d) => !d.duplicateLabel).map((d) => [d.label, d]));
  const ref = model.references.find((r) => r.ours && inside(r.range));
  const def = model.definitions.find((d) => inside(d.range));
  const inline = model.inlineCitations.find((c) => inside(c.range));
  let range: SourceRange | undefined;
  let citation: { docName: string; chunkIndex: number } | undefined;
  let kb: string | undefined;
  let kbCode: string | undefined;
  if (ref) {
    range = ref.range;
    const d = defByLabel.get(ref.label);
    citation = d?.citation;
    if (d) kb = `${d.kbName} (${d.kbCode})`;
    kbCode = d?.kbCode;
  } else if (def) {
    range = def.citationRange.start <= offset && offset < def.citationRange.end ? def.citationRange : def.range;
    citation = def.citation;
    kb = `${def.kbName} (${def.kbCode})`;
    kbCode = def.kbCode;
  } else if (inline) {
    range = inline.range;
    citation = inline.citation;
  }
  if (!range || !citation) return undefined;
  return { range, citation, kb, kbCode };
}

/** Appends the cached passage: its knowledge base, its text, its score, when it was retrieved and a link to all of it. */
function appendCached(md: vscode.MarkdownString, ctx: CitationContext, key: string): void {
  md.appendMarkdown('\n\n');
  md.appendText(plainForMarkdown(showBidi(`${ctx.kbName} (${ctx.kbCode})`)));
  md.appendMarkdown('\n\n> ');
  md.appendText(plainForMarkdown(showBidi(ctx.content.length > 600 ? `${ctx.content.slice(0, 600)}…` : ctx.content)));
  md.appendMarkdown('\n\n');
  md.appendText(plainForMarkdown(scoreLine(ctx)));
  md.appendMarkdown('\n\n');
  md.appendText(
    plainForMarkdown(
      vscode.l10n.t('Retrieved {0} for "{1}"', ctx.retrievedAt.slice(0, 16).replace('T', ' '), ctx.query),
    ),
  );
  const args = encodeURIComponent(JSON.stringify([key]));
  md.appendMarkdown(`\n\n[${vscode.l10n.t('Open the full passage')}](command:shunong.openPassage?${args})`);
}

/** Appends the knowledge base where known, that nothing is cached, and a link that fetches the passage. */
function appendUncached(
  md: vscode.MarkdownString,
  kb: string | undefined,
  doc: vscode.TextDocument,
  offset: number,
): void {
  if (kb) {
    md.appendMarkdown('\n\n');
    md.appendText(plainForMarkdown(showBidi(kb)));
  }
  md.appendMarkdown('\n\n');
  md.appendText(
    vscode.l10n.t(
      'No retrieval context is cached for this citation in this workspace. Search for it again to see the passage.',
    ),
  );
  const args = encodeURIComponent(JSON.stringify([doc.uri.toString(), offset]));
  md.appendMarkdown(`\n\n[${vscode.l10n.t('Fetch this passage')}](command:shunong.fetchPassage?${args})`);
}

/** What the last "Verify Citations" found for the source (server text as plain text). */
function outcomeLine({ outcome: o, date }: SourceOutcome): string {
  switch (o.status) {
    case 'verified':
      return vscode.l10n.t('✓ Found in the knowledge base on {0}', date);
    case 'changed':
      return vscode.l10n.t('⚠ Changed on the platform (seen {0}); its text now: {1}', date, excerpt(o.passage.content));
    case 'not-located':
      return vscode.l10n.t('⚠ Not located on {0} (a search cannot prove it does not exist)', date);
    case 'unknown-kb':
      return vscode.l10n.t("⚠ The knowledge base {0} is not one of this account's", o.kbCode);
    case 'unverified':
      return vscode.l10n.t('Not verified: {0}', o.message);
  }
}

function excerpt(s: string): string {
  const flat = showBidi(s.replace(/\s+/g, ' ').trim());
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}
