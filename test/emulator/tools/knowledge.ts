/** `knowledge_search`: hybrid retrieval over the sample knowledge bases. */
import { z } from 'zod';
import type { RetrievalEngine } from '../retrieval';
import { ToolFailure } from '../validation';
import type { ToolDef } from './types';

/** Input schema of knowledge_search. */
export const knowledgeSchema = z.strictObject({
  query: z.string().min(1).describe('检索问题，建议写全"作物 + 生育期 + 农事环节"'),
  kbCode: z.string().min(1).optional().describe('知识库编码，多个用逗号分隔；不传则检索账号已开通的全部知识库'),
  topK: z.number().int().min(1).max(20).default(5).describe('返回片段数，默认 5，最多 20'),
  scoreThreshold: z.number().min(0).max(1).default(0.7).describe('向量候选的余弦相似度阈值，默认 0.7，传 0 关闭过滤'),
  useRerank: z.boolean().default(false).describe('是否启用 Rerank 精排，默认 false'),
  mode: z
    .enum(['hybrid', 'vector'])
    .default('hybrid')
    .describe('检索模式：hybrid（向量 + 全文 + RRF 融合，默认）或 vector'),
});

/** Builds the tool over an engine. */
export function knowledgeTool(engine: RetrievalEngine): ToolDef<typeof knowledgeSchema> {
  return {
    name: 'knowledge_search',
    method: 'knowledgeSearch',
    description: '检索平台内置的农技知识库（向量 + 全文 + RRF 融合的混合检索），返回原文片段、文档名、片段序号与分数。',
    schema: knowledgeSchema,
    async run(input) {
      const kbCodes = input.kbCode
        ?.split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0);
      const outcome = engine.search({
        query: input.query,
        kbCodes,
        topK: input.topK,
        scoreThreshold: input.scoreThreshold,
        useRerank: input.useRerank,
        mode: input.mode,
      });
      if (!outcome.ok) throw new ToolFailure(outcome.reason);
      return outcome.result;
    },
  };
}
