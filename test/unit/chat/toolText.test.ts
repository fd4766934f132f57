import * as assert from 'node:assert/strict';
import { groundedPrompt } from '../../../src/chat/prompt';
import {
  currentTimeText,
  knowledgeHitText,
  knowledgeMissText,
  recognitionText,
  returnedPassages,
  weatherForecastText,
  weatherNowText,
  type ReturnedPassage,
  type SearchHit,
} from '../../../src/chat/toolText';
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

  it('the whole text of a one-base hit: its header, the citation rule, the score rule of its score_type, then each passage', async () => {
    const cosine = 'cosine_similarity(0~1, 不是rrf)';
    const text = knowledgeHitText(await wheat(cosine, [0.83]));
    assert.equal(
      text,
      [
        `knowledge_search: 1 passage(s) for "小麦 拔节期 追肥" (mode vector, score_type ${cosine}).`,
        'Cite a passage only by its citation key, exactly as written, in the form 〔doc_name#chunk_index〕; never cite anything else.',
        'Scores of different score_types are not comparable.',
        'Platform warning: Rerank 精排已手动关闭',
        '',
        '[1] citation key: 小麦[0].pdf#0',
        'knowledge base: 小麦 (WHEAT_001)',
        'score: 0.83 — Rank 1 of 1 · similarity 0.83',
        'passage: 段落0',
      ].join('\n'),
      'a score_type is RRF only when it starts with rrf',
    );
    // blanks before the type do not hide an RRF score
    assert.match(
      knowledgeHitText(await wheat(` ${RRF}`, [0.0325])),
      /These are RRF scores: they only order the results/,
    );
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

describe('chat tool texts: weather, time and recognition, as the model reads them', () => {
  it('the current weather: the place asked for, its city code, and every field with its name', () => {
    assert.equal(
      weatherNowText('成都', {
        city: '101270101',
        weather: '小雨',
        temperature: '8℃',
        humidity: '90%',
        wind: '北风',
        updateTime: '08:00',
      }),
      'weather_search (now) for "成都" (city code 101270101):\nweather: 小雨; temperature: 8℃; humidity: 90%; wind: 北风; updated: 08:00',
    );
  });

  it('a forecast: one line a day, in the order given, low before high', () => {
    const day = { weather: '晴', high: '12℃', low: '3℃', wind: '北风', humidity: '60%' };
    assert.equal(
      weatherForecastText({
        city: '成都',
        forecast: [
          { ...day, date: '2026-12-02', week: '三' },
          { ...day, date: '2026-12-03', week: '四', weather: '阴' },
        ],
      }),
      [
        'weather_search (7-day forecast) for "成都":',
        '2026-12-02 三: 晴, 3℃–12℃, wind 北风, humidity 60%',
        '2026-12-03 四: 阴, 3℃–12℃, wind 北风, humidity 60%',
      ].join('\n'),
    );
  });

  it("the time: the platform's date, zone and weekday, the solar term now and next, and the year's terms when given", () => {
    const t = {
      timezone: 'Asia/Shanghai',
      datetime: '2026-12-02 16:00:00',
      date: '2026-12-02',
      time: '16:00:00',
      weekday: '星期三',
      unix: 1796198400,
      solar_term: '小雪',
      solar_term_date: '2026-11-22',
      next_solar_term: '大雪',
      next_solar_term_date: '2026-12-07',
      days_to_next_solar_term: 5,
      solar_term_year: 2026,
    };
    const head = [
      'get_current_time: 2026-12-02 16:00:00 (Asia/Shanghai), 星期三.',
      'Current solar term: 小雪 (since 2026-11-22); next: 大雪 on 2026-12-07, in 5 day(s).',
    ];
    assert.equal(currentTimeText(t), head.join('\n'));
    assert.equal(currentTimeText({ ...t, solar_terms: [] }), head.join('\n'), 'an empty list adds no line');
    assert.equal(
      currentTimeText({
        ...t,
        solar_terms: [
          { name: '小寒', date: '2026-01-05' },
          { name: '大寒', date: '2026-01-20' },
        ],
      }),
      [...head, 'Solar terms of 2026: 小寒 2026-01-05, 大寒 2026-01-20'].join('\n'),
    );
  });

  it("recognition: the conclusion or, when the model could not decide, an order never to guess; each detection with two decimals; the platform's message", () => {
    const r = {
      status: 'success',
      message: '识别完成',
      data: {
        task_type: 'detect',
        detections: [
          { class_id: 0, confidence: 0.876, bbox: [1, 2, 3, 4], class_name: 'tea_bud' },
          { class_id: 0, confidence: 0.5, bbox: [5, 6, 7, 8], class_name: 'tea_bud' },
        ],
        count: 2,
        model_id: 'tea_count',
        model_name: '茶叶芽头计数',
        recognized_result: 2 as string | number | null,
      },
    };
    assert.equal(
      recognitionText(r),
      [
        'crop_growth_recognize with model tea_count (茶叶芽头计数): 2.',
        'detections: 2',
        '- tea_bud: confidence 0.88',
        '- tea_bud: confidence 0.50',
        'The platform said: 识别完成',
      ].join('\n'),
    );
    const undecided = recognitionText({
      ...r,
      message: '',
      data: { ...r.data, recognized_result: null, detections: [], count: 0 },
    });
    assert.equal(
      undecided,
      'crop_growth_recognize with model tea_count (茶叶芽头计数): no conclusion (the model could not decide; report it as such, never guess).\ndetections: 0',
    );
  });
});

describe('chat: the instructions the model gets (groundedPrompt)', () => {
  const passage: ReturnedPassage = {
    key: '茶树修剪.docx#3',
    docName: '茶树修剪.docx',
    chunkIndex: 3,
    kbName: '茶树管理',
    kbCode: 'TEA_MANAGER_001',
    content: '深修剪在春茶后进行。',
    score: 0.0164,
    scoreType: 'rrf',
    scoreLabel: 'Rank 1 of 2',
  };
  const rules = (task: 'search' | 'draft', example: string): string[] => [
    'You help an agronomy author write a bulletin grounded in the Shunong (蜀农) knowledge base.',
    task === 'draft'
      ? 'Write one or two short bulletin paragraphs for farmers, in the language of the question.'
      : 'Answer the question briefly, in the language of the question.',
    `Use only the passages below. After each sentence that uses a passage, cite it as 〔citation key〕, e.g. 〔${example}〕. Cite nothing else: no other documents, no footnotes, no URLs. If the passages do not answer the question, say so.`,
    'Separate paragraphs with a blank line. No headings.',
  ];

  it('a search: the rules, then each passage numbered from 1 with its key, its base and its text', () => {
    const second = { ...passage, key: '茶树修剪.docx#4', chunkIndex: 4, content: '轻修剪在秋茶后。' };
    assert.equal(
      groundedPrompt('search', [passage, second]),
      [
        ...rules('search', '茶树修剪.docx#3'),
        '',
        'Passages returned by knowledge_search in this turn:',
        '',
        '[1] citation key: 茶树修剪.docx#3',
        'knowledge base: 茶树管理 (TEA_MANAGER_001)',
        'passage: 深修剪在春茶后进行。',
        '',
        '[2] citation key: 茶树修剪.docx#4',
        'knowledge base: 茶树管理 (TEA_MANAGER_001)',
        'passage: 轻修剪在秋茶后。',
      ].join('\n'),
    );
  });

  it('a draft with no passage: the draft rule, a placeholder example key, and the extra lines before the (empty) list', () => {
    assert.equal(
      groundedPrompt('draft', [], ['The bulletin is in Chinese.']),
      [
        ...rules('draft', 'doc.pdf#0'),
        'The bulletin is in Chinese.',
        '',
        'Passages returned by knowledge_search in this turn:',
      ].join('\n'),
    );
  });
});
