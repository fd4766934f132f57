/** Drafted text with several citations as one batch of insertions; sentences → runs → blocks. */
import * as assert from 'node:assert/strict';
import * as lib from '../../../src/citations/index';
import { planDraftInsertion, type DraftBlock } from '../../../src/citations/draftPlan';
import type { CitedPassage } from '../../../src/citations/passage';
import {
  buildBlocks,
  splitDraft,
  type ResolvedKnowledge,
  type WeatherSource,
} from '../../../src/citations/draftBlocks';

const passage = (docName: string, chunkIndex: number, content: string): CitedPassage => ({
  docName,
  chunkIndex,
  content,
  kbCode: 'RICE_001',
  kbName: '水稻',
  query: 'q',
  score: 0.8,
  scoreType: 'cosine_similarity(0~1)',
  retrievedAt: '2026-11-30T00:00:00.000Z',
});

const A = passage(
  '水稻分蘖期管理要点.docx',
  2,
  '水稻分蘖期水层管理以浅水为主：返青后保持田面1～3厘米浅水层。分蘖期不宜长期深灌。',
);
const B = passage('水稻中后期管理.docx', 0, '够苗及时晒田。晒田以田边开细裂为度。');
const KNOWLEDGE: ResolvedKnowledge[] = [
  { kbId: 'RICE_001', title: '水稻分蘖期管理要点', summary: A.content.slice(0, 10) + '……', passage: A },
  { kbId: 'RICE_001', title: '水稻中后期管理', summary: B.content.slice(0, 6) + '……', passage: B },
  { kbId: 'RICE_001', title: '无法定位的条目', summary: '不存在……' },
];
const WEATHER: WeatherSource[] = [
  {
    provider: 'shunong-local-emulator',
    location: '成都',
    date: '2026-12-01',
    summary: '晴，最高 16℃',
    updatedAt: '2026-11-30T18:00:00+08:00',
  },
];
const CONTENT =
  '水稻分蘖期水层管理以浅水为主：返青后保持田面1～3厘米浅水层。分蘖期不宜长期深灌。\n\n够苗及时晒田。\n\n成都明天（2026-12-01）：晴，最高 16℃。';

function apply(text: string, edits: lib.TextEdit[]): string {
  return lib.applyEdits(text, edits);
}

describe('draft: sentences, runs and blocks', () => {
  it('attributes each sentence to the passage holding it, or to the weather summary it contains', () => {
    const s = splitDraft(CONTENT, KNOWLEDGE, WEATHER);
    assert.deepEqual(
      s.map((x) => [x.paragraph, x.from.kind, 'index' in x.from ? x.from.index : -1]),
      [
        [0, 'knowledge', 0],
        [0, 'knowledge', 0],
        [1, 'knowledge', 1],
        [2, 'weather', 0],
      ],
    );
  });

  it('groups consecutive sentences of one source into one run; weather gets the brief source line', () => {
    const s = splitDraft(CONTENT, KNOWLEDGE, WEATHER);
    const blocks = buildBlocks(s, new Set(s.map((x) => x.id)), KNOWLEDGE, WEATHER, 'zh', lib.inlineText);
    assert.equal(blocks.length, 3);
    assert.equal(blocks[0]!.runs.length, 1);
    assert.deepEqual(blocks[0]!.runs[0]!.cites, [{ kind: 'passage', passage: A }]);
    assert.deepEqual(blocks[2]!.after, [
      '> 来源：shunong-local-emulator · 成都 · 2026-12-01 · 更新于 2026-11-30T18:00:00+08:00',
    ]);
  });

  it('a paraphrase (no sentence found verbatim) cites the unmatched citations, unresolved ones as 〔title · kb_id〕 with a note', () => {
    const s = splitDraft('分蘖期要浅水勤灌。', KNOWLEDGE, []);
    const blocks = buildBlocks(s, new Set([0]), KNOWLEDGE, [], 'zh', lib.inlineText);
    const cites = blocks[0]!.runs[0]!.cites;
    assert.equal(cites.length, 3);
    assert.deepEqual(cites[2], { kind: 'marker', text: ' 〔无法定位的条目 · RICE\\_001〕' });
    assert.ok(blocks[0]!.after?.at(-1)?.startsWith('> 注：'));
    const en = buildBlocks(s, new Set([0]), KNOWLEDGE, [], 'en', lib.inlineText);
    assert.ok(en[0]!.after?.at(-1)?.startsWith('> Note: 〔title · knowledge base〕 marks a knowledge entry'));
  });

  it('writes the weather source line of a draft in the language given', () => {
    const s = splitDraft(CONTENT, KNOWLEDGE, WEATHER);
    const blocks = buildBlocks(s, new Set(s.map((x) => x.id)), KNOWLEDGE, WEATHER, 'en', lib.inlineText);
    assert.deepEqual(blocks[2]!.after, [
      '> Source: shunong-local-emulator · 成都 · 2026-12-01 · updated 2026-11-30T18:00:00+08:00',
    ]);
  });
});

describe('draft: one batch of insertions with several citations', () => {
  const opts = { style: 'footnote' as const, referencesHeading: '参考资料' };

  it('inserts the paragraphs after the cursor paragraph, footnotes numbered in reading order, definitions in the references section', () => {
    const text = '# 简报\n\n## 水稻\n\n已有段落。\n';
    const s = splitDraft(CONTENT, KNOWLEDGE, WEATHER);
    const blocks = buildBlocks(s, new Set(s.map((x) => x.id)), KNOWLEDGE, WEATHER, 'zh', lib.inlineText);
    const plan = planDraftInsertion(lib, text, text.indexOf('已有'), blocks, opts);
    assert.ok(plan.ok);
    for (const e of plan.edits) assert.equal(e.start, e.end, 'insertions only');
    const out = apply(text, plan.edits);
    assert.equal(
      out,
      '# 简报\n\n## 水稻\n\n已有段落。\n\n' +
        '水稻分蘖期水层管理以浅水为主：返青后保持田面1～3厘米浅水层。分蘖期不宜长期深灌。[^1]\n\n' +
        '够苗及时晒田。[^2]\n\n' +
        '成都明天（2026-12-01）：晴，最高 16℃。\n\n' +
        '> 来源：shunong-local-emulator · 成都 · 2026-12-01 · 更新于 2026-11-30T18:00:00+08:00\n\n' +
        '## 参考资料\n\n' +
        '[^1]: 水稻分蘖期管理要点.docx#2 — 水稻 (RICE_001)\n' +
        '[^2]: 水稻中后期管理.docx#0 — 水稻 (RICE_001)\n',
    );
    assert.deepEqual(lib.lint(out, { referencesHeading: '参考资料' }), []);
  });

  it('reuses an existing definition of the same passage, and writes inline citations in inline style', () => {
    const text = '段落。[^1]\n\n## 参考资料\n\n[^1]: 水稻中后期管理.docx#0 — 水稻 (RICE\\_001)\n';
    const blocks: DraftBlock[] = [
      {
        runs: [
          { text: '够苗及时晒田。', cites: [{ kind: 'passage', passage: B }] },
          { text: '浅水。', cites: [{ kind: 'passage', passage: A }] },
        ],
      },
    ];
    const plan = planDraftInsertion(lib, text, 0, blocks, opts);
    assert.ok(plan.ok);
    const out = apply(text, plan.edits);
    assert.match(out, /够苗及时晒田。\[\^1\]浅水。\[\^2\]/);
    assert.equal(out.match(/^\[\^1\]:/gm)?.length, 1);
    const inline = planDraftInsertion(lib, '段落。\n', 0, blocks, { ...opts, style: 'inline' });
    assert.ok(inline.ok);
    assert.equal(
      apply('段落。\n', inline.edits),
      '段落。\n\n够苗及时晒田。〔水稻中后期管理.docx#0〕浅水。〔水稻分蘖期管理要点.docx#2〕\n',
    );
  });

  it('escapes server text and refuses a cursor inside code', () => {
    const blocks: DraftBlock[] = [
      { runs: [{ text: '# 不是标题 [链接](x) <b>', cites: [{ kind: 'passage', passage: A }] }] },
    ];
    const plan = planDraftInsertion(lib, '', 0, blocks, opts);
    assert.ok(plan.ok);
    const out = apply('', plan.edits);
    assert.ok(out.startsWith('\\# 不是标题 \\[链接\\](x) \\<b\\>[^1]'), out);
    const code = '```\ncode\n```\n';
    const bad = planDraftInsertion(lib, code, 5, blocks, opts);
    assert.equal(bad.ok, false);
  });
});
