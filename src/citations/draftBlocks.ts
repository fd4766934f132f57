/**
 * The draft as the author reviews it: sentences with what each one comes from, and the blocks
 * (paragraph runs + citations + weather source lines) an accepted selection becomes. Pure: no vscode.
 */
import { weatherSourceLine, type WeatherSource } from '../bulletin/render';
import { wordsOf, type Lang } from '../text/words';
import type { DraftBlock, DraftCite, DraftRun } from './draftPlan';
import type { CitedPassage } from './passage';

export type { WeatherSource } from '../bulletin/render';

/** A knowledge citation of the answer and, when found, the passage it names. */
export interface ResolvedKnowledge {
  kbId: string;
  title: string;
  summary: string;
  score?: number | undefined;
  passage?: CitedPassage | undefined;
}

/** What a sentence comes from. */
export type Attribution = { kind: 'knowledge'; index: number } | { kind: 'weather'; index: number } | { kind: 'none' };

/** One sentence of the draft. */
export interface DraftSentence {
  id: number;
  paragraph: number;
  text: string;
  from: Attribution;
}

/** Splits the answer into paragraphs and sentences (ends at 。！？!?; a last fragment counts too). */
export function splitDraft(
  content: string,
  knowledge: readonly ResolvedKnowledge[],
  weather: readonly WeatherSource[],
): DraftSentence[] {
  const out: DraftSentence[] = [];
  content
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0)
    .forEach((para, paragraph) => {
      for (const m of para.matchAll(/[^。！？!?\n]+(?:[。！？!?]+|$)/gmu)) {
        const text = m[0].trim();
        if (!text) continue;
        out.push({ id: out.length, paragraph, text, from: attribute(text, knowledge, weather) });
      }
    });
  return out;
}

function attribute(
  sentence: string,
  knowledge: readonly ResolvedKnowledge[],
  weather: readonly WeatherSource[],
): Attribution {
  const k = knowledge.findIndex((c) => c.passage !== undefined && c.passage.content.includes(sentence));
  if (k >= 0) return { kind: 'knowledge', index: k };
  const w = weather.findIndex((c) => c.summary.trim() !== '' && sentence.includes(c.summary.trim()));
  if (w >= 0) return { kind: 'weather', index: w };
  return { kind: 'none' };
}

/** Whether two sentences are from the same source: both from no source, or from the same entry. */
function sameSource(a: Attribution, b: Attribution): boolean {
  if (a.kind !== b.kind) return false;
  // Stryker disable next-line ConditionalExpression: two attributions of kind none both have no index, so comparing their indexes says the same
  return a.kind === 'none' || a.index === (b as typeof a).index;
}

/** The marker of a knowledge citation that did not resolve: `〔title · kb_id〕` (no `#`, so never a citation). */
function unresolvedMarker(c: Pick<ResolvedKnowledge, 'title' | 'kbId'>, escape: (s: string) => string): string {
  const clean = (s: string): string => escape(s.replace(/[#＃]/g, '＃').replace(/[〔〕]/g, '')).trim();
  return ` 〔${clean(c.title)} · ${clean(c.kbId)}〕`;
}

/**
 * The blocks for the accepted sentences: each paragraph's consecutive sentences from the same source
 * form a run followed by its citation (a passage, or the unresolved marker); a paragraph that uses
 * weather gets the weather source line after it. Sentences not found in any passage (a paraphrasing
 * model) get, at the end of the last such run, the knowledge citations no sentence was matched to.
 */
export function buildBlocks(
  sentences: readonly DraftSentence[],
  accepted: ReadonlySet<number>,
  knowledge: readonly ResolvedKnowledge[],
  weather: readonly WeatherSource[],
  lang: Lang,
  escape: (s: string) => string,
): DraftBlock[] {
  const cite = (k: ResolvedKnowledge): DraftCite =>
    k.passage ? { kind: 'passage', passage: k.passage } : { kind: 'marker', text: unresolvedMarker(k, escape) };
  const matched = new Set(sentences.flatMap((s) => (s.from.kind === 'knowledge' ? [s.from.index] : [])));
  const blocks: DraftBlock[] = [];
  let lastNone: DraftRun | undefined;
  let markers = false;
  const paragraphs = [...new Set(sentences.filter((s) => accepted.has(s.id)).map((s) => s.paragraph))];
  for (const p of paragraphs) {
    const runs: DraftRun[] = [];
    const weatherUsed = new Set<number>();
    let prev: Attribution | undefined;
    for (const s of sentences.filter((x) => x.paragraph === p && accepted.has(x.id))) {
      if (prev && sameSource(prev, s.from)) runs[runs.length - 1]!.text += s.text;
      else {
        const cites: DraftCite[] = [];
        if (s.from.kind === 'knowledge') {
          const k = knowledge[s.from.index]!;
          cites.push(cite(k));
          if (!k.passage) markers = true;
        }
        if (s.from.kind === 'weather') weatherUsed.add(s.from.index);
        const run: DraftRun = { text: s.text, cites };
        runs.push(run);
        if (s.from.kind === 'none') lastNone = run;
      }
      prev = s.from;
    }
    const after = [...weatherUsed].map((i) => weatherSourceLine(weather[i]!, lang, escape));
    blocks.push(after.length ? { runs, after } : { runs });
  }
  if (lastNone) {
    const rest = knowledge.filter((_, i) => !matched.has(i));
    for (const k of rest) {
      lastNone.cites.push(cite(k));
      if (!k.passage) markers = true;
    }
  }
  if (markers) {
    const last = blocks[blocks.length - 1]!;
    last.after = [
      ...(last.after ?? []),
      wordsOf(lang).t(
        '> Note: 〔title · knowledge base〕 marks a knowledge entry the platform named that could not be matched to a passage; it is not a passage citation.',
      ),
    ];
  }
  return blocks;
}
