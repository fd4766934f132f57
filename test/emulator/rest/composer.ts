/**
 * The "model" behind the local `/api/v1/chat/completions`: an honest, deterministic, extractive
 * composer. No language model runs here.
 *
 * - It calls every platform tool the request declares (`tool_choice` `auto` or `required`; `none`
 *   calls nothing): `agriwis_knowledge_search` on the same retrieval engine as the MCP
 *   `knowledge_search` (`min_score` is passed as `scoreThreshold`, and, as the REST page says,
 *   results whose score is below `min_score` are dropped), `agriwis_weather_search` on the same
 *   synthetic weather as the MCP `weather_search`.
 * - Its answer is made only of sentences copied verbatim from the retrieved passages: each
 *   passage's sentences are scored against the question and the tool query (the engine's rerank
 *   measure), the best are kept (at most 3 per passage, 6 in all; the best passage always gives
 *   one), and they are joined in passage rank order, one paragraph per passage, in their original
 *   order. Only the passages that gave a sentence are cited. Weather gives one sentence that holds
 *   its citation's `summary` verbatim.
 * - When nothing relevant is found it says so plainly and cites nothing.
 *
 * `knowledge_citation`: `kb_id` = knowledge base code, `title` = doc_name without its extension,
 * `summary` = the first 60 characters of the passage followed by `……` (the whole passage when
 * shorter), `category` = `cropping_system` for the intercropping base else `crop`, `score` = the
 * passage's calibrated cosine similarity to the query (0–1, the scale `min_score` filters on).
 */
import { beijingParts, dayNumber, fromDayNumber, ymd, type EmulatorClock } from '../clock';
import { calibrate, type RetrievalEngine, type SearchSource } from '../retrieval';
import { findCity } from '../tools/cities';
import { forecast, nowWeather } from '../tools/weather';
import { countTokens } from './tokens';

/** The platform's knowledge tool type, as validated. */
export interface KnowledgeToolSpec {
  type: 'agriwis_knowledge_search';
  query: string;
  kb_code?: string | undefined;
  top_k?: number | undefined;
  min_score?: number | undefined;
  use_rerank?: boolean | undefined;
}

/** The platform's weather tool type, as validated. */
export interface WeatherToolSpec {
  type: 'agriwis_weather_search';
  location: string;
  date?: 'now' | 'forecast' | undefined;
  unit?: 'celsius' | 'fahrenheit' | undefined;
}

export type PlatformTool = KnowledgeToolSpec | WeatherToolSpec;

export interface KnowledgeCitation {
  type: 'knowledge_citation';
  kb_id: string;
  title: string;
  summary: string;
  category: string;
  score: number;
}

export interface WeatherCitation {
  type: 'weather_citation';
  provider: string;
  location: string;
  date: string;
  summary: string;
  updated_at: string;
}

export type Annotation = KnowledgeCitation | WeatherCitation;

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  agriwis_knowledge_search_usage?: { tool_usage: number; chunk_usage: number };
  agriwis_weather_search_usage?: { tool_usage: number };
}

/** What the composer produced, or a request error (400) it found while calling a tool. */
export type Composition =
  | { ok: true; content: string; annotations: Annotation[]; usage: Usage }
  | { ok: false; message: string; param: string; code: string };

/** The weather provider named in `weather_citation` (the data are synthetic). */
export const WEATHER_PROVIDER = 'shunong-local-emulator';
/** Characters of a passage kept in `summary`. */
export const SUMMARY_CHARS = 60;
export const MAX_SENTENCES = 6;
export const MAX_PER_PASSAGE = 3;
/** A secondary passage contributes only sentences at least this relevant (rerank measure, 0–1). */
export const MIN_SENTENCE_SCORE = 0.2;

/** The plain statements the composer may write that are not copied from a passage. */
export const NOTICES = {
  noHit: (query: string): string =>
    `知识库中未检索到与"${query}"相关的内容，暂不作答；可换用更具体的关键词，或调低 min_score 后重试。`,
  noCity: (location: string): string => `未找到"${location}"的天气数据。`,
  noTools: (): string => '本次请求没有可调用的检索工具，无法给出有依据的回答。',
};

/** Sentences of a text: runs ending with 。！？!? (a trailing fragment without one is not a sentence). */
export function splitSentences(text: string): string[] {
  return [...text.matchAll(/[^。！？!?\n]+[。！？!?]+/gu)].map((m) => m[0].trim()).filter((s) => s.length > 0);
}

/** The summary of a passage: its start, with `……` when cut. */
export function summaryOf(content: string): string {
  const chars = Array.from(content);
  return chars.length <= SUMMARY_CHARS ? content : `${chars.slice(0, SUMMARY_CHARS).join('')}……`;
}

/** doc_name without its extension. */
export function titleOf(docName: string): string {
  return docName.replace(/\.[A-Za-z0-9]{1,5}$/, '');
}

function categoryOf(kbCode: string): string {
  return /intercrop/i.test(kbCode) ? 'cropping_system' : 'crop';
}

const kbIndexCache = new WeakMap<RetrievalEngine, Map<string, number>>();
function kbOfPassage(engine: RetrievalEngine, docName: string, chunkIndex: number): string {
  let m = kbIndexCache.get(engine);
  if (!m) {
    m = new Map();
    for (const p of engine.passages)
      if (!m.has(`${p.docName}#${p.chunkIndex}`)) m.set(`${p.docName}#${p.chunkIndex}`, p.kb);
    kbIndexCache.set(engine, m);
  }
  return engine.kbs[m.get(`${docName}#${chunkIndex}`) ?? -1]?.code ?? '';
}

function similarities(engine: RetrievalEngine, query: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const v of engine.vectorCandidates(query, null)) {
    const p = engine.passages[v.doc];
    if (p) out.set(`${p.docName}#${p.chunkIndex}`, calibrate(v.cosine));
  }
  return out;
}

interface Pick {
  rank: number;
  position: number;
  sentence: string;
}

/** The extractive selection over ranked sources (pure; exported for tests). */
export function selectSentences(
  engine: RetrievalEngine,
  question: string,
  query: string,
  sources: SearchSource[],
): Pick[] {
  const candidates: (Pick & { score: number })[] = [];
  const seen = new Set<string>();
  sources.forEach((s, rank) => {
    splitSentences(s.content).forEach((sentence, position) => {
      if (seen.has(sentence)) return;
      seen.add(sentence);
      const score = Math.max(engine.rerankScore(question, sentence), engine.rerankScore(query, sentence));
      candidates.push({ rank, position, sentence, score });
    });
  });
  candidates.sort((a, b) => b.score - a.score || a.rank - b.rank || a.position - b.position);
  const chosen: Pick[] = [];
  const perPassage = new Map<number, number>();
  const bestOfTop = candidates.find((c) => c.rank === 0);
  if (bestOfTop) {
    chosen.push(bestOfTop);
    perPassage.set(0, 1);
  }
  for (const c of candidates) {
    if (chosen.length >= MAX_SENTENCES) break;
    if (c === bestOfTop || c.score < MIN_SENTENCE_SCORE) continue;
    const n = perPassage.get(c.rank) ?? 0;
    if (n >= MAX_PER_PASSAGE) continue;
    perPassage.set(c.rank, n + 1);
    chosen.push(c);
  }
  return chosen
    .map(({ rank, position, sentence }) => ({ rank, position, sentence }))
    .sort((a, b) => a.rank - b.rank || a.position - b.position);
}

function toUnit(celsiusText: string, unit: 'celsius' | 'fahrenheit'): string {
  if (unit === 'celsius') return celsiusText;
  return celsiusText.replace(/(-?\d+(?:\.\d+)?)℃/g, (_m, v: string) => `${Math.round((Number(v) * 9) / 5 + 32)}°F`);
}

/** Everything the composer reads. */
export interface ComposerDeps {
  engine: RetrievalEngine;
  clock: EmulatorClock;
}

/** The last user message's text. */
export function questionOf(messages: { role: string; content: string }[]): string {
  for (let i = messages.length - 1; i >= 0; i--)
    if (messages[i]?.role === 'user') return messages[i]?.content.trim() ?? '';
  return '';
}

/** Composes the answer for a validated request. Deterministic for the same request, data and clock. */
export function compose(
  deps: ComposerDeps,
  messages: { role: string; content: string }[],
  tools: PlatformTool[],
  toolChoice: 'auto' | 'none' | 'required',
): Composition {
  const question = questionOf(messages);
  const paragraphs: string[] = [];
  const annotations: Annotation[] = [];
  let promptText = messages.map((m) => m.content).join('\n');
  const usage: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  const called = toolChoice === 'none' ? [] : tools;
  for (const [i, tool] of called.entries()) {
    if (tool.type === 'agriwis_knowledge_search') {
      const minScore = tool.min_score ?? 0.5;
      const outcome = deps.engine.search({
        query: tool.query,
        kbCodes: tool.kb_code
          ?.split(',')
          .map((s) => s.trim())
          .filter((s) => s.length > 0),
        topK: tool.top_k ?? 5,
        scoreThreshold: minScore,
        useRerank: tool.use_rerank ?? false,
        mode: 'hybrid',
      });
      const k = (usage.agriwis_knowledge_search_usage ??= { tool_usage: 0, chunk_usage: 0 });
      k.tool_usage++;
      if (!outcome.ok && /知识库不存在或未开通/.test(outcome.reason)) {
        return { ok: false, message: outcome.reason, param: `tools[${i}].kb_code`, code: 'knowledge_base_not_found' };
      }
      const sims = similarities(deps.engine, tool.query);
      const sources = outcome.ok
        ? outcome.result.sources.filter((s) => (sims.get(`${s.doc_name}#${s.chunk_index}`) ?? calibrate(0)) >= minScore)
        : [];
      k.chunk_usage += sources.length;
      promptText += '\n' + sources.map((s) => s.content).join('\n');
      const picks = selectSentences(deps.engine, question || tool.query, tool.query, sources);
      if (picks.length === 0) {
        paragraphs.push(NOTICES.noHit(tool.query));
        continue;
      }
      const ranks = [...new Set(picks.map((p) => p.rank))];
      for (const r of ranks) {
        const s = sources[r] as SearchSource;
        paragraphs.push(
          picks
            .filter((p) => p.rank === r)
            .map((p) => p.sentence)
            .join(''),
        );
        annotations.push({
          type: 'knowledge_citation',
          kb_id: kbOfPassage(deps.engine, s.doc_name, s.chunk_index),
          title: titleOf(s.doc_name),
          summary: summaryOf(s.content),
          category: categoryOf(kbOfPassage(deps.engine, s.doc_name, s.chunk_index)),
          score: Math.round((sims.get(`${s.doc_name}#${s.chunk_index}`) ?? calibrate(0)) * 10_000) / 10_000,
        });
      }
    } else {
      const w = (usage.agriwis_weather_search_usage ??= { tool_usage: 0 });
      w.tool_usage++;
      const city = findCity(tool.location);
      if (!city) {
        paragraphs.push(NOTICES.noCity(tool.location));
        continue;
      }
      const unit = tool.unit ?? 'celsius';
      const ms = deps.clock.nowMs();
      const p = beijingParts(ms);
      const name = tool.location.trim();
      if ((tool.date ?? 'now') === 'now') {
        const now = nowWeather(city, ms);
        promptText += '\n' + JSON.stringify(now);
        const parts = [
          now.weather,
          `气温 ${toUnit(now.temperature ?? '', unit)}`,
          now.humidity ? `湿度 ${now.humidity}` : '',
          now.wind,
        ].filter((x) => x);
        const summary = parts.join('，');
        const date = ymd(p.year, p.month, p.day);
        paragraphs.push(`${name}${date} ${now.updateTime}实况：${summary}。`);
        const [hh, mm] = (now.updateTime ?? '00:00').split(':');
        annotations.push({
          type: 'weather_citation',
          provider: WEATHER_PROVIDER,
          location: name,
          date,
          summary,
          updated_at: `${date}T${hh ?? '00'}:${mm ?? '00'}:00+08:00`,
        });
      } else {
        const offset = /后天/.test(question) ? 2 : /今天|今日/.test(question) ? 0 : 1;
        const data = forecast(city, name, ms) as {
          forecast: {
            date: string;
            weather: string;
            high: string;
            low: string;
            wind: string;
            humidity: string;
            week: string;
          }[];
        };
        promptText += '\n' + JSON.stringify(data);
        const d = data.forecast[offset] ?? data.forecast[0];
        if (!d) continue;
        const summary = `${d.weather}，最高 ${toUnit(d.high, unit)}，最低 ${toUnit(d.low, unit)}，${d.wind}，湿度 ${d.humidity}`;
        const label = offset === 0 ? '今天' : offset === 1 ? '明天' : '后天';
        paragraphs.push(`${name}${label}（${d.date}，星期${d.week}）：${summary}。`);
        // Forecasts are issued at 18:00 the day before the first forecast day (as in the page's example).
        const issued = fromDayNumber(dayNumber(p.year, p.month, p.day) - (p.hour >= 18 ? 0 : 1));
        annotations.push({
          type: 'weather_citation',
          provider: WEATHER_PROVIDER,
          location: name,
          date: d.date,
          summary,
          updated_at: `${ymd(issued.year, issued.month, issued.day)}T18:00:00+08:00`,
        });
      }
    }
  }
  if (called.length === 0) paragraphs.push(NOTICES.noTools());
  const content = paragraphs.join('\n\n');
  usage.prompt_tokens = countTokens(promptText);
  usage.completion_tokens = countTokens(content);
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
  return { ok: true, content, annotations, usage };
}
