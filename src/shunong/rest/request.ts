/** Building REST chat completion requests with the platform's tool types. */
import { InvalidArgumentsError } from '../errors';

/** Options of the `agriwis_knowledge_search` tool (snake_case on the wire). */
export interface KnowledgeToolOptions {
  /** Required: what to search for. */
  query: string;
  /** One knowledge base code; omitted = all of the account's active bases. */
  kbCode?: string | undefined;
  /** Passages to retrieve: default 5, at most 20. */
  topK?: number | undefined;
  /** Minimum relevance 0–1: default 0.5. */
  minScore?: number | undefined;
  /** Rerank the candidates: default false. */
  useRerank?: boolean | undefined;
}

/** Options of the `agriwis_weather_search` tool. */
export interface WeatherToolOptions {
  /** Required: city name or 9-digit weather.com.cn code. */
  location: string;
  /** `now` (default) or `forecast` (next 7 days). */
  date?: 'now' | 'forecast' | undefined;
  unit?: 'celsius' | 'fahrenheit' | undefined;
}

/** The wire form of a knowledge tool. */
export interface KnowledgeToolWire {
  type: 'agriwis_knowledge_search';
  query: string;
  kb_code?: string;
  top_k?: number;
  min_score?: number;
  use_rerank?: boolean;
}

/** The wire form of a weather tool. */
export interface WeatherToolWire {
  type: 'agriwis_weather_search';
  location: string;
  date?: 'now' | 'forecast';
  unit?: 'celsius' | 'fahrenheit';
}

/** A chat message. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The request body of `POST /chat/completions`. */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools?: (KnowledgeToolWire | WeatherToolWire)[];
  tool_choice?: 'auto' | 'none' | 'required';
  stream?: boolean;
}

export const KNOWLEDGE_DEFAULTS = { topK: 5, maxTopK: 20, minScore: 0.5, useRerank: false } as const;

/**
 * The `agriwis_knowledge_search` tool. Checks the documented ranges (top_k 1–20 integer, min_score
 * 0–1) and throws {@link InvalidArgumentsError} outside them; only the fields given are sent.
 */
export function knowledgeTool(o: KnowledgeToolOptions): KnowledgeToolWire {
  const query = o.query.trim();
  if (!query) throw new InvalidArgumentsError('agriwis_knowledge_search needs a non-empty query.');
  const t: KnowledgeToolWire = { type: 'agriwis_knowledge_search', query };
  const kb = o.kbCode?.trim();
  if (kb) t.kb_code = kb;
  if (o.topK !== undefined) {
    if (!Number.isInteger(o.topK) || o.topK < 1 || o.topK > KNOWLEDGE_DEFAULTS.maxTopK)
      throw new InvalidArgumentsError(`top_k must be an integer from 1 to 20 (got ${o.topK}).`);
    t.top_k = o.topK;
  }
  if (o.minScore !== undefined) {
    if (!Number.isFinite(o.minScore) || o.minScore < 0 || o.minScore > 1)
      throw new InvalidArgumentsError(`min_score must be between 0 and 1 (got ${o.minScore}).`);
    t.min_score = o.minScore;
  }
  if (o.useRerank !== undefined) t.use_rerank = o.useRerank;
  return t;
}

/** The `agriwis_weather_search` tool. */
export function weatherTool(o: WeatherToolOptions): WeatherToolWire {
  const location = o.location.trim();
  if (!location) throw new InvalidArgumentsError('agriwis_weather_search needs a location.');
  const t: WeatherToolWire = { type: 'agriwis_weather_search', location };
  if (o.date !== undefined) t.date = o.date;
  if (o.unit !== undefined) t.unit = o.unit;
  return t;
}

/** A grounded question: the user's words plus the tools to call (`model: "auto"`, `tool_choice: "auto"`). */
export function chatRequest(
  question: string,
  tools: { knowledge?: KnowledgeToolOptions | undefined; weather?: WeatherToolOptions | undefined },
  stream = false,
): ChatRequest {
  const content = question.trim();
  if (!content) throw new InvalidArgumentsError('The question is empty.');
  const list: (KnowledgeToolWire | WeatherToolWire)[] = [];
  if (tools.knowledge) list.push(knowledgeTool(tools.knowledge));
  if (tools.weather) list.push(weatherTool(tools.weather));
  const r: ChatRequest = { model: 'auto', messages: [{ role: 'user', content }], tool_choice: 'auto' };
  if (list.length) r.tools = list;
  if (stream) r.stream = true;
  return r;
}

/**
 * The REST base URL from the MCP endpoint: `https://ai.agriwis.com/mcp` → `https://ai.agriwis.com/api/v1`
 * (a trailing `/mcp` path segment is replaced; query and fragment dropped).
 */
export function restBaseUrl(mcpEndpoint: string): string {
  const u = new URL(mcpEndpoint);
  const path = u.pathname.replace(/\/+$/, '').replace(/\/mcp$/i, '');
  return `${u.origin}${path}/api/v1`;
}
