/** Drafted text with several citations as one batch of insertions; sentences → runs → blocks. */
import * as assert from 'node:assert/strict';
import * as lib from '../../../src/citations/index';
import {
  InsertionLog,
  planDraftInsertion,
  type DraftBlock,
  type DraftCite,
  type DraftRun,
} from '../../../src/citations/draftPlan';
import { sourceOf, type CitedPassage } from '../../../src/citations/passage';
import {
  buildBlocks,
  splitDraft,
  type Attribution,
  type DraftSentence,
  type ResolvedKnowledge,
  type WeatherSource,
} from '../../../src/citations/draftBlocks';
import { weatherSourceLine } from '../../../src/bulletin/render';

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
  /** One paragraph of two runs, each citing its passage (B, then A). */
  const TWO_RUNS: DraftBlock[] = [
    {
      runs: [
        { text: '够苗及时晒田。', cites: [{ kind: 'passage', passage: B }] },
        { text: '浅水。', cites: [{ kind: 'passage', passage: A }] },
      ],
    },
  ];

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
    const plan = planDraftInsertion(lib, text, 0, TWO_RUNS, opts);
    assert.ok(plan.ok);
    const out = apply(text, plan.edits);
    assert.match(out, /够苗及时晒田。\[\^1\]浅水。\[\^2\]/);
    assert.equal(out.match(/^\[\^1\]:/gm)?.length, 1);
    const inline = planDraftInsertion(lib, '段落。\n', 0, TWO_RUNS, { ...opts, style: 'inline' });
    assert.ok(inline.ok);
    assert.equal(
      apply('段落。\n', inline.edits),
      '段落。\n\n够苗及时晒田。〔水稻中后期管理.docx#0〕浅水。〔水稻分蘖期管理要点.docx#2〕\n',
    );
  });

  it('a references section above the cursor: the definitions go there, each citation after its own sentence', () => {
    const text = '# 简报\n\n## 参考资料\n\n[^1]: 旧.docx#1 — 水稻 (RICE\\_001)\n\n## 正文\n\n段落。[^1]\n';
    const plan = planDraftInsertion(lib, text, text.length, TWO_RUNS, opts);
    assert.ok(plan.ok);
    const out = apply(text, plan.edits);
    assert.equal(
      out,
      '# 简报\n\n## 参考资料\n\n[^1]: 旧.docx#1 — 水稻 (RICE\\_001)\n' +
        '[^2]: 水稻中后期管理.docx#0 — 水稻 (RICE_001)\n' +
        '[^3]: 水稻分蘖期管理要点.docx#2 — 水稻 (RICE_001)\n\n' +
        '## 正文\n\n段落。[^1]\n\n够苗及时晒田。[^2]浅水。[^3]\n',
    );
    assert.deepEqual(lib.lint(out, { referencesHeading: '参考资料' }), []);
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

const S = (id: number, paragraph: number, text: string, from: Attribution): DraftSentence => ({
  id,
  paragraph,
  text,
  from,
});
const none: Attribution = { kind: 'none' };
const know = (index: number): Attribution => ({ kind: 'knowledge', index });
const sky = (index: number): Attribution => ({ kind: 'weather', index });
const RAIN: WeatherSource = { ...WEATHER[0]!, location: '绵阳', summary: '小雨' };
const all = (s: readonly DraftSentence[]): Set<number> => new Set(s.map((x) => x.id));

describe('draft: sentences, rule by rule', () => {
  it('paragraphs are split at blank lines (CRLF ones, or ones holding spaces); blank paragraphs are not counted', () => {
    const s = splitDraft(' \n\n甲。\r\n  \r\n乙！丙？\n\n\n丁\n\n ', [], []);
    assert.deepEqual(
      s.map((x) => [x.id, x.paragraph, x.text]),
      [
        [0, 0, '甲。'],
        [1, 1, '乙！'],
        [2, 1, '丙？'],
        [3, 2, '丁'],
      ],
    );
  });

  it('a sentence ends at 。！？!? (a run of them stays with it) or at a line break; blank fragments are no sentences', () => {
    const s = splitDraft('甲。。乙!!丙?丁\n戊 。 \n 己', [], []);
    assert.deepEqual(
      s.map((x) => [x.id, x.text]),
      [
        [0, '甲。。'],
        [1, '乙!!'],
        [2, '丙?'],
        [3, '丁'],
        [4, '戊 。'],
        [5, '己'],
      ],
    );
  });

  it('a sentence is from the first passage holding it (an entry without a passage holds nothing), else the first weather summary in it, else nothing', () => {
    const knowledge: ResolvedKnowledge[] = [
      { kbId: 'K', title: '无段落', summary: '丙丁。' },
      { kbId: 'K', title: '甲', summary: '', passage: passage('a.docx', 0, '甲乙。丙丁。') },
      { kbId: 'K', title: '乙', summary: '', passage: passage('b.docx', 1, '丙丁。') },
    ];
    const weather: WeatherSource[] = [
      { ...WEATHER[0]!, summary: '  ' },
      { ...WEATHER[0]!, summary: ' 晴 ' },
    ];
    assert.deepEqual(
      splitDraft('丙丁。明天晴。下雨。', knowledge, weather).map((x) => x.from),
      [know(1), sky(1), none],
    );
  });
});

describe('draft: runs and blocks, rule by rule', () => {
  it('consecutive sentences of one source make one run, joined as written; another passage, weather or kind starts a new one', () => {
    const s = [
      S(0, 0, '甲。', none),
      S(1, 0, '乙。', none),
      S(2, 0, '丙。', know(0)),
      S(3, 0, '丁。', know(0)),
      S(4, 0, '戊。', know(1)),
      S(5, 0, '己。', sky(1)),
      S(6, 0, '庚。', sky(1)),
      S(7, 0, '辛。', sky(0)),
      S(8, 0, '壬。', know(0)),
    ];
    const blocks = buildBlocks(s, all(s), KNOWLEDGE.slice(0, 2), [...WEATHER, RAIN], 'zh', lib.inlineText);
    assert.equal(blocks.length, 1);
    assert.deepEqual(
      blocks[0]!.runs.map((r) => [r.text, r.cites.map((c) => (c.kind === 'passage' ? c.passage.docName : c.text))]),
      [
        ['甲。乙。', []],
        ['丙。丁。', [A.docName]],
        ['戊。', [B.docName]],
        ['己。庚。', []],
        ['辛。', []],
        ['壬。', [A.docName]],
      ],
    );
    assert.deepEqual(blocks[0]!.after, [
      weatherSourceLine(RAIN, 'zh', lib.inlineText),
      weatherSourceLine(WEATHER[0]!, 'zh', lib.inlineText),
    ]);
  });

  it('a sentence left out splits no run; a paragraph without accepted sentences is left out; no weather, no lines after', () => {
    const s = [S(0, 0, '甲。', know(0)), S(1, 0, '乙。', none), S(2, 0, '丙。', know(0)), S(3, 1, '丁。', none)];
    const blocks = buildBlocks(s, new Set([0, 2]), KNOWLEDGE, [], 'zh', lib.inlineText);
    assert.deepEqual(blocks, [{ runs: [{ text: '甲。丙。', cites: [{ kind: 'passage', passage: A }] }] }]);
  });

  it('a paraphrase: the entries no sentence of the answer holds are cited at the end of its last unmatched run', () => {
    const s = [S(0, 0, '甲。', none), S(1, 0, '乙。', know(0)), S(2, 1, '丙。', none), S(3, 1, '丁。', know(1))];
    // Sentence 1 is left out, yet its passage is matched: it is not cited for the paraphrase.
    const blocks = buildBlocks(s, new Set([0, 2, 3]), KNOWLEDGE, [], 'en', lib.inlineText);
    assert.deepEqual(
      blocks.map((b) => b.runs.map((r) => r.cites.length)),
      [[0], [1, 1]],
    );
    assert.deepEqual(blocks[1]!.runs[0]!.cites, [{ kind: 'marker', text: ' 〔无法定位的条目 · RICE\\_001〕' }]);
    assert.deepEqual(blocks[1]!.after, [
      '> Note: 〔title · knowledge base〕 marks a knowledge entry the platform named that could not be matched to a passage; it is not a passage citation.',
    ]);
  });

  it('every sentence found in a passage: the entries no sentence holds are not cited, and no note is added', () => {
    const s = [S(0, 0, '甲。', know(0))];
    assert.deepEqual(buildBlocks(s, all(s), KNOWLEDGE, [], 'zh', lib.inlineText), [
      { runs: [{ text: '甲。', cites: [{ kind: 'passage', passage: A }] }] },
    ]);
  });

  it('a paraphrase whose unmatched entries all have passages: they are cited, and no note is added', () => {
    const s = [S(0, 0, '甲。', none)];
    assert.deepEqual(buildBlocks(s, all(s), KNOWLEDGE.slice(0, 2), [], 'en', lib.inlineText), [
      {
        runs: [
          {
            text: '甲。',
            cites: [
              { kind: 'passage', passage: A },
              { kind: 'passage', passage: B },
            ],
          },
        ],
      },
    ]);
  });

  it('a sentence attributed to an entry without a passage gets its marker; the note follows the weather line', () => {
    const s = [S(0, 0, '甲。', know(2)), S(1, 0, '晴。', sky(0))];
    const blocks = buildBlocks(s, all(s), KNOWLEDGE, WEATHER, 'en', lib.inlineText);
    assert.deepEqual(blocks[0]!.runs[0]!.cites, [{ kind: 'marker', text: ' 〔无法定位的条目 · RICE\\_001〕' }]);
    assert.equal(blocks[0]!.after?.length, 2);
    assert.equal(blocks[0]!.after?.[0], weatherSourceLine(WEATHER[0]!, 'en', lib.inlineText));
    assert.ok(blocks[0]!.after?.[1]?.startsWith('> Note: '));
  });

  it('the marker of an unresolved entry can never read as a citation: no # (a full-width one instead), no 〔〕, blanks trimmed', () => {
    const odd: ResolvedKnowledge = { kbId: ' KB#1 ', title: ' 〔标题〕#一＃二 ', summary: '' };
    const s = [S(0, 0, '甲。', none)];
    const blocks = buildBlocks(s, all(s), [odd], [], 'zh', (x) => x);
    assert.deepEqual(blocks[0]!.runs[0]!.cites, [{ kind: 'marker', text: ' 〔标题＃一＃二 · KB＃1〕' }]);
  });
});

describe('draft: what the plan writes, rule by rule', () => {
  const opts = { style: 'footnote' as const, referencesHeading: '参考资料' };
  const run = (text: string, ...cites: DraftCite[]): DraftRun => ({ text, cites });
  const cite = (p: CitedPassage): DraftCite => ({ kind: 'passage', passage: p });
  const defA = '[^1]: 水稻分蘖期管理要点.docx#2 — 水稻 (RICE_001)';
  const planned = (text: string, cursor: number, blocks: DraftBlock[]): string => {
    const plan = planDraftInsertion(lib, text, cursor, blocks, opts);
    assert.ok(plan.ok, JSON.stringify(plan));
    const starts = plan.edits.map((e) => e.start);
    assert.deepEqual(
      starts,
      [...new Set(starts)].sort((x, y) => x - y),
      'one insertion per place, in order',
    );
    return apply(text, plan.edits);
  };

  it('nothing to insert: no blocks, or only blank runs', () => {
    const empties: DraftBlock[][] = [[], [{ runs: [] }], [{ runs: [run(' \n ', cite(A))] }], [{ runs: [], after: [] }]];
    for (const blocks of empties)
      assert.deepEqual(planDraftInsertion(lib, '段落。\n', 0, blocks, opts), {
        ok: false,
        error: 'empty',
        message: 'Nothing to insert.',
      });
  });

  it('a block of Markdown lines only (a source line) is inserted as given, as its own block', () => {
    assert.equal(planned('段落。\n', 0, [{ runs: [], after: ['> 来源：某站'] }]), '段落。\n\n> 来源：某站\n');
  });

  it('paragraphs and the lines after them are separated by one blank line; a marker is written as given after its run', () => {
    const blocks: DraftBlock[] = [
      {
        runs: [run('第一段。', cite(A), { kind: 'marker', text: ' 〔某条 · KB〕' }, cite(B))],
        after: ['> 行一', '> 行二'],
      },
      { runs: [run('第二段。', cite(A))] },
    ];
    assert.equal(
      planned('开头。\n', 0, blocks),
      '开头。\n\n第一段。[^1] 〔某条 · KB〕[^2]\n\n> 行一\n\n> 行二\n\n第二段。[^1]\n\n## 参考资料\n\n' +
        `${defA}\n[^2]: 水稻中后期管理.docx#0 — 水稻 (RICE_001)\n`,
    );
  });

  it('a run is written on one line; the first run of a paragraph is escaped as a line start, later ones as text in a line', () => {
    const out = planned('', 0, [{ runs: [run('  ', cite(B)), run('1. 第一\r\n步', cite(A)), run('2. 第二\u2028步')] }]);
    assert.equal(out.split('\n')[0], '1\\. 第一 步[^1]2. 第二 步');
    assert.ok(!out.includes('水稻中后期管理'), 'a blank run carries no citation');
  });

  it('two passages after one run are cited in the order given; in an empty document, the references follow one blank line', () => {
    assert.equal(
      planned('', 0, [{ runs: [run('句子。', cite(B), cite(A))] }]),
      '句子。[^1][^2]\n\n## 参考资料\n\n' +
        '[^1]: 水稻中后期管理.docx#0 — 水稻 (RICE_001)\n[^2]: 水稻分蘖期管理要点.docx#2 — 水稻 (RICE_001)\n',
    );
  });

  it('in the middle of a bulletin: after the paragraph under the cursor, definitions after the existing ones, the rest untouched', () => {
    const text =
      '第一段。[^1]\n\n第二段。\n\n## 参考资料\n\n[^1]: 水稻中后期管理.docx#0 — 水稻 (RICE\\_001)\n\n尾注。\n';
    const blocks: DraftBlock[] = [
      { runs: [run('甲。', cite(A)), run('乙。', cite(B))] },
      { runs: [run('丙。', cite(A))] },
    ];
    const plan = planDraftInsertion(lib, text, 1, blocks, opts);
    assert.ok(plan.ok);
    assert.equal(plan.offset, '第一段。[^1]'.length);
    assert.deepEqual(plan.passages, [A, B, A]);
    const starts = plan.edits.map((e) => e.start);
    assert.deepEqual(
      starts,
      [...new Set(starts)].sort((x, y) => x - y),
      'one insertion per place, in order',
    );
    assert.equal(
      apply(text, plan.edits),
      '第一段。[^1]\n\n甲。[^2]乙。[^1]\n\n丙。[^2]\n\n第二段。\n\n## 参考资料\n\n' +
        '[^1]: 水稻中后期管理.docx#0 — 水稻 (RICE\\_001)\n[^2]: 水稻分蘖期管理要点.docx#2 — 水稻 (RICE_001)\n\n尾注。\n',
    );
  });

  it('a document with CRLF line breaks gets CRLF line breaks', () => {
    const text = '# 简报\r\n\r\n已有段落。\r\n';
    const out = planned(text, text.indexOf('已有'), [
      { runs: [run('甲。', cite(A))] },
      { runs: [run('乙。', cite(B))] },
    ]);
    assert.equal(
      out,
      '# 简报\r\n\r\n已有段落。\r\n\r\n甲。[^1]\r\n\r\n乙。[^2]\r\n\r\n## 参考资料\r\n\r\n' +
        `${defA}\r\n[^2]: 水稻中后期管理.docx#0 — 水稻 (RICE_001)\r\n`,
    );
  });

  it('a cursor where no snippet can go, or a passage that cannot be cited, fails the whole plan: nothing to apply', () => {
    const code = '```\ncode\n```\n';
    const inCode = planDraftInsertion(lib, code, 5, [{ runs: [run('甲。', cite(A))] }], opts);
    assert.deepEqual(inCode, lib.insertCitation(code, 5, sourceOf(A), opts));
    assert.equal(inCode.ok || inCode.error, 'in-code');
    const bad = planDraftInsertion(
      lib,
      '段落。\n',
      0,
      [{ runs: [run('甲。', cite(A), cite({ ...A, docName: '' }))] }],
      opts,
    );
    assert.equal(bad.ok || bad.error, 'invalid-source');
  });
});

describe("draft: insertions kept in the original text's coordinates", () => {
  it('each is given where it goes in the text as it reads by then; applied at once, the edits give that text', () => {
    const original = 'abcdef';
    const log = new InsertionLog();
    let now = original;
    const insert = (pos: number, text: string): void => {
      log.insert(pos, text);
      now = now.slice(0, pos) + text + now.slice(pos);
    };
    insert(4, 'X'); // abcdXef
    insert(1, 'YY'); // aYYbcdXef: before an earlier insertion
    insert(6, 'Z'); // aYYbcdZXef: at an earlier insertion's start, which it joins, before its text
    insert(3, 'W'); // aYYWbcdZXef: at an earlier insertion's end
    insert(9, 'V'); // aYYWbcdZXVef: between the end of one and the rest
    insert(12, 'U'); // at the very end
    assert.equal(now, 'aYYWbcdZXVefU');
    assert.equal(apply(original, log.edits()), now);
    assert.deepEqual(
      log.edits().map((e) => [e.start, e.end, e.newText]),
      [
        [1, 1, 'YYW'],
        [4, 4, 'ZXV'],
        [6, 6, 'U'],
      ],
    );
  });

  it('an insertion before two earlier ones, apart, lands between the original characters it was given between', () => {
    const log = new InsertionLog();
    log.insert(2, '1'); // ab1cdef
    log.insert(6, '2'); // ab1cde2f
    log.insert(4, '3'); // ab1c3de2f: between the two
    assert.equal(apply('abcdef', log.edits()), 'ab1c3de2f');
  });
});
