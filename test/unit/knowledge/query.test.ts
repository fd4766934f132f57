import assert from 'node:assert/strict';
import fc from 'fast-check';
import { composeQuery, detectSelection } from '../../../src/knowledge/query';
import { builtinVocabulary, findCrop, findTask, loadVocabulary } from '../../../src/knowledge/vocabulary';

describe('knowledge/query', () => {
  describe('composeQuery', () => {
    it('composes crop + stage + task + words in Chinese, with the implied kbCode', () => {
      const q = composeQuery({ crop: 'tea', stage: '驻芽期', task: 'pruning', words: '要点' });
      assert.equal(q.query, '茶树 驻芽期 修剪 要点');
      assert.equal(q.kbCode, 'TEA_MANAGER_001');
      assert.equal(q.kbName, '茶树管理');
      assert.equal(q.crop?.id, 'tea');
      assert.equal(q.stage?.id, 'dormant-bud');
      assert.equal(q.task?.id, 'pruning');
    });

    it('uses the zh-CN term whichever name was given (id, en label, alias, entry object)', () => {
      const v = builtinVocabulary();
      assert.equal(
        composeQuery({ crop: 'Rice', stage: 'tillering', task: 'irrigation' }).query,
        '水稻 分蘖期 水分管理',
      );
      assert.equal(composeQuery({ crop: 'maize', task: '追肥' }).query, '玉米 施肥');
      const wheat = findCrop(v, 'wheat');
      const frost = findTask(v, 'frost-protection');
      assert.ok(wheat && frost);
      const q = composeQuery({ crop: wheat, stage: 'overwintering', task: frost });
      assert.equal(q.query, '小麦 越冬期 防冻');
      assert.equal(q.kbCode, 'WHEAT_001');
    });

    it('resolves a stage within the chosen crop (same id, different crops)', () => {
      assert.equal(composeQuery({ crop: 'corn', stage: 'grain-filling' }).query, '玉米 灌浆期');
      assert.equal(composeQuery({ crop: 'rice', stage: 'grain-filling' }).query, '水稻 灌浆结实');
    });

    it('skips skipped steps; unknown names are used as typed; no kbCode without a known crop', () => {
      assert.deepEqual(composeQuery({}), { query: '' });
      assert.deepEqual(composeQuery({ words: '  茶树   修剪 技术要点 ' }), { query: '茶树 修剪 技术要点' });
      const q = composeQuery({ crop: '  油菜 ', task: 'weeding' });
      assert.equal(q.query, '油菜 除草');
      assert.equal(q.kbCode, undefined);
      assert.equal(q.crop, undefined);
      assert.equal(composeQuery({ stage: '抽穗期' }).query, '抽穗期');
    });

    it('a name not in the vocabulary is used as typed, its spaces collapsed; the words likewise', () => {
      assert.equal(composeQuery({ crop: '  高  粱 ', words: '  要点   方法 ' }).query, '高 粱 要点 方法');
    });

    it('drops words repeating an earlier term', () => {
      assert.equal(
        composeQuery({ crop: 'tea', task: 'pruning', words: '茶树 修剪 时间 时间' }).query,
        '茶树 修剪 时间',
      );
    });

    it('uses the user vocabulary when given', () => {
      const { vocabulary } = loadVocabulary({ crops: [{ id: 'potato', 'zh-CN': '马铃薯', kbCode: 'POTATO_001' }] });
      const q = composeQuery({ crop: 'potato', task: 'harvest' }, vocabulary);
      assert.equal(q.query, '马铃薯 收获');
      assert.equal(q.kbCode, 'POTATO_001');
    });

    it('property: the query is the non-empty terms in order, single-spaced, without repeats', () => {
      const v = builtinVocabulary();
      const stages = v.crops.flatMap((c) => c.stages.map((s) => [c, s] as const));
      fc.assert(
        fc.property(
          fc.option(fc.constantFrom(...stages), { nil: undefined }),
          fc.option(fc.constantFrom(...v.tasks), { nil: undefined }),
          fc.array(fc.stringMatching(/^[\u4e00-\u9fa5a-z]{1,4}$/), { maxLength: 4 }),
          (cs, task, words) => {
            const q = composeQuery({
              ...(cs ? { crop: cs[0], stage: cs[1] } : {}),
              ...(task ? { task } : {}),
              words: words.join('  '),
            });
            const tokens = q.query === '' ? [] : q.query.split(' ');
            assert.ok(!/\s{2}|^\s|\s$/.test(q.query));
            assert.equal(new Set(tokens).size, tokens.length);
            if (cs) {
              assert.equal(tokens[0], cs[0].labels['zh-CN']);
              assert.equal(q.kbCode, cs[0].kbCode);
            }
            for (const w of words) assert.ok(tokens.includes(w));
          },
        ),
      );
    });
  });

  describe('detectSelection', () => {
    it('finds crop, stage and task in a free-text query, the longest crop name winning', () => {
      const d = detectSelection('茶树修剪技术要点');
      assert.equal(d.crop?.id, 'tea');
      assert.equal(d.task?.id, 'pruning');
      assert.equal(d.kbCode, 'TEA_MANAGER_001');
      assert.equal(detectSelection('玉米大豆带状复合种植 苗期 除草').crop?.id, 'strip-intercropping');
      assert.equal(detectSelection('玉米 大喇叭口期 追肥').stage?.id, 'bell-mouth');
      assert.equal(detectSelection('水稻 分蘖期 水分 管理').stage?.id, 'tillering');
    });

    it('matches ASCII aliases as whole words only', () => {
      assert.equal(detectSelection('soy sauce').crop?.id, 'soybean');
      assert.equal(detectSelection('soya').crop, undefined);
      assert.deepEqual(detectSelection('天气'), { query: '天气' });
    });
    it('the query is the words single-spaced; a crop brings its knowledge base and its name', () => {
      const d = detectSelection('  茶树   修剪\t要点 ');
      assert.equal(d.query, '茶树 修剪 要点');
      const tea = findCrop(builtinVocabulary(), 'tea');
      assert.ok(tea?.kbName);
      assert.equal(d.kbName, tea.kbName);
    });

    it('the longest name wins wherever its entry is listed; at equal lengths, the first listed', () => {
      const only = (crops: unknown[]) => loadVocabulary({ crops }, { crops: [], tasks: [] }).vocabulary;
      const longFirst = only([
        { id: 'long', 'zh-CN': '玉米大豆' },
        { id: 'short', 'zh-CN': '玉米' },
      ]);
      assert.equal(detectSelection('玉米大豆间作', longFirst).crop?.id, 'long');
      const tie = only([
        { id: 'first', 'zh-CN': '甲乙' },
        { id: 'second', 'zh-CN': '乙丙' },
      ]);
      assert.equal(detectSelection('甲乙丙', tie).crop?.id, 'first');
    });

    it('only a name wholly in ASCII must match as a word: mixed-script names match anywhere, punctuation in names is literal', () => {
      const v = loadVocabulary(
        {
          crops: [
            { id: 'mixed', 'zh-CN': '甜菜', aliases: ['菜N'] },
            { id: 'dotted', 'zh-CN': '复合肥田', aliases: ['N.P.K'] },
          ],
        },
        { crops: [], tasks: [] },
      ).vocabulary;
      assert.equal(detectSelection('施菜N2次', v).crop?.id, 'mixed');
      assert.equal(detectSelection('apply N.P.K now', v).crop?.id, 'dotted');
      assert.equal(detectSelection('apply NxPxK now', v).crop, undefined);
    });
  });
});
