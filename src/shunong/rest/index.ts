/** The REST chat completions side of the platform (OpenAI-compatible, with the platform's tool types). */
export {
  ShunongRestClient,
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
  type KnowledgeToolOptions,
  type WeatherToolOptions,
  type KnowledgeToolWire,
  type WeatherToolWire,
  type ChatRequest,
  type ChatMessage,
} from './request';
export {
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
export { summaryPrefix, matchCitation, sentencesOf, type SourceLike } from './annotations';
