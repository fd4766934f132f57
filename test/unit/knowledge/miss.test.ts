import assert from 'node:assert/strict';
import fc from 'fast-check';
import { describeMiss, missOffers, parseMissText, thresholdUnder, type MissOffer } from '../../../src/knowledge/miss';
import { loadVocabulary } from '../../../src/knowledge/vocabulary';

const VENDOR_TEXT =
  'Error invoking method: knowledgeSearch\n知识库未命中相关片段(候选: 向量 32 条 / 全文 0 条); score_threshold=0.7 过滤掉全部 32 条候选(最高分 0.6385), 可降低阈值或传 0 关闭过滤。可改用更具体的关键词或同义词重试, 或适当降低 score_threshold; 在获得命中内容前不要编造引用';
const MISS = { vectorCandidates: 32, fulltextCandidates: 0, threshold: 0.7, filtered: 32, bestScore: 0.6385 };
const ARGS = { query: '茶树 驻芽期 修剪', kbCode: 'TEA_MANAGER_001', topK: 5 };

describe('knowledge/miss', () => {
  describe('parseMissText', () => {
    it('parses the vendor text', () => {
      assert.deepEqual(parseMissText(VENDOR_TEXT), MISS);
    });

    it('tolerates full-width punctuation, spacing and missing parts', () => {
      assert.deepEqual(
        parseMissText(
          '知识库未命中相关片段（候选：向量32条/全文 2 条）；scoreThreshold = 0.85 过滤掉 30 条候选（最高分：0.81）',
        ),
        {
          vectorCandidates: 32,
          fulltextCandidates: 2,
          threshold: 0.85,
          filtered: 30,
          bestScore: 0.81,
        },
      );
      assert.deepEqual(
        parseMissText('Error invoking method: knowledgeSearch\n知识库未命中相关片段(候选: 向量 0 条 / 全文 0 条)'),
        {
          vectorCandidates: 0,
          fulltextCandidates: 0,
          threshold: null,
          filtered: null,
          bestScore: null,
        },
      );
    });

    it('returns undefined for other failures', () => {
      assert.equal(parseMissText('Error invoking method: knowledgeSearch\n参数 query 不能为空'), undefined);
      assert.equal(parseMissText(''), undefined);
    });

    it('property: never throws on any text', () => {
      fc.assert(fc.property(fc.string(), (s) => void parseMissText('未命中' + s)));
    });
  });

  describe('describeMiss', () => {
    it('shows the counts, the threshold, the best score and that nothing is inserted', () => {
      assert.deepEqual(describeMiss(MISS), [
        { key: 'miss.title', args: [] },
        { key: 'miss.candidates', args: [32, 0] },
        { key: 'miss.filtered', args: ['0.7', 32, '0.6385'] },
        { key: 'miss.noInvention', args: [] },
      ]);
      assert.deepEqual(
        describeMiss({ vectorCandidates: 0, fulltextCandidates: 0 }).map((m) => m.key),
        ['miss.title', 'miss.candidates', 'miss.noCandidates', 'miss.noInvention'],
      );
    });
  });

  describe('missOffers', () => {
    const lowerOf = (offers: readonly MissOffer[]): MissOffer | undefined =>
      offers.find((o) => o.id === 'lower-threshold');

    it('puts first the offers that keep the threshold: refine, then all knowledge bases; lowering it last', () => {
      const ids = missOffers({ ...MISS, bestScore: 0.52 }, ARGS).map((o) => o.id);
      assert.deepEqual(ids, ['refine', 'all-knowledge-bases', 'lower-threshold']);
      assert.deepEqual(
        missOffers({ ...MISS, bestScore: null }, ARGS).map((o) => o.id),
        ['refine', 'all-knowledge-bases', 'disable-threshold'],
      );
    });

    it('offers a threshold just under the best score, guided refinement and all knowledge bases', () => {
      const offers = missOffers(MISS, ARGS);
      assert.deepEqual(
        offers.map((o) => o.id),
        ['refine', 'all-knowledge-bases', 'lower-threshold'],
      );
      const [refine, all, lower] = offers;
      assert.deepEqual(lower?.args, { ...ARGS, scoreThreshold: 0.62 });
      assert.deepEqual(lower?.change, { kind: 'scoreThreshold', value: 0.62 });
      assert.deepEqual(lower?.message, { key: 'offer.lowerThreshold', args: ['0.62', '0.6385'] });
      assert.equal(lower?.warning, undefined);
      assert.equal(lower?.requiresConfirmation, false);
      assert.deepEqual(refine?.change, {
        kind: 'guided',
        prefill: { crop: 'tea', stage: 'dormant-bud', task: 'pruning' },
      });
      assert.deepEqual(all?.args, { query: ARGS.query, topK: 5 });
      assert.ok(!('kbCode' in (all?.args ?? {})));
      assert.deepEqual(all?.change, { kind: 'dropKbCode', kbCode: 'TEA_MANAGER_001' });
    });

    it("accepts a miss whose unknown fields are undefined (the platform layer's typed error)", () => {
      const typed: {
        readonly vectorCandidates: number | undefined;
        readonly fulltextCandidates: number | undefined;
        readonly threshold: number | undefined;
        readonly filtered: number | undefined;
        readonly bestScore: number | undefined;
      } = { vectorCandidates: 32, fulltextCandidates: undefined, threshold: 0.7, filtered: 32, bestScore: 0.6385 };
      assert.equal(lowerOf(missOffers(typed, ARGS))?.args.scoreThreshold, 0.62);
      assert.deepEqual(
        describeMiss(typed).map((m) => m.key),
        ['miss.title', 'miss.filtered', 'miss.noInvention'],
      );
    });

    it('offers all knowledge bases only when a kbCode was used; without one, the lower threshold and refinement', () => {
      for (const args of [{ query: 'x' }, { query: 'x', kbCode: ' ' }]) {
        const offers = missOffers(MISS, args);
        assert.deepEqual(
          offers.map((o) => o.id),
          ['refine', 'lower-threshold'],
        );
        const [refine, lower] = offers;
        assert.deepEqual(lower?.args, { ...args, scoreThreshold: 0.62 });
        assert.deepEqual(lower?.message, { key: 'offer.lowerThreshold', args: ['0.62', '0.6385'] });
        assert.equal(lower?.requiresConfirmation, false);
        assert.deepEqual(refine?.args, args);
        assert.deepEqual(refine?.change, { kind: 'guided', prefill: {} });
        assert.deepEqual(refine?.message, { key: 'offer.refine', args: [] });
      }
    });

    it('flags low scores as noise and asks before using them', () => {
      const lower = lowerOf(missOffers({ ...MISS, bestScore: 0.31 }, ARGS));
      assert.equal(lower?.id, 'lower-threshold');
      assert.equal(lower?.args.scoreThreshold, 0.3);
      assert.deepEqual(lower?.warning, { key: 'offer.warning.noise', args: ['0.5'] });
      assert.equal(lower?.requiresConfirmation, true);
      assert.equal(
        lowerOf(missOffers({ ...MISS, bestScore: 0.55 }, ARGS, { noiseBelow: 0.6 }))?.requiresConfirmation,
        true,
      );
    });

    it('never offers 0 silently: tiny best scores use finer steps, else an explicit, confirmed "threshold off"', () => {
      assert.equal(lowerOf(missOffers({ ...MISS, bestScore: 0.015 }, ARGS))?.args.scoreThreshold, 0.014);
      for (const bestScore of [0.00005, null]) {
        const offers = missOffers({ ...MISS, bestScore }, ARGS);
        assert.deepEqual(
          offers.map((o) => o.id),
          ['refine', 'all-knowledge-bases', 'disable-threshold'],
        );
        const off = offers.find((o) => o.id === 'disable-threshold');
        assert.equal(off?.args.scoreThreshold, 0);
        assert.equal(off?.requiresConfirmation, true);
        assert.equal(off?.warning?.key, 'offer.warning.thresholdOff');
      }
    });

    it('offers no threshold change when there was nothing to filter, or the threshold was already off', () => {
      const none = missOffers(
        { vectorCandidates: 0, fulltextCandidates: 0, threshold: null, filtered: null, bestScore: null },
        ARGS,
      );
      assert.deepEqual(
        none.map((o) => o.id),
        ['refine', 'all-knowledge-bases'],
      );
      const off = missOffers({ ...MISS, threshold: 0 }, { ...ARGS, scoreThreshold: 0 });
      assert.deepEqual(
        off.map((o) => o.id),
        ['refine', 'all-knowledge-bases'],
      );
    });

    it('uses the threshold of the failed search when the text lacks it, and never offers a higher one', () => {
      const offers = missOffers({ bestScore: 0.86 }, { query: 'q', scoreThreshold: 0.8 });
      assert.deepEqual(
        offers.map((o) => o.id),
        ['refine', 'disable-threshold'],
      );
      assert.equal(lowerOf(missOffers({ bestScore: 0.6385 }, { query: 'q' }))?.args.scoreThreshold, 0.62);
    });

    it('property: a retry threshold is positive, below the best score and the one used, with 2–4 decimals', () => {
      fc.assert(
        fc.property(
          fc.double({ min: 0, max: 1, noNaN: true }),
          fc.double({ min: 0.01, max: 1, noNaN: true }),
          (best, used) => {
            for (const o of missOffers(
              { vectorCandidates: 5, bestScore: best, threshold: used, filtered: 5 },
              { query: 'q' },
            )) {
              const t = o.args.scoreThreshold;
              if (o.id === 'lower-threshold') {
                assert.ok(t !== undefined && t > 0 && t < best && t < used, `${t} ${best} ${used}`);
                assert.ok(/^0\.\d{1,4}$/.test(String(t)), String(t));
                assert.equal(o.requiresConfirmation, t < 0.5);
              }
              if (t === 0) assert.equal(o.requiresConfirmation, true);
            }
          },
        ),
      );
    });
  });

  describe('the rules each offer follows', () => {
    const lowerOf = (offers: readonly MissOffer[]): MissOffer | undefined =>
      offers.find((o) => o.id === 'lower-threshold');
    const ids = (miss: Parameters<typeof missOffers>[0], args: Parameters<typeof missOffers>[1] = ARGS): string[] =>
      missOffers(miss, args).map((o) => o.id);

    it('"no candidate at all" is said only when neither retriever had one', () => {
      assert.ok(
        !describeMiss({ vectorCandidates: 0, fulltextCandidates: 3 }).some((m) => m.key === 'miss.noCandidates'),
      );
      assert.ok(
        !describeMiss({ vectorCandidates: 3, fulltextCandidates: 0 }).some((m) => m.key === 'miss.noCandidates'),
      );
    });

    it('refining and searching every base run without a question', () => {
      for (const o of missOffers(MISS, ARGS).filter((x) => x.id === 'refine' || x.id === 'all-knowledge-bases'))
        assert.equal(o.requiresConfirmation, false, o.id);
    });

    it("the threshold that filtered is the platform's when it says one, over the one the search passed", () => {
      const miss = { vectorCandidates: 5, fulltextCandidates: 0, threshold: 0.7, filtered: 5, bestScore: 0.6 };
      assert.equal(
        lowerOf(missOffers(miss, { query: 'q', scoreThreshold: 0.5 }))?.args.scoreThreshold,
        0.59,
        '0.59 is under the 0.7 that filtered',
      );
    });

    it('candidates of either retriever that the threshold filtered allow a threshold change; none at all does not', () => {
      assert.ok(
        ids({ vectorCandidates: 0, fulltextCandidates: 2, filtered: 2, threshold: 0.7, bestScore: 0.5 }).includes(
          'lower-threshold',
        ),
      );
      assert.ok(
        ids({ vectorCandidates: 5, fulltextCandidates: 0, threshold: 0.7, bestScore: 0.5 }).includes('lower-threshold'),
        'vector candidates, the filtered count not said',
      );
      assert.deepEqual(
        ids({ vectorCandidates: 0, fulltextCandidates: 0, filtered: 0, threshold: 0.7, bestScore: 0.5 }),
        ['refine', 'all-knowledge-bases'],
      );
    });

    it('a retry threshold equal to the one that filtered is not offered; one exactly at the noise line is not noisy', () => {
      assert.deepEqual(ids({ ...MISS, bestScore: 0.71 }), ['refine', 'all-knowledge-bases', 'disable-threshold']);
      const atLine = lowerOf(missOffers({ ...MISS, bestScore: 0.51 }, ARGS));
      assert.equal(atLine?.args.scoreThreshold, 0.5);
      assert.equal(atLine?.requiresConfirmation, false);
      assert.equal(atLine?.warning, undefined);
    });

    it("the query is read with the author's vocabulary when given", () => {
      const vocabulary = loadVocabulary({ crops: [{ id: 'hops', 'zh-CN': '啤酒花', en: 'hops' }] }).vocabulary;
      const refine = missOffers(MISS, { query: '啤酒花 修剪' }, { vocabulary }).find((o) => o.id === 'refine');
      assert.deepEqual(refine?.change, { kind: 'guided', prefill: { crop: 'hops', task: 'pruning' } });
    });
  });

  it('thresholdUnder floors to 2 decimals minus 0.01, exactly', () => {
    assert.equal(thresholdUnder(0.6385), 0.62);
    assert.equal(thresholdUnder(0.57), 0.56);
    assert.equal(thresholdUnder(0.63), 0.62);
    assert.equal(thresholdUnder(1), 0.99);
    assert.equal(thresholdUnder(0.01), 0.009);
    assert.equal(thresholdUnder(0.0002), 0.0001);
    assert.equal(thresholdUnder(0.0001), undefined);
    assert.equal(thresholdUnder(Number.POSITIVE_INFINITY), undefined);
    assert.equal(thresholdUnder(0), undefined);
    assert.equal(thresholdUnder(-1), undefined);
    assert.equal(thresholdUnder(Number.NaN), undefined);
  });
});
