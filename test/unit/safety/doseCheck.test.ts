/**
 * The dose check of a bulletin against the passages it cites: each code on a sentence written for
 * it, the arithmetic of the reference's example, what is not checked, and the silencing comment.
 */
import assert from 'node:assert/strict';
import { checkDoses, DoseChecker, type DoseFinding } from '../../../src/safety/doseCheck';
import { doseMessage } from '../../../src/safety/doseMessage';
import { shippedRules } from '../../../src/safety/ruleSet';

const PASSAGES: Record<string, string> = {
  '水稻病虫防控技术#3':
    '防治稻纵卷叶螟，每亩用20%氯虫苯甲酰胺悬浮剂10-15毫升，兑水30公斤喷雾；防治二化螟，每亩用20%氯虫苯甲酰胺悬浮剂5-10毫升。安全间隔期7天，每季最多使用2次。',
  '蔬菜蚜虫绿色防控#1': '0.5%苦参碱水剂1000倍液喷雾，隔7天再喷1次。',
  '小麦赤霉病防治#0': '每亩用48%氰烯·戊唑醇悬浮剂40-60毫升，或有效成分用量每亩8-10克的戊唑醇，兑水15公斤喷雾。',
};

const DEFS = `
## 参考资料

[^1]: 水稻病虫防控技术#3 — 水稻 (RICE_001)
[^2]: 蔬菜蚜虫绿色防控#1 — 蔬菜 (VEG_001)
[^3]: 小麦赤霉病防治#0 — 小麦 (WHEAT_001)
[^9]: 作者自己的笔记
`;

function check(body: string, lookup: Record<string, string> = PASSAGES): DoseFinding[] {
  return checkDoses(`# 通知\n\n${body}\n${DEFS}`, {
    rules: shippedRules(),
    lookup: (c) => (lookup[c] !== undefined ? { text: lookup[c]! } : undefined),
    date: '2026-07-01',
  });
}

const codes = (body: string, lookup?: Record<string, string>): string[] =>
  check(body, lookup)
    .filter((f) => !f.silenced)
    .map((f) => f.code);

describe('dose check: against the cited passage', () => {
  it('agrees with a dose inside the passage range, for the pest the sentence names', () => {
    assert.deepEqual(codes('防治稻纵卷叶螟，每亩用20%氯虫苯甲酰胺悬浮剂12毫升，兑水30公斤喷雾[^1]。'), []);
    assert.deepEqual(codes('防治二化螟，每亩用20%氯虫苯甲酰胺悬浮剂8毫升[^1]。'), []);
  });

  it('finds a dose that widens or leaves the range, for that pest', () => {
    assert.deepEqual(codes('防治稻纵卷叶螟，每亩用20%氯虫苯甲酰胺悬浮剂10-20毫升[^1]。'), ['dose-mismatch']);
    assert.deepEqual(codes('防治稻纵卷叶螟，每亩用20%氯虫苯甲酰胺悬浮剂6毫升[^1]。'), ['dose-mismatch']);
  });

  it('converts 公顷 to 亩 before comparing, and says the passage value in the sentence units', () => {
    assert.deepEqual(codes('防治稻纵卷叶螟，每公顷用20%氯虫苯甲酰胺悬浮剂150-225毫升[^1]。'), []);
    const [f] = check('防治稻纵卷叶螟，每公顷用20%氯虫苯甲酰胺悬浮剂300毫升[^1]。');
    assert.equal(f?.passage?.value, '150-225');
    assert.match(doseMessage(f!, 'en'), /150-225毫升/);
  });

  it('finds active ingredient read as product, and agrees where the concentration converts it', () => {
    assert.deepEqual(codes('防治稻纵卷叶螟，每亩用20%氯虫苯甲酰胺悬浮剂有效成分2-3克[^1]。'), []);
    assert.deepEqual(codes('防治稻纵卷叶螟，每亩用20%氯虫苯甲酰胺悬浮剂有效成分10-15克[^1]。'), ['dose-mismatch']);
  });

  it('finds a concentration or formulation the passage does not give', () => {
    assert.deepEqual(codes('防治稻纵卷叶螟，每亩用5%氯虫苯甲酰胺悬浮剂10毫升[^1]。'), ['dose-mismatch']);
    assert.deepEqual(codes('防治稻纵卷叶螟，每亩用20%氯虫苯甲酰胺乳油10毫升[^1]。'), ['dose-mismatch']);
  });

  it('compares the 安全间隔期, the uses per season and the interval', () => {
    assert.deepEqual(codes('- 氯虫苯甲酰胺安全间隔期5天，每季最多使用3次[^1]'), ['dose-mismatch', 'dose-mismatch']);
    assert.deepEqual(codes('- 用0.5%苦参碱水剂1000倍液喷雾，隔10天再喷1次[^2]'), ['dose-mismatch']);
  });

  it('says where the passage gives no dose for an ingredient, or none of that kind', () => {
    assert.deepEqual(codes('每亩用70%吡虫啉水分散粒剂4克喷雾[^2]。'), ['dose-unsupported']);
    assert.deepEqual(codes('用0.5%苦参碱水剂1000倍液喷雾，安全间隔期10天[^2]。'), ['dose-unsupported']);
    assert.match(doseMessage(check('每亩用70%吡虫啉水分散粒剂4克喷雾[^2]。')[0]!, 'zh'), /吡虫啉/);
  });

  it('does not compare facts of different kinds: a 倍液 against a rate with no water', () => {
    assert.deepEqual(codes('用20%氯虫苯甲酰胺悬浮剂3000倍液喷雾防治二化螟[^1]。'), []);
  });

  it('compares a 倍液 with the dilution a rate and water spell out, within 10 %', () => {
    assert.deepEqual(codes('防治稻纵卷叶螟，用20%氯虫苯甲酰胺悬浮剂2500倍液喷雾[^1]。'), []);
    assert.deepEqual(codes('防治稻纵卷叶螟，用20%氯虫苯甲酰胺悬浮剂1000倍液喷雾[^1]。'), ['dose-mismatch']);
  });

  it('reads mixtures and their abbreviations as one product', () => {
    assert.deepEqual(codes('每亩用48%氰烯·戊唑醇悬浮剂50毫升〔小麦赤霉病防治#0〕。'), []);
    assert.deepEqual(codes('每亩用48%氰烯·戊唑醇悬浮剂80毫升〔小麦赤霉病防治#0〕。'), ['dose-mismatch']);
  });
});

describe('dose check: arithmetic, sources and what is not checked', () => {
  it('finds the reference example: 1500倍液（即20毫升兑水22.5千克） is 1,125×', () => {
    const f = check('用0.5%苦参碱水剂1500倍液喷雾（即20毫升兑水22.5千克）。').find((x) => x.code === 'dose-arithmetic');
    assert.equal(f?.arithmetic?.spelled, '1125');
    assert.deepEqual(codes('用0.5%苦参碱水剂800倍液喷雾（即20毫升兑水16千克）[^2]。'), ['dose-mismatch']);
    assert.ok(!codes('用0.5%苦参碱水剂800倍液喷雾（即20毫升兑水16千克）。').includes('dose-arithmetic'));
    assert.deepEqual(codes('每亩用0.5%苦参碱水剂30毫升，兑水30公斤，即1000倍液[^2]。'), []);
  });

  it('asks for a source where a dose is recommended without one, never where a prohibition names it', () => {
    assert.deepEqual(codes('每亩用70%吡虫啉水分散粒剂4克喷雾。'), ['source-needed']);
    assert.deepEqual(codes('严禁使用40%氧乐果乳油1000倍液喷雾。'), []);
    assert.deepEqual(codes('每亩用70%吡虫啉水分散粒剂4克喷雾[^9]。'), [], "the author's own footnote");
    assert.deepEqual(codes('每亩用70%吡虫啉水分散粒剂4克喷雾〔吡虫啉使用技术 · VEG_001〕。'), [], 'a draft citation');
  });

  it('says when the passage compared is the platform’s current text, which differs from the one cited', () => {
    const [f] = checkDoses(`防治稻纵卷叶螟，每亩用20%氯虫苯甲酰胺悬浮剂30毫升[^1]。\n${DEFS}`, {
      rules: shippedRules(),
      lookup: (c) => (PASSAGES[c] !== undefined ? { text: PASSAGES[c]!, changed: true } : undefined),
      date: '2026-07-01',
    });
    assert.equal(f?.changed, true);
    assert.match(doseMessage(f!, 'en'), /the platform's current text/);
    assert.match(doseMessage(f!, 'zh'), /现行文本/);
  });

  it('says a passage is not at hand, never guesses', () => {
    assert.deepEqual(codes('防治稻纵卷叶螟，每亩用20%氯虫苯甲酰胺悬浮剂40毫升[^1]。', {}), ['passage-not-at-hand']);
  });

  it('takes a list item’s citation for each of its sentences, and a table row’s', () => {
    assert.deepEqual(
      codes(
        '| 防治对象 | 药剂 | 亩用量（毫升） | 出处 |\n| --- | --- | --- | --- |\n| 稻纵卷叶螟 | 20%氯虫苯甲酰胺悬浮剂 | 10-15 | [^1] |\n| 二化螟 | 20%氯虫苯甲酰胺悬浮剂 | 15 | [^1] |',
      ),
      ['dose-mismatch'],
    );
  });

  it('is silenced by the safety lint’s comment', () => {
    const fs = check(
      '<!-- shunong-disable-next-line dose-mismatch -->\n防治稻纵卷叶螟，每亩用20%氯虫苯甲酰胺悬浮剂30毫升[^1]。',
    );
    assert.deepEqual(
      fs.map((f) => [f.code, f.silenced ?? false]),
      [['dose-mismatch', true]],
    );
  });
});

describe('dose check: as the bulletin is edited', () => {
  const options = (lookup: Record<string, string>) => ({
    rules: shippedRules(),
    lookup: (c: string) => (lookup[c] !== undefined ? { text: lookup[c]! } : undefined),
    date: '2026-07-01',
  });
  const body = [
    '防治稻纵卷叶螟，每亩用20%氯虫苯甲酰胺悬浮剂30毫升[^1]。',
    '',
    '- 用0.5%苦参碱水剂1000倍液喷雾[^2]',
    '',
    '每亩用70%吡虫啉水分散粒剂4克喷雾。',
    DEFS,
  ].join('\n');

  it('finds after each edit what a fresh check finds: a keystroke, an edited definition, a passage arriving', () => {
    const checker = new DoseChecker();
    const strip = (fs: DoseFinding[]) => JSON.stringify(fs);
    const steps: Array<[string, Record<string, string>]> = [
      [body, {}],
      [body, PASSAGES],
      [body.replace('30毫升', '12毫升'), PASSAGES],
      [`# 标题\n\n${body.replace('30毫升', '12毫升')}`, PASSAGES],
      [body.replace('[^1]: 水稻病虫防控技术#3', '[^1]: 蔬菜蚜虫绿色防控#1'), PASSAGES],
      [body.replace('1000倍液', '3000倍液'), PASSAGES],
    ];
    for (const [text, lookup] of steps)
      assert.equal(strip(checker.check(text, options(lookup))), strip(checkDoses(text, options(lookup))), text);
  });
});

describe('dose check: where a finding is, and what it cites', () => {
  const DEFS2 = `\n## 参考资料\n\n[^1]: 水稻病虫防控技术#3 — 水稻 (RICE_001)\n[^12]: 蔬菜蚜虫绿色防控#1 — 蔬菜 (VEG_001)\n[^12]: 小麦赤霉病防治#0 — 小麦 (WHEAT_001)\n`;
  const run = (body: string, defs = DEFS2, lookup = PASSAGES): DoseFinding[] =>
    checkDoses(`# 通知\n\n${body}\n${defs}`, {
      rules: shippedRules(),
      lookup: (c) => (lookup[c] !== undefined ? { text: lookup[c]! } : undefined),
      date: '2026-07-01',
    });
  const MISMATCH = '防治稻纵卷叶螟，每亩用20%氯虫苯甲酰胺悬浮剂30毫升';

  it('counts a citation written right after a sentence’s end in that sentence, several of them too, in document order', () => {
    assert.deepEqual(
      run(`${MISMATCH}。[^1]`).map((f) => [f.code, f.citations]),
      [['dose-mismatch', ['水稻病虫防控技术#3']]],
    );
    // a label of several characters, its first definition; 〔…〕 and [^n] in the order written
    assert.deepEqual(
      run(`${MISMATCH}。 〔蔬菜蚜虫绿色防控#1〕[^1]`).map((f) => f.citations),
      [['蔬菜蚜虫绿色防控#1', '水稻病虫防控技术#3']],
    );
    assert.deepEqual(
      run(`${MISMATCH}。 [^12][^1]`).map((f) => f.citations),
      [['蔬菜蚜虫绿色防控#1', '水稻病虫防控技术#3']],
    );
    // a line ends its sentence without taking the next line's citation
    assert.deepEqual(
      run(`${MISMATCH}\n[^1]是出处`).map((f) => f.code),
      ['source-needed'],
    );
  });

  it('reads definitions written with CRLF line ends', () => {
    assert.deepEqual(
      run(`${MISMATCH}[^1]。`, DEFS2.replaceAll('\n', '\r\n')).map((f) => f.code),
      ['dose-mismatch'],
    );
  });

  it('gives each finding its line and character, and the findings in document order', () => {
    const fs = run('每亩用5%苦参碱水剂50毫升，兑水30公斤，1000倍液[^12]。');
    assert.deepEqual(
      fs.map((f) => [f.code, f.line, f.character, f.written]),
      [
        ['dose-mismatch', 2, 3, '5%苦参碱水剂'],
        ['dose-arithmetic', 2, 22, '1000'],
      ],
    );
    assert.deepEqual(fs[1]?.arithmetic, { written: '1000', spelled: '600' });
    assert.deepEqual([fs[1]?.kind, fs[1]?.citations], ['dilution', []]);
    const [last] = run(`\n\n\n${MISMATCH}[^1]。`);
    assert.deepEqual([last?.line, last?.character], [5, 23]);
  });

  it('puts the passage’s value in place of the sentence’s own number, wherever its block is', () => {
    const body = `第一段没有剂量。\n\n${MISMATCH}[^1]。`;
    const markdown = `# 通知\n\n${body}\n${DEFS2}`;
    const [f] = checkDoses(markdown, {
      rules: shippedRules(),
      lookup: (c) => (PASSAGES[c] !== undefined ? { text: PASSAGES[c]! } : undefined),
      date: '2026-07-01',
    });
    assert.equal(markdown.slice(f!.passage!.replace!.start, f!.passage!.replace!.end), '30');
  });

  it('checks a list item’s sentences against its citation, and asks for a source after its marker', () => {
    assert.deepEqual(
      run(`- ${MISMATCH}。安全间隔期5天[^1]`).map((f) => [f.code, f.kind, f.sentence]),
      [
        ['dose-mismatch', 'rate', `- ${MISMATCH}。`],
        ['dose-mismatch', 'phi', '安全间隔期5天[^1]'],
      ],
    );
    assert.deepEqual(
      run(`10) ${MISMATCH}。安全间隔期5天[^1]`).map((f) => f.kind),
      ['rate', 'phi'],
    );
    // not a list item: the first sentence cites nothing
    assert.deepEqual(
      run(`-${MISMATCH}。安全间隔期5天[^1]`).map((f) => f.code),
      ['source-needed', 'dose-mismatch'],
    );
    for (const marker of ['- ', '  * ', '12) ', '3. ']) {
      const [f] = run(`${marker}每亩用70%吡虫啉水分散粒剂4克喷雾。  `);
      assert.equal(f?.code, 'source-needed', marker);
      assert.equal(f.character, marker.length, marker);
      assert.equal(f.sentence, '每亩用70%吡虫啉水分散粒剂4克喷雾。'.replace(/^/, marker).trim(), marker);
    }
  });

  it('checks each sentence of a paragraph against its own citation, and none in a heading', () => {
    assert.deepEqual(
      run(`${MISMATCH}[^1]。 每亩用70%吡虫啉水分散粒剂4克喷雾。`).map((f) => [f.code, f.sentence]),
      [
        ['dose-mismatch', `${MISMATCH}[^1]。`],
        ['source-needed', '每亩用70%吡虫啉水分散粒剂4克喷雾。'],
      ],
    );
    assert.deepEqual(run(`## ${MISMATCH}[^1]`), []);
  });

  it('says a passage is not at hand on the sentence’s first fact, with the sentence', () => {
    const [f] = run(` ${MISMATCH}[^1]。`, DEFS2, {});
    assert.deepEqual(
      [f?.code, f?.citations, f?.sentence, f?.written],
      ['passage-not-at-hand', ['水稻病虫防控技术#3'], `${MISMATCH}[^1]。`, undefined],
    );
  });

  it('says the passage is the platform’s current text when any passage compared is', () => {
    const [f] = checkDoses(`${MISMATCH}[^1][^12]。\n${DEFS2}`, {
      rules: shippedRules(),
      lookup: (c) =>
        PASSAGES[c] !== undefined ? { text: PASSAGES[c]!, changed: c === '水稻病虫防控技术#3' } : undefined,
      date: '2026-07-01',
    });
    assert.equal(f?.changed, true);
  });

  it('asks for a source only where a sentence recommends a product with a rate or a dilution', () => {
    assert.deepEqual(run('20%氯虫苯甲酰胺悬浮剂安全间隔期7天，每季最多使用2次。'), []);
    assert.deepEqual(run('每亩用药30毫升，兑水30公斤。'), []);
    assert.deepEqual(run('用0.5%苦参碱水剂1000倍液喷雾。'), [run('用0.5%苦参碱水剂1000倍液喷雾。')[0]]);
    assert.equal(run('用0.5%苦参碱水剂1000倍液喷雾。')[0]?.code, 'source-needed');
    // the products of another sentence of the block are not this one's
    assert.deepEqual(
      run('严禁使用40%氧乐果乳油。每亩用药30毫升喷雾。').map((f) => f.code),
      [],
    );
    assert.deepEqual(
      run('防治蚜虫效果好。每亩用70%吡虫啉水分散粒剂4克喷雾。').map((f) => [f.code, f.sentence]),
      [['source-needed', '每亩用70%吡虫啉水分散粒剂4克喷雾。']],
    );
  });
});

describe('dose check: reading passages and placing findings', () => {
  it('looks each cited passage up once in a check, however many sentences cite it', () => {
    const asked: string[] = [];
    checkDoses(
      `防治稻纵卷叶螟，每亩用20%氯虫苯甲酰胺悬浮剂30毫升[^1]。防治二化螟，每亩用20%氯虫苯甲酰胺悬浮剂8毫升[^1]。\n${DEFS}`,
      {
        rules: shippedRules(),
        lookup: (c) => {
          asked.push(c);
          return PASSAGES[c] !== undefined ? { text: PASSAGES[c]! } : undefined;
        },
        date: '2026-07-01',
      },
    );
    assert.deepEqual(asked, ['水稻病虫防控技术#3']);
  });

  it('places a finding on the last line of the text', () => {
    const [f] = checkDoses(`${DEFS}\n\n每亩用70%吡虫啉水分散粒剂4克喷雾。`, {
      rules: shippedRules(),
      lookup: () => undefined,
      date: '2026-07-01',
    });
    assert.deepEqual([f?.code, f?.line, f?.character], ['source-needed', DEFS.split('\n').length + 1, 0]);
  });
});
