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

  it('a search is the same search when only the spaces around its words differ; any other argument makes it another', () => {
    const opts = (o: Partial<model.SearchOptions>): model.SearchRecord => ({
      ...record(JSON.stringify(o), 'q'),
      options: { query: '茶树修剪', ...o },
    });
    let s = model.addSearch(model.emptyState(), opts({}));
    s = model.addSearch(s, opts({ query: '  茶树修剪 ' }));
    assert.deepEqual(
      s.history.map((r) => r.options.query),
      ['  茶树修剪 '],
      'replaced by the newer',
    );
    for (const o of [
      { kbCode: 'RICE' },
      { topK: 5 },
      { scoreThreshold: 0.3 },
      { useRerank: false },
      { mode: 'vector' as const },
    ])
      s = model.addSearch(s, opts(o));
    assert.equal(s.history.length, 6, 'each argument tells searches apart');
    // a record added again under its own id moves to the top instead of appearing twice
    const first = s.history[s.history.length - 1];
    assert.ok(first);
    s = model.addSearch(s, { ...first, options: { query: '另一个问题' } });
    assert.equal(s.history.length, 6);
    assert.equal(s.history[0]?.id, first.id);
  });

  it('removing a search removes that one only; clearing the history keeps pins and bases, clearing pins keeps the history', () => {
    let s = model.addSearch(model.addSearch(model.emptyState(), record('1', 'q1')), record('2', 'q2'));
    s = model.observeBases(model.pin(s, passage), 'TEA', '茶树管理');
    assert.deepEqual(
      model.removeSearch(s, '1').history.map((r) => r.id),
      ['2'],
    );
    assert.deepEqual(model.clearHistory(s), { ...s, history: [] });
    assert.deepEqual(model.clearPins(s), { ...s, pins: [] });
  });

  it('bases: codes and names split on either comma and trimmed, empties skipped; a name once known is kept; "listed" sticks', () => {
    let s = model.observeBases(model.emptyState(), ' TEA ， RICE,,WHEAT', '茶树管理 ,水稻');
    assert.deepEqual(s.bases, [{ code: 'TEA', name: '茶树管理' }, { code: 'RICE', name: '水稻' }, { code: 'WHEAT' }]);
    assert.equal(s.basesListed, false);
    s = model.observeBases(s, 'WHEAT，TEA', '小麦', true);
    assert.deepEqual(s.bases, [
      { code: 'TEA', name: '茶树管理' },
      { code: 'RICE', name: '水稻' },
      { code: 'WHEAT', name: '小麦' },
    ]);
    assert.equal(s.basesListed, true);
    assert.equal(model.observeBases(s, 'TEA', '茶树管理').basesListed, true, 'a later single search does not unlist');
  });

  it('findPassage looks in the history first, then the pins; an unknown id is undefined', () => {
    const inHistory = { ...passage, content: 'from the history' };
    let s = model.addSearch(model.emptyState(), {
      ...record('1', 'q'),
      passages: [{ passage: inHistory, view: { rank: 1, of: 1 } }],
    });
    s = model.pin(s, { ...passage, content: 'pinned' });
    s = model.pin(s, { ...passage, docName: 'b.docx', content: 'pinned only' });
    assert.equal(model.findPassage(s, 'TEA/a.docx#1')?.content, 'from the history');
    assert.equal(model.findPassage(s, 'TEA/b.docx#1')?.content, 'pinned only');
    assert.equal(model.findPassage(s, 'TEA/c.docx#1'), undefined);
  });

  it('reading keeps every field it knows, checks each one, and caps the history', () => {
    const view = { rank: 2, of: 5, found: 'both' as const, threshold: 0.4, belowUsual: 0.5, foundIn: 2, lists: 3 };
    const full: model.SearchRecord = {
      id: 'r',
      options: { query: 'q', kbCode: 'TEA', topK: 5, scoreThreshold: 0.4, useRerank: false, mode: 'hybrid' },
      at: '2026-10-25T13:06:13Z',
      kbCodes: ['TEA', 'RICE'],
      passages: [{ passage: { ...passage, chunkIndex: 0 }, view }],
    };
    const state = { ...model.emptyState(), history: [full], basesListed: true };
    assert.deepEqual(model.readState(JSON.parse(JSON.stringify(state))), state);
    assert.equal(
      model.readState({ ...state, history: [{ ...full, options: { ...full.options, mode: 'vector' } }] }).history[0]
        ?.options.mode,
      'vector',
    );
    const odd = model.readState({
      version: 1,
      history: [
        {
          ...full,
          options: { query: 'q', mode: 'fulltext', useRerank: 'yes', kbCode: '' },
          kbCodes: ['TEA', '', 3, null],
          passages: [
            3,
            { passage: { ...passage, chunkIndex: -1 }, view },
            { passage: { ...passage, chunkIndex: 1.5 }, view },
            { passage, view: { rank: 1 } },
            { passage, view: { rank: 1, of: 1, found: 'guess' } },
          ],
        },
      ],
      pins: [passage, { ...passage, score: 'high' }],
      bases: [{ code: ' TEA ', name: ' 茶树管理 ' }, { code: '  ' }, { code: 'RICE', name: '' }, ['X']],
      basesListed: 'yes',
    });
    assert.deepEqual(
      odd.history[0]?.options,
      { query: 'q' },
      'an unknown mode, a non-boolean rerank and an empty base dropped',
    );
    assert.deepEqual(odd.history[0]?.kbCodes, ['TEA']);
    assert.deepEqual(odd.history[0]?.passages, [{ passage, view: { rank: 1, of: 1 } }]);
    assert.deepEqual(odd.pins, [passage]);
    assert.deepEqual(odd.bases, [{ code: 'TEA', name: '茶树管理' }, { code: 'RICE' }]);
    assert.equal(odd.basesListed, false);
    const many = Array.from({ length: model.HISTORY_LIMIT + 3 }, (_, i) => record(String(i), `q${i}`));
    const read = model.readState({ version: 1, history: many, pins: 'x', bases: {} });
    assert.equal(read.history.length, model.HISTORY_LIMIT);
    assert.equal(read.history[0]?.id, '0', 'newest first, as stored');
    assert.deepEqual([read.pins, read.bases], [[], []]);
    assert.deepEqual(
      model.readState({ ...state, version: 2 }),
      model.emptyState(),
      'a newer version is not guessed at',
    );
    assert.deepEqual(model.readState([state]), model.emptyState());
  });
});
