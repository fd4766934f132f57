import * as assert from 'node:assert/strict';
import { groundedPrompt } from '../../../src/chat/prompt';
import { knowledgeHitText, knowledgeMissText, returnedPassages } from '../../../src/chat/toolText';
import { describeMiss } from '../../../src/knowledge/miss';
import type { KnowledgeResult } from '../../../src/shunong/schemas';

const hit = (scoreType: string, scores: number[]): KnowledgeResult => ({
  kb_code: 'WHEAT_001',
  kb_name: '小麦',
  query: '小麦 拔节期 追肥',
  mode: scoreType.startsWith('rrf') ? 'hybrid' : 'vector',
  score_type: scoreType,
  total: scores.length,
  counts: { vector: 32, fulltext: 2, hybrid: scores.length },
  sources: scores.map((score, i) => ({ doc_name: `小麦[${i}].pdf`, chunk_index: i, content: `段落${i}`, score })),
  warnings: ['Rerank 精排已手动关闭'],
});

describe('chat tool texts', () => {
  it('an RRF hit: citation keys, the knowledge base, the score as a rank, never a similarity', () => {
    const text = knowledgeHitText(hit('rrf(≈1/(60+rank), 仅用于排序)', [0.0325, 0.0161]));
    assert.match(
      text,
      /\[1\] citation key: 小麦\[0\]\.pdf#0\nknowledge base: 小麦 \(WHEAT_001\)\nscore: 0\.0325 — Rank 1 of 2 · /,
    );
    assert.match(text, /they only order the results; they are not similarities/);
    assert.match(text, /Platform warning: Rerank 精排已手动关闭/);
    assert.doesNotMatch(text, /similarity 0\.0325/);
  });

  it('a cosine hit reads its scores as similarities', () => {
    const [p] = returnedPassages(hit('cosine_similarity(0~1)', [0.83]));
    assert.equal(p!.scoreLabel, 'Rank 1 of 1 · similarity 0.83');
    assert.equal(p!.key, '小麦[0].pdf#0');
  });

  it('a miss: the platform text verbatim and the no-citation rule', () => {
    const text = knowledgeMissText(
      '知识库未命中相关片段',
      { vectorCandidates: 32, fulltextCandidates: 0 },
      describeMiss,
    );
    assert.match(text, /^knowledge_search: NO passage matched \(a miss\)\. No citation may be written/);
    assert.match(text, /The platform said: 知识库未命中相关片段/);
    assert.match(text, /Candidates: 32 vector \/ 0 full-text/);
  });

  it('the participant prompt names the one citation syntax and every passage key', () => {
    const prompt = groundedPrompt('draft', returnedPassages(hit('rrf', [0.03, 0.02])));
    assert.match(prompt, /cite it as 〔citation key〕, e\.g\. 〔小麦\[0\]\.pdf#0〕/);
    assert.match(prompt, /citation key: 小麦\[1\]\.pdf#1/);
    assert.match(prompt, /bulletin paragraphs/);
  });
});
