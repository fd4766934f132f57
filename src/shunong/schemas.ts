/**
 * zod schemas of the four Shunong tools' results (the JSON inside `content[0].text`), and the
 * inferred types. Every tool result enters the program through these schemas.
 */
import { z } from 'zod';

/** The recognition models of crop_growth_recognize. */
export type RecognitionType = 'wheat_stage' | 'tea_count' | 'tea_stage';

/** One passage returned by knowledge_search. */
const KnowledgeSourceSchema = z.object({
  doc_name: z.string(),
  chunk_index: z.number().int().nonnegative(),
  content: z.string(),
  score: z.number(),
});
export type KnowledgeSource = z.infer<typeof KnowledgeSourceSchema>;

/** The result of knowledge_search (a hit). */
export const KnowledgeResultSchema = z.object({
  kb_code: z.string(),
  kb_name: z.string(),
  query: z.string(),
  mode: z.string(),
  score_type: z.string(),
  total: z.number().int().nonnegative(),
  counts: z.object({
    vector: z.number(),
    fulltext: z.number(),
    hybrid: z.number().optional(),
    rerank: z.number().optional(),
  }),
  sources: z.array(KnowledgeSourceSchema),
  warnings: z.array(z.string()).default([]),
});
export type KnowledgeResult = z.infer<typeof KnowledgeResultSchema>;

/** weather_search with `date: "now"`: `city` is the internal city code. */
export const WeatherNowSchema = z.object({
  city: z.string(),
  weather: z.string(),
  temperature: z.string(),
  humidity: z.string(),
  wind: z.string(),
  updateTime: z.string(),
});
export type WeatherNow = z.infer<typeof WeatherNowSchema>;

/** One day of the 7-day forecast. */
const ForecastDaySchema = z.object({
  date: z.string(),
  weather: z.string(),
  high: z.string(),
  low: z.string(),
  wind: z.string(),
  humidity: z.string(),
  week: z.string(),
});
export type ForecastDay = z.infer<typeof ForecastDaySchema>;

/** weather_search with a date: `city` echoes the name that was passed; `forecast` starts today. */
export const WeatherForecastSchema = z.object({
  city: z.string(),
  forecast: z.array(ForecastDaySchema).min(1),
});
export type WeatherForecast = z.infer<typeof WeatherForecastSchema>;

/** Either weather shape, told apart by the presence of `forecast`. */
const WeatherResultSchema = z.union([WeatherForecastSchema, WeatherNowSchema]);
export type WeatherResult = z.infer<typeof WeatherResultSchema>;

/** One detection box of crop_growth_recognize. */
const DetectionSchema = z.object({
  class_id: z.number(),
  confidence: z.number(),
  bbox: z.array(z.number()).length(4),
  class_name: z.string(),
});
export type Detection = z.infer<typeof DetectionSchema>;

/** The result of crop_growth_recognize. `recognized_result` null = no conclusion. */
export const RecognitionResultSchema = z.object({
  status: z.string(),
  data: z.object({
    task_type: z.string(),
    detections: z.array(DetectionSchema),
    count: z.number(),
    inference_time: z.number().optional(),
    input_size: z.array(z.number()).optional(),
    model_id: z.string(),
    model_name: z.string(),
    recognized_result: z.union([z.string(), z.number(), z.null()]),
    original_image: z.string().optional(),
    original_compressed: z.boolean().optional(),
  }),
  message: z.string(),
  error: z.union([z.string(), z.null()]).optional(),
});
export type RecognitionResult = z.infer<typeof RecognitionResultSchema>;

/** The result of get_current_time. `solar_terms` is present with `withSolarTerms`. */
export const CurrentTimeSchema = z.object({
  timezone: z.string(),
  datetime: z.string(),
  date: z.string(),
  time: z.string(),
  weekday: z.string(),
  unix: z.number(),
  solar_term: z.string(),
  solar_term_date: z.string(),
  next_solar_term: z.string(),
  next_solar_term_date: z.string(),
  days_to_next_solar_term: z.number(),
  solar_term_year: z.number(),
  solar_terms: z.array(z.object({ name: z.string(), date: z.string() })).optional(),
});
export type CurrentTime = z.infer<typeof CurrentTimeSchema>;

/** The schema used by the generic call layer for each known tool. */
export const TOOL_RESULT_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  knowledge_search: KnowledgeResultSchema,
  weather_search: WeatherResultSchema,
  crop_growth_recognize: RecognitionResultSchema,
  get_current_time: CurrentTimeSchema,
};

/** A tool as advertised by `tools/list` (only the parts the client uses). */
export const ToolInfoSchema = z.object({
  name: z.string(),
  description: z.string().optional(),
  inputSchema: z.looseObject({
    type: z.literal('object'),
    properties: z.record(z.string(), z.unknown()).optional(),
    required: z.array(z.string()).optional(),
  }),
});

/**
 * True when `score_type` says the scores only rank (RRF, `rrf(≈1/(60+rank), 仅用于排序)`),
 * false when they are a 0–1 similarity (`cosine_similarity(0~1)`). Unknown types count as rank-only,
 * so no caller ever reads an unknown score as a similarity.
 */
export function isRankOnlyScoreType(scoreType: string): boolean {
  const s = scoreType.toLowerCase();
  if (/cosine|similarity/.test(s) && !/rrf|仅用于排序/.test(s)) return false;
  return true;
}
