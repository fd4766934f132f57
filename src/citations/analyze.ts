/**
 * One parse of a bulletin → the citation model: our references and definitions, the author's
 * footnotes, inline citations, the references section, front matter, and the problems found.
 */
import { gluedToUrl } from './bareUrl';
import { isOurLabel, parseDefinitionBody, parseRawCitation } from './citation';
import { normalizeForParser, parseBlocks, type CiteMeta, type RefMeta, type RowMeta, type Token } from './parser';
import { LineIndex, inlineMapper, isBlankLine, type InlineKind } from './positions';
import type {
  AuthorDefinition,
  DocumentModel,
  FootnoteReference,
  InlineCitation,
  OurDefinition,
  ReferencesSection,
} from './model';
import { collectProblems } from './problems';
import { referencesHeadingOf } from '../text/words';
import type { CitationOptions, SourceRange } from './types';

/** A block the cursor may be in (internal, for insertion). */
export interface BlockInfo {
  kind: 'code' | 'html' | 'front-matter' | 'inline';
  startLine: number;
  /** Exclusive. */
  endLine: number;
  content?: string;
  where?: InlineKind;
  /** Exclusive end line of the top-level block (paragraph, table, list, quote, footnote) holding it: snippets go after it. */
  leafEndLine?: number;
}

/** The model plus what insertion needs (internal). */
export interface Analysis {
  model: DocumentModel;
  lines: LineIndex;
  blocks: BlockInfo[];
  /** Line ranges of the top-level blocks. */
  tops: [number, number][];
  /** Last top-level block: a fence/HTML block that may run to the end of the document. */
  lastBlock?: { type: string; map: [number, number]; markup: string };
}

/** The heading the author set (tolerating a leading `## `), or '' when none is. */
function setHeading(opts?: CitationOptions): string {
  return (opts?.referencesHeading ?? '').replace(/^\s*#+\s*/, '').trim();
}

/** The heading a new references section gets: the one set, else the document language's. */
export function headingText(opts?: CitationOptions): string {
  return setHeading(opts) || referencesHeadingOf(opts?.lang ?? 'zh');
}

/** The headings recognised as the references section: the one set, else `参考资料` and `References`. */
export function recognisedHeadings(opts?: CitationOptions): ReadonlySet<string> {
  const set = setHeading(opts);
  return new Set(set ? [set] : [referencesHeadingOf('zh'), referencesHeadingOf('en')]);
}

interface PendingDef {
  label: string;
  start: number;
  map: [number, number];
  level: number;
}

/**
 * Parses `text` once (markdown-it, see `parser.ts`) and returns the citation model.
 * Nothing inside code spans, code blocks, HTML blocks or front matter is reported.
 */
export function analyzeDocument(text: string, opts?: CitationOptions): DocumentModel {
  return analyze(text, opts).model;
}

/** {@link analyzeDocument} with the internals the editing operations need. */
export function analyze(text: string, opts?: CitationOptions): Analysis {
  const lines = new LineIndex(text);
  const tokens = parseBlocks(normalizeForParser(text));
  const wanted = recognisedHeadings(opts);
  const refs: { label: string; range: SourceRange; gluedToUrl?: true }[] = [];
  const inlineCitations: InlineCitation[] = [];
  const defs: PendingDef[] = [];
  const headings: { line: number; level: number; range: SourceRange; matches: boolean }[] = [];
  const blocks: BlockInfo[] = [];
  let frontMatter: SourceRange | undefined;
  let lastBlock: Analysis['lastBlock'];
  // Stryker disable next-line UnaryOperator: a row's tr_open sets it before any of its cells is read
  let rowLine = -1;
  let rowStart = 0;
  let cell = 0;
  let heading: { line: number; level: number; atx: boolean } | undefined;
  let def: PendingDef | undefined;
  let topEnd = 0;
  const tops: [number, number][] = [];

  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i]!;
    // closing tokens have no map
    if (tok.level === 0 && tok.map) {
      lastBlock = { type: tok.type, map: tok.map as [number, number], markup: tok.markup };
      topEnd = tok.map[1];
      tops.push(tok.map as [number, number]);
    }
    switch (tok.type) {
      case 'front_matter':
        frontMatter = lines.range(0, lines.lineEnd(tok.map![1] - 1));
        blocks.push({ kind: 'front-matter', startLine: 0, endLine: tok.map![1] });
        break;
      case 'fence':
      case 'code_block':
        blocks.push({ kind: 'code', startLine: tok.map![0], endLine: tok.map![1] });
        break;
      case 'html_block':
        blocks.push({ kind: 'html', startLine: tok.map![0], endLine: tok.map![1] });
        break;
      case 'tr_open':
        rowLine = tok.map![0];
        rowStart = (tok.meta as RowMeta).start;
        cell = 0;
        break;
      case 'heading_open':
        // Stryker disable next-line MethodExpression: an ATX heading's markup is all `#`, a setext one's has none
        heading = { line: tok.map![0], level: Number(tok.tag.slice(1)), atx: tok.markup.startsWith('#') };
        break;
      case 'heading_close':
        heading = undefined;
        break;
      case 'footnote_reference_open': {
        const meta = tok.meta as { label: string; start: number };
        def = { label: meta.label, start: meta.start, map: tok.map as [number, number], level: tok.level };
        break;
      }
      case 'footnote_reference_close':
        if (def) defs.push(def);
        def = undefined;
        break;
      case 'inline': {
        const prev = tokens[i - 1]!;
        const isCell = prev.type === 'th_open' || prev.type === 'td_open';
        const where: InlineKind = isCell
          ? { kind: 'cell', line: rowLine, start: rowStart, cell: cell++ }
          : { kind: 'lines', firstLine: tok.map![0], atx: heading?.atx ?? false };
        const startLine = isCell ? rowLine : tok.map![0];
        const endLine = isCell ? rowLine + 1 : tok.map![1];
        blocks.push({
          kind: 'inline',
          startLine,
          endLine,
          content: tok.content,
          where,
          leafEndLine: topEnd,
        });
        if (heading && !isCell) {
          const range = lines.range(lines.lineStart(heading.line), lines.lineEnd(heading.line));
          headings.push({ line: heading.line, level: heading.level, range, matches: wanted.has(tok.content) });
        }
        collectInline(tok, lines, where, refs, inlineCitations);
        break;
      }
    }
  }

  const model = buildModel(text, lines, refs, inlineCitations, defs, headings, frontMatter);
  return { model, lines, blocks, tops, ...(lastBlock ? { lastBlock } : {}) };
}

function collectInline(
  tok: Token,
  lines: LineIndex,
  where: InlineKind,
  refs: { label: string; range: SourceRange; gluedToUrl?: true }[],
  cites: InlineCitation[],
): void {
  const children = tok.children;
  if (!children) return;
  let map: ((p: number) => number) | undefined;
  children.forEach((child, k) => {
    if (child.type !== 'sn_ref' && child.type !== 'sn_cite') return;
    map ??= inlineMapper(lines, tok.content, where);
    const meta = child.meta as RefMeta | CiteMeta;
    const range = lines.range(map(meta.start), map(meta.end - 1) + 1);
    const before = plainBefore(children, k);
    const glued = gluedToUrl(before, child.type === 'sn_ref' ? 'reference' : 'inline')
      ? { gluedToUrl: true as const }
      : {};
    if (child.type === 'sn_ref') refs.push({ label: (meta as RefMeta).label, range, ...glued });
    else {
      const raw = (meta as CiteMeta).raw;
      const parsed = parseRawCitation(raw);
      cites.push(
        parsed.ok ? { raw, citation: parsed.citation, range, ...glued } : { raw, error: parsed, range, ...glued },
      );
    }
  });
}

/**
 * The text right before the inline token `k` that a renderer could read into a bare URL: the text
 * after the last link, code span, autolink, HTML or line break, emphasis marks included (GFM reads
 * them into a URL), with what ends before it: a line break as `\n`, any other construct as `)` (it
 * ends in neither a letter nor a space, which is what a URL's start is judged by). An emphasis
 * opened right before the token counts too: `http://a.cn/x/*[^1]*` loses its footnote to the link.
 */
function plainBefore(children: Token[], k: number): string {
  let text = '';
  let j = k - 1;
  // Stryker disable next-line Regex: no other token type holds these names (text_join leaves no text_special)
  for (; j >= 0 && /^(?:text|(?:em|strong|s)_(?:open|close))$/.test(children[j]!.type); j--)
    text = (children[j]!.type === 'text' ? children[j]!.content : children[j]!.markup) + text;
  if (j < 0) return text;
  // Stryker disable next-line Regex,StringLiteral: only softbreak and hardbreak hold `break`; a URL starts after `\n` as at the start
  return (/break$/.test(children[j]!.type) ? '\n' : ')') + text;
}

function buildModel(
  text: string,
  lines: LineIndex,
  refs: { label: string; range: SourceRange; gluedToUrl?: true }[],
  inlineCitations: InlineCitation[],
  defs: PendingDef[],
  headings: { line: number; level: number; range: SourceRange; matches: boolean }[],
  frontMatter: SourceRange | undefined,
): DocumentModel {
  const definitions: OurDefinition[] = [];
  const authorDefinitions: AuthorDefinition[] = [];
  const firstKind = new Map<string, 'ours' | 'author'>();
  for (const d of defs) {
    const duplicateLabel = firstKind.has(d.label);
    const ours = d.level === 0 ? readOurDefinition(d, lines, duplicateLabel) : undefined;
    if (ours) definitions.push(ours);
    else {
      const endLine = d.map[1];
      let lastLine = endLine - 1;
      // The first line holds `[^label]:`, so the blank test stops there at the latest; the bound keeps
      // the loop finite whatever the parser hands over.
      // Stryker disable next-line ConditionalExpression,EqualityOperator: the first line is never blank
      while (lastLine > d.map[0] && isBlankLine(lines.lineText(lastLine))) lastLine--;
      authorDefinitions.push({
        label: d.label,
        range: lines.range(d.start, lines.lineEnd(lastLine)),
        line: d.map[0],
        endLine,
        duplicateLabel,
      });
    }
    if (!duplicateLabel) firstKind.set(d.label, ours ? 'ours' : 'author');
  }
  const defLines = new Set(definitions.map((d) => d.line));
  const cites = inlineCitations.filter((c) => !defLines.has(c.range.line));
  const references: FootnoteReference[] = refs.map((r) => ({
    ...r,
    ours: firstKind.get(r.label) === 'ours',
    defined: firstKind.has(r.label),
  }));
  const authorLabels = new Set<string>();
  for (const d of authorDefinitions) authorLabels.add(d.label);
  for (const r of references) if (!r.ours) authorLabels.add(r.label);

  let referencesSection: ReferencesSection | undefined;
  for (let h = headings.length - 1; h >= 0; h--) {
    const head = headings[h]!;
    if (!head.matches) continue;
    let endLine = lines.lineCount;
    for (let n = h + 1; n < headings.length; n++) {
      if (headings[n]!.level <= head.level) {
        endLine = headings[n]!.line;
        break;
      }
    }
    referencesSection = { headingRange: head.range, headingLine: head.line, level: head.level, endLine };
    break;
  }
  const eol = /\r\n/.exec(text.slice(0, lines.lineEnd(0) + 2)) ? '\r\n' : '\n';
  const model: DocumentModel = {
    eol,
    lineCount: lines.lineCount,
    references,
    definitions,
    authorDefinitions,
    authorLabels: [...authorLabels],
    inlineCitations: cites,
    ...(referencesSection ? { referencesSection } : {}),
    ...(frontMatter ? { frontMatter } : {}),
    problems: [],
  };
  model.problems = collectProblems(model);
  return model;
}

function readOurDefinition(d: PendingDef, lines: LineIndex, duplicateLabel: boolean): OurDefinition | undefined {
  if (!isOurLabel(d.label)) return undefined;
  // one line: whatever the parser made of the body (normally a paragraph), nothing continues it
  const line = d.map[0];
  for (let l = line + 1; l < d.map[1]; l++) if (!isBlankLine(lines.lineText(l))) return undefined;
  const lineEnd = lines.lineEnd(line);
  const bodyStart = d.start + d.label.length + 4; // `[^` label `]:`
  const body = lines.text.slice(bodyStart, lineEnd);
  const parsed = parseDefinitionBody(body);
  if (!parsed) return undefined;
  const base = {
    label: d.label,
    number: Number(d.label),
    citationRaw: parsed.citationRaw,
    citationRange: lines.range(bodyStart + parsed.citationStart, bodyStart + parsed.citationEnd),
    kbName: parsed.kbName,
    kbCode: parsed.kbCode,
    range: lines.range(d.start, bodyStart + body.trimEnd().length),
    line,
    duplicateLabel,
  };
  return parsed.parsed.ok ? { ...base, citation: parsed.parsed.citation } : { ...base, error: parsed.parsed };
}
