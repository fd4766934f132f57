import assert from 'node:assert/strict';
import {
  builtinVocabulary,
  findCrop,
  findStage,
  findTask,
  labelOf,
  loadVocabulary,
  tasksFor,
} from '../../../src/knowledge/vocabulary';

describe('knowledge/vocabulary', () => {
  describe('built-in data', () => {
    const v = builtinVocabulary();

    it('maps the six crops to the knowledge bases of the vendor page', () => {
      const codes = Object.fromEntries(v.crops.map((c) => [c.labels['zh-CN'], c.kbCode]));
      assert.deepEqual(codes, {
        茶树: 'TEA_MANAGER_001',
        水稻: 'RICE_001',
        玉米: 'CORN_001',
        大豆: 'SOYBEAN_001',
        小麦: 'WHEAT_001',
        玉米大豆带状复合种植: 'Strip_Intercropping',
      });
      assert.equal(findCrop(v, 'tea')?.kbName, '茶树管理');
    });

    it('has the decided wheat, tea and rice stages, in order', () => {
      const zh = (crop: string): string[] => (findCrop(v, crop)?.stages ?? []).map((s) => s.labels['zh-CN']);
      assert.deepEqual(zh('wheat'), [
        '出苗期',
        '分蘖期',
        '越冬期',
        '返青期',
        '拔节期',
        '孕穗期',
        '抽穗期',
        '开花期',
        '灌浆期',
        '成熟期',
      ]);
      assert.deepEqual(zh('tea'), ['萌芽期', '一芽一叶期', '一芽二叶期', '驻芽期', '休眠期']);
      assert.deepEqual(zh('rice'), [
        '播种育秧',
        '移栽',
        '返青',
        '分蘖期',
        '拔节孕穗',
        '抽穗扬花',
        '灌浆结实',
        '成熟期',
      ]);
      assert.ok(zh('corn').length >= 5 && zh('soybean').length >= 5);
    });

    it('has the farm tasks, every entry labelled in zh-CN and en with unique ids', () => {
      for (const id of [
        'fertilizing',
        'irrigation',
        'pest-disease',
        'pruning',
        'weeding',
        'sowing',
        'harvest',
        'plucking',
        'frost-protection',
      ]) {
        assert.ok(findTask(v, id), id);
      }
      const entries = [...v.crops, ...v.crops.flatMap((c) => c.stages), ...v.tasks];
      for (const e of entries) {
        assert.ok(e.labels['zh-CN'].trim() !== '' && e.labels.en.trim() !== '', e.id);
        assert.match(e.labels['zh-CN'], /[\u4e00-\u9fff]/, `${e.id} zh-CN label is Chinese`);
      }
      const unique = (ids: string[]): boolean => new Set(ids).size === ids.length;
      assert.ok(unique(v.crops.map((c) => c.id)));
      assert.ok(unique(v.tasks.map((t) => t.id)));
      for (const c of v.crops) assert.ok(unique(c.stages.map((s) => s.id)), c.id);
    });

    it('finds entries by id, label in either language or alias, case-insensitively', () => {
      assert.equal(findCrop(v, '  Rice ')?.id, 'rice');
      assert.equal(findCrop(v, '稻')?.id, 'rice');
      assert.equal(findCrop(v, 'maize')?.id, 'corn');
      assert.equal(findStage(v, '驻芽期', findCrop(v, 'tea'))?.id, 'dormant-bud');
      assert.equal(findStage(v, '驻芽期', findCrop(v, 'wheat')), undefined);
      assert.equal(findStage(v, 'Jointing')?.labels['zh-CN'], '拔节期');
      assert.equal(findTask(v, '灌溉')?.id, 'irrigation');
      assert.equal(findCrop(v, ''), undefined);
    });

    it('offers tea-only tasks only for tea', () => {
      const ids = (crop?: string): string[] => tasksFor(v, crop ? findCrop(v, crop) : undefined).map((t) => t.id);
      assert.ok(ids('tea').includes('pruning') && ids('tea').includes('plucking'));
      assert.ok(!ids('wheat').includes('pruning') && ids('wheat').includes('fertilizing'));
      assert.equal(ids().length, v.tasks.length);
    });

    it('labels by display language', () => {
      const tea = findCrop(v, 'tea');
      assert.ok(tea);
      assert.equal(labelOf(tea, 'zh-cn'), '茶树');
      assert.equal(labelOf(tea, 'en'), 'Tea');
      assert.equal(labelOf(tea, 'fr'), 'Tea');
    });

    it('is frozen, so a caller cannot corrupt the shared copy', () => {
      assert.ok(Object.isFrozen(v.crops) && Object.isFrozen(v.crops[0]?.stages));
    });
  });

  describe('loadVocabulary (user setting)', () => {
    it('returns the built-in vocabulary without warnings for an empty or absent setting', () => {
      for (const setting of [undefined, null, {}]) {
        const { vocabulary, warnings } = loadVocabulary(setting);
        assert.deepEqual(warnings, []);
        assert.deepEqual(vocabulary, builtinVocabulary());
      }
    });

    it('adds crops (with kb and stages), stages to existing crops and tasks', () => {
      const { vocabulary: v, warnings } = loadVocabulary({
        crops: [
          {
            id: 'potato',
            'zh-CN': '马铃薯',
            en: 'Potato',
            aliases: ['土豆'],
            kbCode: 'POTATO_001',
            kbName: '马铃薯',
            stages: [{ 'zh-CN': '块茎膨大期', en: 'Tuber bulking' }],
          },
        ],
        stages: { 小麦: [{ id: 'sowing', 'zh-CN': '播种期', en: 'Sowing' }], tea: [{ 'zh-CN': '秋梢期' }] },
        tasks: [{ id: 'pollination', 'zh-CN': '授粉', en: 'Pollination', crops: ['土豆'] }],
      });
      assert.deepEqual(warnings, []);
      const potato = findCrop(v, '土豆');
      assert.equal(potato?.kbCode, 'POTATO_001');
      assert.deepEqual(
        potato?.stages.map((s) => [s.id, s.labels['zh-CN'], s.labels.en]),
        [['块茎膨大期', '块茎膨大期', 'Tuber bulking']],
      );
      assert.equal(findCrop(v, 'wheat')?.stages.at(-1)?.id, 'sowing');
      // en defaults to the zh-CN label
      assert.equal(findStage(v, '秋梢期', findCrop(v, 'tea'))?.labels.en, '秋梢期');
      assert.deepEqual(findTask(v, '授粉')?.crops, ['potato']);
      assert.equal(builtinVocabulary().crops.length + 1, v.crops.length, 'built-in copy untouched');
      assert.equal(findCrop(builtinVocabulary(), 'potato'), undefined);
    });

    it('extends an existing crop by id or zh-CN label instead of duplicating it', () => {
      const { vocabulary: v, warnings } = loadVocabulary({
        crops: [
          { id: 'tea', 'zh-CN': '茶树', aliases: ['茶苗'], kbCode: 'TEA_OTHER' },
          { 'zh-CN': '水稻', en: 'Paddy rice', stages: [{ 'zh-CN': '晒田' }] },
        ],
      });
      assert.deepEqual(warnings, []);
      assert.equal(v.crops.length, builtinVocabulary().crops.length);
      const tea = findCrop(v, '茶苗');
      assert.equal(tea?.kbCode, 'TEA_OTHER');
      assert.equal(tea?.labels.en, 'Tea', 'en kept when not given');
      assert.equal(tea?.stages.length, 5);
      const rice = findCrop(v, 'rice');
      assert.equal(rice?.labels.en, 'Paddy rice');
      assert.equal(rice?.stages.at(-1)?.labels['zh-CN'], '晒田');
    });

    it('reports invalid parts as warnings, keeping the valid ones, and never throws', () => {
      const { vocabulary: v, warnings } = loadVocabulary({
        crops: [
          { 'zh-CN': '' },
          { id: 'sorghum', 'zh-CN': '高粱', kbCode: 'bad code!', stages: [] },
          { id: 'millet', 'zh-CN': '谷子', stages: [{ 'zh-CN': '拔节期' }, 42] },
          'not an object',
        ],
        stages: { 香蕉: [{ 'zh-CN': '抽蕾期' }], wheat: 'nope' },
        tasks: [{ 'zh-CN': '整形', crops: ['火星作物'] }, { en: 'no zh' }],
        colours: {},
      });
      const paths = warnings.map((w) => w.path);
      assert.deepEqual(paths, [
        'colours',
        'crops[0]',
        'crops[1]',
        'crops[2].stages[1]',
        'crops[3]',
        'stages.香蕉',
        'stages.wheat',
        'tasks[0]',
        'tasks[1]',
      ]);
      assert.deepEqual(
        warnings.map((w) => w.message.key),
        [
          'vocabulary.warning.unknownKey',
          'vocabulary.warning.invalidEntry',
          'vocabulary.warning.invalidEntry',
          'vocabulary.warning.invalidEntry',
          'vocabulary.warning.invalidEntry',
          'vocabulary.warning.unknownCrop',
          'vocabulary.warning.notList',
          'vocabulary.warning.unknownTaskCrop',
          'vocabulary.warning.invalidEntry',
        ],
      );
      assert.match(String(warnings[2]?.message.args[1]), /kbCode/);
      assert.equal(findCrop(v, 'sorghum'), undefined);
      assert.deepEqual(
        findCrop(v, 'millet')?.stages.map((s) => s.labels['zh-CN']),
        ['拔节期'],
      );
      assert.ok(findTask(v, '整形'), 'a task naming an unknown crop is kept, with a warning');
    });

    it('warns about a setting of the wrong type', () => {
      for (const bad of [42, 'crops', [1, 2], true]) {
        const { vocabulary, warnings } = loadVocabulary(bad);
        assert.equal(warnings.length, 1);
        assert.equal(warnings[0]?.message.key, 'vocabulary.warning.notObject');
        assert.deepEqual(vocabulary, builtinVocabulary());
      }
      const { warnings } = loadVocabulary({ crops: {}, tasks: 'x', stages: [] });
      assert.deepEqual(
        warnings.map((w) => w.message.key),
        ['vocabulary.warning.notList', 'vocabulary.warning.notMap', 'vocabulary.warning.notList'],
      );
    });

    it('labels are trimmed and between 1 and 200 characters; a kbCode is trimmed and only letters, digits, "_", "." or "-"', () => {
      const { vocabulary: v, warnings } = loadVocabulary({
        crops: [
          { id: 'sorghum', 'zh-CN': ' 高粱 ', kbCode: ' SORGHUM_1 ' },
          { id: 'blank', 'zh-CN': '   ' },
          { id: 'long', 'zh-CN': '长'.repeat(201) },
          { id: 'bad', 'zh-CN': '坏', kbCode: '坏 CODE' },
        ],
      });
      assert.equal(findCrop(v, 'sorghum')?.labels['zh-CN'], '高粱');
      assert.equal(findCrop(v, 'sorghum')?.kbCode, 'SORGHUM_1');
      assert.deepEqual(
        warnings.map((w) => w.path),
        ['crops[1]', 'crops[2]', 'crops[3]'],
      );
      assert.equal(warnings[2]?.message.args[1], 'kbCode: kbCode: letters, digits, "_", "." or "-" only');
    });

    it('each problem of an entry is named by its field ("(entry)" for the entry itself), joined by "; "', () => {
      const { warnings } = loadVocabulary({ crops: ['x', { id: '', 'zh-CN': '' }] });
      assert.match(String(warnings[0]?.message.args[1]), /^\(entry\): \S/);
      assert.match(String(warnings[1]?.message.args[1]), /^id: [^;]+; zh-CN: [^;]+$/);
    });

    it('"$schema" is a known key; a stages map that is null or a list is reported at "stages"', () => {
      assert.deepEqual(loadVocabulary({ $schema: './vocabulary.schema.json' }).warnings, []);
      for (const stages of [null, ['x'], 'x']) {
        const { warnings } = loadVocabulary({ stages });
        assert.deepEqual(
          warnings.map((w) => [w.path, w.message.key, w.message.args]),
          [['stages', 'vocabulary.warning.notMap', ['stages']]],
          JSON.stringify(stages),
        );
      }
      assert.equal(loadVocabulary(42).warnings[0]?.path, '', 'the whole setting');
    });

    it('a crop with its own new id is a new crop even when its zh-CN label is taken', () => {
      const { vocabulary: v } = loadVocabulary({ crops: [{ id: 'tea-seedling', 'zh-CN': '茶树' }] });
      assert.equal(v.crops.length, builtinVocabulary().crops.length + 1);
      assert.equal(findCrop(v, 'tea')?.id, 'tea');
    });

    it('aliases: an extension adds only new ones; an entry without any has none', () => {
      const builtinTea = findCrop(builtinVocabulary(), 'tea');
      const { vocabulary: v } = loadVocabulary({
        crops: [
          { id: 'tea', 'zh-CN': '茶树', aliases: [...(builtinTea?.aliases.slice(0, 1) ?? []), '茶苗'] },
          { id: 'hops', 'zh-CN': '啤酒花' },
        ],
      });
      assert.deepEqual(findCrop(v, 'tea')?.aliases, [...(builtinTea?.aliases ?? []), '茶苗']);
      assert.deepEqual(findCrop(v, 'hops')?.aliases, []);
      const plain = loadVocabulary({ crops: [{ id: 'tea', 'zh-CN': '茶树' }] }).vocabulary;
      assert.deepEqual(findCrop(plain, 'tea')?.aliases, builtinTea?.aliases);
    });

    it('a crop without a knowledge base has no kbCode or kbName, also once merged onto', () => {
      const base = loadVocabulary({ crops: [{ id: 'hops', 'zh-CN': '啤酒花' }] }).vocabulary;
      const merged = loadVocabulary({}, base).vocabulary;
      const hops = findCrop(merged, 'hops');
      assert.ok(hops && !('kbCode' in hops) && !('kbName' in hops));
    });

    it('merges onto a given base', () => {
      const base = loadVocabulary({ crops: [{ id: 'a', 'zh-CN': '甲' }] }).vocabulary;
      const { vocabulary } = loadVocabulary({ tasks: [{ 'zh-CN': '乙' }] }, base);
      assert.ok(findCrop(vocabulary, 'a') && findTask(vocabulary, '乙'));
    });
  });
});
