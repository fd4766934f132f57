/**
 * Diagnostics with quick fixes, from one analysis: every {@link Problem} plus, where one exists,
 * a fix as a batch of edits.
 */
import { analyze, type Analysis } from './analyze';
import { parseRawCitation } from './citation';
import { normalizeEdits } from './edits';
import type { Problem } from './model';
import { deleteLine, renumberAnalysis } from './renumber';
import type { CitationOptions, TextEdit } from './types';

/** A quick fix: a title (English, plus key/args for localisation) and its edits. */
export interface Fix {
  title: string;
  titleKey: string;
  args: string[];
  edits: TextEdit[];
}

/** A problem with its optional quick fix. */
export interface Diagnostic extends Problem {
  fix?: Fix;
}

const TITLES: Record<string, string> = {
  'citations.fix.removeReference': 'Remove reference [^{0}]',
  'citations.fix.removeDefinition': 'Remove unused definition [^{0}]',
  'citations.fix.merge': 'Merge [^{0}] into [^{1}]',
  'citations.fix.chunkIndex': 'Write the chunk index as {0}',
  'citations.fix.renumber': 'Renumber citations',
  'citations.fix.space': 'Put a space before {0}',
};

function fix(titleKey: string, args: string[], edits: TextEdit[]): Fix {
  // every title is given all its arguments
  // Stryker disable next-line Regex: no title has ten arguments
  const title = TITLES[titleKey]!.replace(/\{(\d+)\}/g, (_m, n: string) => args[Number(n)]!);
  return { title, titleKey, args, edits: normalizeEdits(edits) };
}

/** Lints a bulletin: one parse, then linear work. */
export function lint(text: string, opts?: CitationOptions): Diagnostic[] {
  return lintAnalysis(analyze(text, opts));
}

/** {@link lint} on an existing analysis. */
function lintAnalysis(a: Analysis): Diagnostic[] {
  const { model, lines } = a;
  let renumberFix: Fix | undefined;
  return model.problems.map((p): Diagnostic => {
    const f = fixFor(p);
    return f ? { ...p, fix: f } : p;
  });

  function fixFor(p: Problem): Fix | undefined {
    switch (p.code) {
      case 'undefined-reference':
        return fix(
          'citations.fix.removeReference',
          [p.label!],
          [{ start: p.range.start, end: p.range.end, newText: '' }],
        );
      case 'unused-definition':
        return fix('citations.fix.removeDefinition', [p.label!], [deleteLine(lines, p.range.line)]);
      case 'duplicate-source': {
        const keeper = p.args[1]!;
        const edits: TextEdit[] = [deleteLine(lines, p.range.line)];
        // the label's first definition is this one, ours, so every reference to it is ours
        for (const r of model.references) {
          if (r.label === p.label) edits.push({ start: r.range.start + 2, end: r.range.end - 1, newText: keeper });
        }
        return fix('citations.fix.merge', [p.label!, keeper], edits);
      }
      case 'malformed-citation': {
        const raw = unescapedTail(p.range.start, p.range.end);
        if (!raw) return undefined;
        return fix(
          'citations.fix.chunkIndex',
          [raw.fixed],
          [{ start: raw.start, end: p.range.end - raw.trail, newText: raw.fixed }],
        );
      }
      case 'glued-to-url':
        return fix('citations.fix.space', [p.args[0]!], [{ start: p.range.start, end: p.range.start, newText: ' ' }]);
      case 'duplicate-label':
        renumberFix ??= fix('citations.fix.renumber', [], renumberAnalysis(a).edits);
        return renumberFix.edits.length > 0 ? renumberFix : undefined;
    }
  }

  /**
   * A chunk index written `007` or ` 7 ` can be fixed to `7`, where the citation then reads (as the
   * raw parser reads it: a `\#` in the chunk index is no separator, so no fix is offered for it).
   */
  function unescapedTail(start: number, end: number): { start: number; fixed: string; trail: number } | undefined {
    let text = lines.text.slice(start, end);
    let trail = 0;
    if (text.endsWith('〕')) {
      text = text.slice(0, -1);
      trail = 1;
    }
    // a malformed citation holds a `#`: an inline one is read only with one, a definition is ours only with one
    const hash = text.lastIndexOf('#');
    const idx = text.slice(hash + 1).trim();
    if (!/^[0-9]+$/.test(idx)) return undefined;
    const fixed = String(Number(idx));
    if (!parseRawCitation(`${text.slice(text.startsWith('〔') ? 1 : 0, hash)}#${fixed}`).ok) return undefined;
    return { start: start + hash + 1, fixed, trail };
  }
}
