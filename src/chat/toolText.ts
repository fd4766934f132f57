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
import { keyOf } from '../knowledge/history';
import { storedScoreText } from '../knowledge/score';
import type { SearchOutcome } from '../knowledge/search';
import type { CurrentTime, RecognitionResult, WeatherForecast, WeatherNow } from '../shunong/schemas';

/** A search that found passages, as the knowledge search ran it. */
export type SearchHit = SearchOutcome & { readonly kind: 'hit' };

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

/** The passages of a hit in the order the search shows them, each with its score read as the search results read it. */
export function returnedPassages(hit: SearchHit): ReturnedPassage[] {
  return hit.record.passages.map((s) => {
    const p = s.passage;
    return {
      key: keyOf(p),
      docName: p.docName,
      chunkIndex: p.chunkIndex,
      kbCode: p.kbCode,
      kbName: p.kbName,
      content: p.content,
      score: p.score,
      scoreType: p.scoreType,
      scoreLabel: storedScoreText(s, (m) => formatMessage(m, messagesEn)),
    };
  });
}

/** The model's text of a knowledge hit: a header with the rules, then one block per passage. */
export function knowledgeHitText(hit: SearchHit): string {
  const passages = returnedPassages(hit);
  const scoreTypes = [...new Set(passages.map((p) => p.scoreType))];
  const query = hit.record.options.query;
  const lines = [
    hit.fused
      ? `knowledge_search: ${passages.length} passage(s) for "${query}", ${hit.lists} knowledge bases searched one by one and their lists fused by rank (RRF, k = 60; mode ${hit.mode}, score_type ${scoreTypes.join(' / ')}).`
      : `knowledge_search: ${passages.length} passage(s) for "${query}" (mode ${hit.mode}, score_type ${scoreTypes.join(' / ')}).`,
    'Cite a passage only by its citation key, exactly as written, in the form 〔doc_name#chunk_index〕; never cite anything else.',
    hit.fused
      ? 'The order is the fused rank: raw scores of different knowledge bases are never compared.'
      : scoreRule(scoreTypes[0] ?? ''),
  ];
  for (const w of hit.warnings) lines.push(`Platform warning: ${w}`);
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
export function knowledgeMissText(
  reason: string | undefined,
  miss: MissInfo,
  describeMiss: (miss: MissInfo) => Message[],
): string {
  return [
    'knowledge_search: NO passage matched (a miss). No citation may be written for this question; say that the knowledge base has nothing on it, and do not answer from memory as if it were sourced.',
    ...(reason ? [`The platform said: ${reason}`] : []),
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
