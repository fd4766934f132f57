/**
 * Grounding enforced on a chat model's answer, not asked for. The model is told to cite a passage
 * as `〔doc_name#chunk_index〕` right after what it supports. Its answer is buffered a paragraph at a
 * time ({@link ParagraphBuffer}); each paragraph, before it is shown, loses every citation that is
 * not a passage the tools returned in this turn, and every footnote-style citation (`[^…]`, not our
 * syntax) ({@link groundParagraph}). What was removed is reported, so the author can be told. The
 * grounded answer becomes draft blocks (src/citations/draftPlan.ts) for the one-edit insertion.
 * No `vscode`.
 */

/** A passage a citation may name: its key `doc_name#chunk_index`. */
export interface Citable {
  readonly key: string;
}

/** One paragraph after grounding. */
export interface GroundedParagraph {
  /** The paragraph with only known citations left. */
  readonly text: string;
  /** The keys cited and kept, in order of appearance (repeats kept once). */
  readonly kept: readonly string[];
  /** The citations removed, as the model wrote them. */
  readonly removed: readonly string[];
}

/** The citation syntax the model is told to use: `〔doc_name#chunk_index〕`. */
const CITATION_PATTERN = /〔([^〔〕\n]+?)〕/g;
/** Footnote references and definitions the model may write instead (never ours in an answer). */
const FOOTNOTE_DEFINITION = /^[ \t]*\[\^[^\]\n]+\]:.*$/gm;
const FOOTNOTE_REFERENCE = /\[\^[^\]\n]+\]/g;

/** Normalises a cited key as the model wrote it (spaces around it, a full-width ＃). */
function normaliseKey(raw: string): string {
  return raw.trim().replace(/＃/g, '#');
}

/**
 * Removes from `paragraph` every `〔…〕` citation whose key is not in `allowed`, and every footnote
 * reference or definition. A space left before a removed citation goes with it.
 */
export function groundParagraph(paragraph: string, allowed: ReadonlySet<string>): GroundedParagraph {
  const kept: string[] = [];
  const removed: string[] = [];
  let text = paragraph.replace(FOOTNOTE_DEFINITION, (whole) => {
    removed.push(whole.trim());
    return '';
  });
  text = text.replace(FOOTNOTE_REFERENCE, (whole) => {
    removed.push(whole);
    return '';
  });
  text = text.replace(/[ \t]*〔([^〔〕\n]+?)〕/g, (whole, raw: string) => {
    const key = normaliseKey(raw);
    if (allowed.has(key)) {
      if (!kept.includes(key)) kept.push(key);
      return whole.replace(raw, key);
    }
    removed.push(`〔${raw}〕`);
    return '';
  });
  text = text
    .replace(/\n{3,}/g, '\n\n')
    .replace(/[ \t]+$/gm, '')
    .replace(/\s+$/, '');
  return { text, kept, removed };
}

/**
 * Collects streamed text and hands out whole paragraphs (ended by a blank line); {@link flush}
 * gives the rest at the end. A paragraph is never shown half-way, so a citation cannot be shown
 * before it is checked.
 */
export class ParagraphBuffer {
  private pending = '';

  /** Adds a fragment; returns the paragraphs it completed (each without its blank line). */
  push(fragment: string): string[] {
    this.pending += fragment.replace(/\r\n/g, '\n');
    const out: string[] = [];
    for (;;) {
      const end = this.pending.indexOf('\n\n');
      if (end < 0) break;
      const paragraph = this.pending.slice(0, end);
      this.pending = this.pending.slice(end + 2).replace(/^\n+/, '');
      if (paragraph.trim()) out.push(paragraph);
    }
    return out;
  }

  /** The text after the last blank line (or nothing). */
  flush(): string[] {
    const rest = this.pending;
    this.pending = '';
    return rest.trim() ? [rest] : [];
  }
}

/** A run of text and the keys cited right after it. */
export interface CitedRun {
  readonly text: string;
  readonly keys: readonly string[];
}

/**
 * Splits a grounded paragraph into runs: the text up to each group of citations, with the keys of
 * that group (Markdown of the model is flattened to its text; the insertion escapes it).
 */
export function runsOf(paragraph: string): CitedRun[] {
  const runs: CitedRun[] = [];
  let last = 0;
  let text = '';
  let keys: string[] = [];
  const flushRun = (): void => {
    if (text.trim() || keys.length) runs.push({ text: text.trim(), keys });
    text = '';
    keys = [];
  };
  for (const m of paragraph.matchAll(CITATION_PATTERN)) {
    const before = paragraph.slice(last, m.index);
    if (before.trim() && keys.length) flushRun();
    text += before;
    keys.push(normaliseKey(m[1]!));
    last = m.index + m[0].length;
  }
  // the citations before the tail end their run; the tail is a run of its own
  flushRun();
  text = paragraph.slice(last);
  flushRun();
  return runs.map((r) => ({ text: r.text.replace(/\s*\n\s*/g, ' '), keys: r.keys }));
}
