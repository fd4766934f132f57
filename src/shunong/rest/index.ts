/** The REST chat completions side of the platform (OpenAI-compatible, with the platform's tool types). */
export {
  ShunongRestClient,
  DEFAULT_REST_TIMEOUT_MS,
  type RestClientOptions,
  type RestCallOptions,
  type ChatResult,
  type ChatStreamEvent,
} from './client';
export {
  knowledgeTool,
  weatherTool,
  chatRequest,
  restBaseUrl,
  KNOWLEDGE_DEFAULTS,
  type KnowledgeToolOptions,
  type WeatherToolOptions,
  type KnowledgeToolWire,
  type WeatherToolWire,
  type ChatRequest,
  type ChatMessage,
} from './request';
export {
  chatCompletionSchema,
  chatChunkSchema,
  annotationSchema,
  usageSchema,
  isKnowledgeCitation,
  isWeatherCitation,
  type Annotation,
  type KnowledgeCitation,
  type WeatherCitation,
  type ChatUsage,
  type ChatCompletion,
  type ChatChunk,
} from './schemas';
export { sseData } from './sse';
export { summaryPrefix, documentTitle, matchCitation, sentencesOf, type SourceLike } from './annotations';
