import * as assert from 'node:assert/strict';
import { groundedPrompt } from '../../../src/chat/prompt';
import { knowledgeHitText, knowledgeMissText, returnedPassages, type SearchHit } from '../../../src/chat/toolText';
import { describeMiss } from '../../../src/knowledge/miss';
import { runSearch, type ResultLike } from '../../../src/knowledge/search';
import type { SearchOptions } from '../../../src/knowledge/history';

const RRF = 'rrf(≈1/(60+rank), 仅用于排序)';
const NAMES: Record<string, string> = { WHEAT_001: '小麦', TEA_MANAGER_001: '茶树管理' };

const result = (kbCode: string, scoreType: string, scores: number[], doc = '小麦'): ResultLike => ({
  kb_code: kbCode,
  kb_name: kbCode
    .split(',')
    .map((c) => NAMES[c] ?? c)
    .join(','),
  mode: scoreType.startsWith('rrf') ? 'hybrid' : 'vector',
  score_type: scoreType,
  counts: { vector: 32, fulltext: 2, hybrid: scores.length },
  sources: scores.map((score, i) => ({ doc_name: `${doc}[${i}].pdf`, chunk_index: i, content: `段落${i}`, score })),
  warnings: ['Rerank 精排已手动关闭'],
});

/** A hit as the knowledge search runs it, the platform's answers given by knowledge base (`*`: all of them). */
async function hit(options: SearchOptions, answers: Record<string, ResultLike>): Promise<SearchHit> {
  const outcome = await runSearch(
    options,
    {
      call: async (o) => answers[o.kbCode ?? '*'] ?? assert.fail(`unexpected ${o.kbCode}`),
      missOf: () => undefined,
      bases: [],
      basesListed: false,
      now: () => new Date('2026-11-20T08:00:00Z'),
      usualThreshold: 0.7,
    },
    new AbortController().signal,
  );
  assert.equal(outcome.kind, 'hit');
  return outcome as SearchHit;
}

const wheat = (scoreType: string, scores: number[], options: Partial<SearchOptions> = {}): Promise<SearchHit> =>
  hit(
    { query: '小麦 拔节期 追肥', kbCode: 'WHEAT_001', ...options },
    { WHEAT_001: result('WHEAT_001', scoreType, scores) },
  );

describe('chat tool texts', () => {
  it('an RRF hit: citation keys, the knowledge base, the score as a rank, never a similarity', async () => {
    const text = knowledgeHitText(await wheat(RRF, [0.0325, 0.0161]));
    assert.match(text, /^knowledge_search: 2 passage\(s\) for "小麦 拔节期 追肥" \(mode hybrid, score_type rrf/);
    assert.match(
      text,
      /\[1\] citation key: 小麦\[0\]\.pdf#0\nknowledge base: 小麦 \(WHEAT_001\)\nscore: 0\.0325 — Rank 1 of 2 · /,
    );
    assert.match(text, /they only order the results; they are not similarities/);
    assert.match(text, /Platform warning: Rerank 精排已手动关闭/);
    assert.doesNotMatch(text, /similarity 0\.0325/);
  });

  it('a cosine hit reads its scores as similarities, against the threshold the search ran with', async () => {
    const [plain] = returnedPassages(await wheat('cosine_similarity(0~1)', [0.83]));
    assert.equal(plain!.scoreLabel, 'Rank 1 of 1 · similarity 0.83');
    assert.equal(plain!.key, '小麦[0].pdf#0');
    const [under] = returnedPassages(await wheat('cosine_similarity(0~1)', [0.55], { scoreThreshold: 0.5 }));
    assert.equal(
      under!.scoreLabel,
      'Rank 1 of 1 · similarity 0.55 (threshold 0.5) · ⚠ below the usual relevance threshold 0.7',
      'read as the search results read it',
    );
  });

  it('every knowledge base: each passage names its own base, in the fused order, never the comma-joined list', async () => {
    const found = await hit(
      { query: '修剪' },
      {
        '*': result('TEA_MANAGER_001,WHEAT_001', RRF, [0.0328, 0.0323]),
        TEA_MANAGER_001: result('TEA_MANAGER_001', RRF, [0.0328, 0.0161], '茶树'),
        WHEAT_001: result('WHEAT_001', RRF, [0.0323], '小麦'),
      },
    );
    const passages = returnedPassages(found);
    assert.deepEqual(
      passages.map((p) => [p.key, p.kbCode, p.kbName]),
      [
        ['茶树[0].pdf#0', 'TEA_MANAGER_001', '茶树管理'],
        ['小麦[0].pdf#0', 'WHEAT_001', '小麦'],
        ['茶树[1].pdf#1', 'TEA_MANAGER_001', '茶树管理'],
      ],
    );
    assert.match(passages[0]!.scoreLabel, /^Rank 1 of 3 · .* · found in 1 of 2 knowledge bases$/);
    const text = knowledgeHitText(found);
    assert.match(text, /^knowledge_search: 3 passage\(s\) for "修剪", 2 knowledge bases searched one by one/);
    assert.match(text, /raw scores of different knowledge bases are never compared/);
    assert.doesNotMatch(text, /TEA_MANAGER_001,WHEAT_001/);
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

  it('the participant prompt names the one citation syntax and every passage key', async () => {
    const prompt = groundedPrompt('draft', returnedPassages(await wheat('rrf', [0.03, 0.02])));
    assert.match(prompt, /cite it as 〔citation key〕, e\.g\. 〔小麦\[0\]\.pdf#0〕/);
    assert.match(prompt, /citation key: 小麦\[1\]\.pdf#1/);
    assert.match(prompt, /bulletin paragraphs/);
  });
});
