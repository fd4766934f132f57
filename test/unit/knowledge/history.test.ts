/** The persisted knowledge state (history, pins, knowledge bases seen), in plain Node. */
import * as assert from 'node:assert/strict';
import * as model from '../../../src/knowledge/history';

const RRF = 'rrf(≈1/(60+rank), 仅用于排序)';

describe('knowledge state model', () => {
  const passage = {
    docName: 'a.docx',
    chunkIndex: 1,
    content: 'x',
    kbCode: 'TEA',
    kbName: '茶树管理',
    query: 'q',
    score: 0.03,
    scoreType: RRF,
    retrievedAt: '2026-10-25T13:06:13Z',
  };
  const record = (id: string, query: string): model.SearchRecord => ({
    id,
    options: { query, kbCode: 'TEA' },
    at: '2026-10-25T13:06:13Z',
    kbCodes: ['TEA'],
    passages: [{ passage, view: { rank: 1, of: 1, found: 'one', threshold: 0.5, belowUsual: 0.7 } }],
  });

  it('round-trips through JSON and drops what it cannot read', () => {
    let s = model.addSearch(model.emptyState(), record('1', 'q'));
    s = model.pin(s, passage);
    s = model.observeBases(s, 'TEA,RICE', '茶树管理,水稻', true);
    const back = model.readState(JSON.parse(JSON.stringify(s)));
    assert.deepEqual(back, s);
    const broken = model.readState({
      version: 1,
      history: [{ id: 'x' }, 3],
      pins: [{ docName: '' }],
      bases: [{ code: 'A' }, { code: 'A' }, 7],
    });
    assert.deepEqual(broken, { version: 1, history: [], pins: [], bases: [{ code: 'A' }], basesListed: false });
    assert.deepEqual(model.readState('nonsense'), model.emptyState());
  });

  it('the same search replaces its older entry; the history is capped', () => {
    let s = model.emptyState();
    for (let i = 0; i < model.HISTORY_LIMIT + 5; i++) s = model.addSearch(s, record(String(i), `q${i}`));
    s = model.addSearch(s, record('again', 'q40'));
    assert.equal(s.history.length, model.HISTORY_LIMIT);
    assert.equal(s.history[0]?.id, 'again');
    assert.equal(s.history.filter((r) => r.options.query === 'q40').length, 1);
  });

  it('pins are unique per knowledge base and passage', () => {
    let s = model.pin(model.pin(model.emptyState(), passage), passage);
    assert.equal(s.pins.length, 1);
    s = model.pin(s, { ...passage, kbCode: 'RICE' });
    assert.equal(s.pins.length, 2);
    assert.equal(model.isPinned(s, passage), true);
    s = model.unpin(s, passage);
    assert.equal(model.isPinned(s, passage), false);
    assert.equal(model.findPassage(s, 'RICE/a.docx#1')?.kbCode, 'RICE');
  });
});
