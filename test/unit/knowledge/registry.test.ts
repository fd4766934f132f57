import assert from 'node:assert/strict';
import fc from 'fast-check';
import { KnowledgeBaseRegistry } from '../../../src/knowledge/registry';

describe('knowledge/registry', () => {
  it('splits the comma-joined kb_code / kb_name of a result and pairs them in order', () => {
    const r = new KnowledgeBaseRegistry();
    assert.equal(
      r.observe(
        'TEA_MANAGER_001,Strip_Intercropping,RICE_001,CORN_001,SOYBEAN_001',
        '茶树管理,玉米大豆带状复合种植技术,水稻,玉米,大豆',
      ),
      true,
    );
    assert.deepEqual(r.list(), [
      { code: 'TEA_MANAGER_001', name: '茶树管理' },
      { code: 'Strip_Intercropping', name: '玉米大豆带状复合种植技术' },
      { code: 'RICE_001', name: '水稻' },
      { code: 'CORN_001', name: '玉米' },
      { code: 'SOYBEAN_001', name: '大豆' },
    ]);
    assert.equal(r.observe('RICE_001', '水稻'), false, 'nothing new');
    assert.equal(r.nameOf('CORN_001'), '玉米');
  });

  it('keeps first-seen order, takes new names, keeps a name when none is given, skips empty codes', () => {
    const r = new KnowledgeBaseRegistry();
    r.observe('WHEAT_001', '');
    assert.deepEqual(r.list(), [{ code: 'WHEAT_001' }]);
    r.observe(' A ， WHEAT_001 ,', '甲，小麦');
    assert.deepEqual(r.list(), [
      { code: 'WHEAT_001', name: '小麦' },
      { code: 'A', name: '甲' },
    ]);
    assert.equal(r.observe('A', undefined), false);
    assert.equal(r.nameOf('A'), '甲');
    assert.equal(r.observe(null, null), false);
    assert.equal(r.size, 2);
    r.clear();
    assert.equal(r.size, 0);
  });

  it('round-trips through JSON and tolerates bad state', () => {
    const r = new KnowledgeBaseRegistry();
    r.observe('TEA_MANAGER_001,RICE_001', '茶树管理');
    const state: unknown = JSON.parse(JSON.stringify(r));
    assert.deepEqual(state, {
      version: 1,
      bases: [{ code: 'TEA_MANAGER_001', name: '茶树管理' }, { code: 'RICE_001' }],
    });
    assert.deepEqual(KnowledgeBaseRegistry.fromJSON(state).list(), r.list());
    for (const bad of [undefined, null, 42, { version: 2, bases: [] }, { version: 1, bases: 'x' }]) {
      assert.equal(KnowledgeBaseRegistry.fromJSON(bad).size, 0);
    }
    const partial = KnowledgeBaseRegistry.fromJSON({
      version: 1,
      bases: [{ code: 'A' }, { code: 7 }, { code: 'B', name: '乙' }],
    });
    assert.deepEqual(partial.list(), [{ code: 'A' }, { code: 'B', name: '乙' }]);
  });

  it('property: serialisation round-trips any observations', () => {
    const part = fc.stringMatching(/^[A-Za-z0-9_]{0,6}$/);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.array(part, { maxLength: 4 }), fc.array(part, { maxLength: 4 }))), (obs) => {
        const r = new KnowledgeBaseRegistry();
        for (const [codes, names] of obs) r.observe(codes.join(','), names.join(','));
        assert.deepEqual(KnowledgeBaseRegistry.fromJSON(JSON.parse(JSON.stringify(r.toJSON()))).list(), r.list());
        assert.equal(new Set(r.list().map((b) => b.code)).size, r.size);
      }),
    );
  });

  it('reads a list joined with spaces after the commas, or with full-width commas', () => {
    const r = new KnowledgeBaseRegistry();
    r.observe('TEA_001, RICE_001', '茶树，水稻');
    assert.deepEqual(r.list(), [
      { code: 'TEA_001', name: '茶树' },
      { code: 'RICE_001', name: '水稻' },
    ]);
  });
});
