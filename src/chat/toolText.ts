/**
 * The text a chat model reads from the Shunong tools (`shunong_searchKnowledge` and the others):
 * each knowledge passage with its citation key, its knowledge base and its score read by its
 * `score_type` (an RRF score as a rank, never as a similarity), a miss as the platform's own
 * explanation and the rule that nothing may be cited, and the other tools' results as short
 * labelled lines. Written in English (the model's instructions are), the platform's text kept
 * verbatim. No `vscode`.
 */
import { formatMessage, messagesEn, type Message } from '../knowledge/messages';
import type { MissInfo } from '../knowledge/miss';
import { presentScores } from '../knowledge/score';
import { passageKey, resultListOf } from '../knowledge/types';
import type { CurrentTime, KnowledgeResult, RecognitionResult, WeatherForecast, WeatherNow } from '../shunong/schemas';

/** One passage a tool returned in a chat turn: what a citation may name. */
export interface ReturnedPassage {
  /** `doc_name#chunk_index`. */
  readonly key: string;
  readonly docName: string;
  readonly chunkIndex: number;
  readonly kbCode: string;
  readonly kbName: string;
  readonly content: string;
  readonly score: number;
  readonly scoreType: string;
  /** The score read by its type (e.g. `Rank 1 of 3 · likely found by both …`). */
  readonly scoreLabel: string;
}

/** The passages of a hit, in the server's order, each with its score read by the result's `score_type`. */
export function returnedPassages(result: KnowledgeResult): ReturnedPassage[] {
  const list = resultListOf(result);
  const scores = presentScores(list, result.counts);
  return result.sources.map((s, i) => ({
    key: passageKey(s),
    docName: s.doc_name,
    chunkIndex: s.chunk_index,
    kbCode: result.kb_code,
    kbName: result.kb_name,
    content: s.content,
    score: s.score,
    scoreType: result.score_type,
    scoreLabel: formatMessage(scores[i]!.label, messagesEn),
  }));
}

/** The model's text of a knowledge hit: a header with the rules, then one block per passage. */
export function knowledgeHitText(result: KnowledgeResult): string {
  const passages = returnedPassages(result);
  const lines = [
    `knowledge_search: ${passages.length} passage(s) for "${result.query}" (mode ${result.mode}, score_type ${result.score_type}).`,
    'Cite a passage only by its citation key, exactly as written, in the form 〔doc_name#chunk_index〕; never cite anything else.',
    scoreRule(result.score_type),
  ];
  for (const w of result.warnings) lines.push(`Platform warning: ${w}`);
  passages.forEach((p, i) => {
    lines.push(
      '',
      `[${i + 1}] citation key: ${p.key}`,
      `knowledge base: ${p.kbName} (${p.kbCode})`,
      `score: ${p.score} — ${p.scoreLabel}`,
      `passage: ${p.content}`,
    );
  });
  return lines.join('\n');
}

function scoreRule(scoreType: string): string {
  return /^rrf/i.test(scoreType.trim())
    ? 'These are RRF scores: they only order the results; they are not similarities or confidences and cannot be compared with scores of another score_type.'
    : 'Scores of different score_types are not comparable.';
}

/**
 * The model's text of a miss: the platform's explanation and the no-citation rule. `describeMiss`
 * is the knowledge bundle's (passed in, so that the features bundle does not carry the knowledge
 * layer and zod: see src/bundles.ts).
 */
export function knowledgeMissText(reason: string, miss: MissInfo, describeMiss: (miss: MissInfo) => Message[]): string {
  return [
    'knowledge_search: NO passage matched (a miss). No citation may be written for this question; say that the knowledge base has nothing on it, and do not answer from memory as if it were sourced.',
    `The platform said: ${reason}`,
    ...describeMiss(miss).map((m) => formatMessage(m, messagesEn)),
  ].join('\n');
}

/** The model's text of the current weather. */
export function weatherNowText(location: string, w: WeatherNow): string {
  return [
    `weather_search (now) for "${location}" (city code ${w.city}):`,
    `weather: ${w.weather}; temperature: ${w.temperature}; humidity: ${w.humidity}; wind: ${w.wind}; updated: ${w.updateTime}`,
  ].join('\n');
}

/** The model's text of a 7-day forecast. */
export function weatherForecastText(w: WeatherForecast): string {
  return [
    `weather_search (7-day forecast) for "${w.city}":`,
    ...w.forecast.map(
      (d) => `${d.date} ${d.week}: ${d.weather}, ${d.low}–${d.high}, wind ${d.wind}, humidity ${d.humidity}`,
    ),
  ].join('\n');
}

/** The model's text of get_current_time. */
export function currentTimeText(t: CurrentTime): string {
  const lines = [
    `get_current_time: ${t.datetime} (${t.timezone}), ${t.weekday}.`,
    `Current solar term: ${t.solar_term} (since ${t.solar_term_date}); next: ${t.next_solar_term} on ${t.next_solar_term_date}, in ${t.days_to_next_solar_term} day(s).`,
  ];
  if (t.solar_terms?.length)
    lines.push(`Solar terms of ${t.solar_term_year}: ${t.solar_terms.map((s) => `${s.name} ${s.date}`).join(', ')}`);
  return lines.join('\n');
}

/** The model's text of crop_growth_recognize: the conclusion (or none), the count and the detections. */
export function recognitionText(r: RecognitionResult): string {
  const d = r.data;
  const conclusion =
    d.recognized_result === null
      ? 'no conclusion (the model could not decide; report it as such, never guess)'
      : String(d.recognized_result);
  const lines = [
    `crop_growth_recognize with model ${d.model_id} (${d.model_name}): ${conclusion}.`,
    `detections: ${d.count}`,
    ...d.detections.map((x) => `- ${x.class_name}: confidence ${x.confidence.toFixed(2)}`),
  ];
  if (r.message) lines.push(`The platform said: ${r.message}`);
  return lines.join('\n');
}
