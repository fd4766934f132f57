/** The crop hierarchy (src/safety/crops.ts), over a small rule set written for it. */
import assert from 'node:assert/strict';
import { Crops } from '../../../src/safety/crops';
import type { RuleSet, SafetyRule } from '../../../src/safety/types';

const RULES: RuleSet = {
  version: 1,
  asOf: '2026-12-02',
  sources: 'test',
  rules: [],
  crops: [
    { name: '白菜', en: 'Chinese cabbage', parents: ['十字花科蔬菜'], aliases: ['Napa', '大白菜'] },
    { name: '十字花科蔬菜', parents: ['蔬菜'], aliases: [] },
    { name: '蔬菜', parents: ['作物'], aliases: [] },
    // a station file may write a cycle
    { name: '甲', parents: ['乙'], aliases: [] },
    { name: '乙', parents: ['甲'], aliases: [] },
  ],
  uses: [{ name: '卫生害虫', en: 'household pests', aliases: [] }],
  otherNames: [],
  ordinaryWords: [],
};
const crops = new Crops(RULES);
const scoped = (list?: string[]): SafetyRule => ({
  id: 'x',
  substance: 'x',
  names: ['x'],
  kind: 'scope',
  effective: '2026-01-01',
  announcement: 'a',
  ...(list ? { scope: { crops: list } } : {}),
});

describe('safety/crops: the hierarchy', () => {
  it('knows a crop by its name or an alias, in any case and with spaces around it', () => {
    for (const name of ['白菜', '大白菜', 'Napa', 'napa', ' NAPA ']) assert.equal(crops.crop(name), '白菜', name);
    assert.equal(crops.crop('萝卜'), undefined);
  });

  it('gives a crop with every group above it, and survives a cycle', () => {
    assert.deepEqual([...crops.lineage('白菜')], ['白菜', '十字花科蔬菜', '蔬菜', '作物']);
    assert.deepEqual([...crops.lineage('甲')], ['甲', '乙']);
    assert.deepEqual([...crops.lineage('萝卜')], ['萝卜'], 'a crop the rules do not know is only itself');
  });

  it('is within a scope through its groups, named by a name or an alias; a rule without crops has none in scope', () => {
    assert.ok(crops.inScope(scoped(['蔬菜']), '白菜'));
    assert.ok(crops.inScope(scoped(['大白菜']), '白菜'));
    assert.equal(crops.inScope(scoped(['茶叶']), '白菜'), false);
    assert.equal(crops.inScope(scoped(), '白菜'), false);
  });

  it('names crops and uses in English, or as written when the rules give no English', () => {
    assert.equal(crops.en('白菜'), 'Chinese cabbage');
    assert.equal(crops.en('卫生害虫'), 'household pests');
    assert.equal(crops.en('蔬菜'), '蔬菜');
  });
});
