/** zod schemas of the REST chat completions replies (non-streamed and streamed chunks). */
import { z } from 'zod';

/** `knowledge_citation`: a knowledge entry (not a `doc_name#chunk_index`). */
const knowledgeCitationSchema = z.looseObject({
  type: z.literal('knowledge_citation'),
  kb_id: z.string(),
  title: z.string(),
  summary: z.string(),
  category: z.string().optional(),
  score: z.number().optional(),
});

/** `weather_citation`: the weather data an answer used. */
const weatherCitationSchema = z.looseObject({
  type: z.literal('weather_citation'),
  provider: z.string(),
  location: z.string(),
  date: z.string(),
  summary: z.string(),
  updated_at: z.string(),
});

/** Other annotation types (e.g. `url_citation`) are kept as they come. */
const otherAnnotationSchema = z.looseObject({ type: z.string() });

/** Any annotation. */
export const annotationSchema = z.union([knowledgeCitationSchema, weatherCitationSchema, otherAnnotationSchema]);

/** `usage`, with the platform's tool usage blocks. */
export const usageSchema = z.looseObject({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  total_tokens: z.number().int().nonnegative(),
  agriwis_knowledge_search_usage: z
    .looseObject({ tool_usage: z.number().int().nonnegative(), chunk_usage: z.number().int().nonnegative().optional() })
    .optional(),
  agriwis_weather_search_usage: z.looseObject({ tool_usage: z.number().int().nonnegative() }).optional(),
});

/** A non-streamed `chat.completion`. */
export const chatCompletionSchema = z.looseObject({
  id: z.string(),
  object: z.literal('chat.completion'),
  model: z.string(),
  choices: z
    .array(
      z.looseObject({
        index: z.number().int(),
        finish_reason: z.string().nullable(),
        message: z.looseObject({
          role: z.literal('assistant'),
          content: z.string().nullable(),
          annotations: z.array(annotationSchema).nullish(),
          tool_calls: z.array(z.unknown()).nullish(),
        }),
      }),
    )
    .min(1),
  usage: usageSchema.optional(),
});

/** One streamed `chat.completion.chunk`. */
export const chatChunkSchema = z.looseObject({
  id: z.string(),
  object: z.literal('chat.completion.chunk'),
  choices: z.array(
    z.looseObject({
      index: z.number().int(),
      delta: z.looseObject({
        role: z.string().optional(),
        content: z.string().nullish(),
        annotations: z.array(annotationSchema).nullish(),
      }),
      finish_reason: z.string().nullable().optional(),
    }),
  ),
  usage: usageSchema.nullish(),
});

export type KnowledgeCitation = z.infer<typeof knowledgeCitationSchema>;
export type WeatherCitation = z.infer<typeof weatherCitationSchema>;
export type Annotation = z.infer<typeof annotationSchema>;
export type ChatUsage = z.infer<typeof usageSchema>;
export type ChatCompletion = z.infer<typeof chatCompletionSchema>;
export type ChatChunk = z.infer<typeof chatChunkSchema>;

/** Narrows an annotation to a knowledge citation. */
export function isKnowledgeCitation(a: Annotation): a is KnowledgeCitation {
  // Stryker disable next-line ConditionalExpression: a fast path only, the schema's literal type refuses any other type too
  return a.type === 'knowledge_citation' && knowledgeCitationSchema.safeParse(a).success;
}

/** Narrows an annotation to a weather citation. */
export function isWeatherCitation(a: Annotation): a is WeatherCitation {
  // Stryker disable next-line ConditionalExpression: a fast path only, the schema's literal type refuses any other type too
  return a.type === 'weather_citation' && weatherCitationSchema.safeParse(a).success;
}
