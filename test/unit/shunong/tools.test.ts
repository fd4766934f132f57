/**
 * The tool catalog's own rules (shunong/tools.ts), with a stand-in session that answers tools/list
 * from a list the test holds: the store read once, saves and listeners only on a change, a stale
 * stored list refreshed once before a name is called unknown, one refresh at a time, and the
 * arguments a tool does not declare left out. The client's tests meet the same catalog over HTTP.
 */
import { strict as assert } from 'node:assert';
import { AmbiguousToolError, UnknownToolError, type ToolInfo } from '../../../src/shunong';
import { newRequestContext } from '../../../src/shunong/fetch';
import type { Session } from '../../../src/shunong/session';
import { ToolCatalog } from '../../../src/shunong/tools';
import { tick } from './helpers';

const tool = (name: string, properties?: Record<string, unknown>): ToolInfo => ({
  name,
  inputSchema: properties ? { type: 'object', properties } : { type: 'object' },
});
const KNOWLEDGE = tool('knowledge_search', { query: { type: 'string' }, top_k: { type: 'number' } });
const WEATHER = tool('weather_search', { location: { type: 'string' } });

/** A session whose tools/list answers `served.tools`, counting the lists and the enter/leave pairs. */
function standIn(served: { tools: ToolInfo[] | Error }) {
  const seen = { lists: 0, timeouts: [] as number[], entered: 0, left: 0 };
  const session = {
    async listTools(_ctx: unknown, timeoutMs: number): Promise<ToolInfo[]> {
      seen.lists++;
      seen.timeouts.push(timeoutMs);
      await Promise.resolve();
      if (served.tools instanceof Error) throw served.tools;
      return served.tools;
    },
    enter: () => void seen.entered++,
    leave: () => void seen.left++,
  };
  return { session: session as unknown as Session, seen };
}

function storeOf(loaded: unknown | (() => unknown)) {
  const saved: ToolInfo[][] = [];
  let loads = 0;
  const store = {
    load: () => {
      loads++;
      return (typeof loaded === 'function' ? (loaded as () => unknown)() : loaded) as ToolInfo[] | undefined;
    },
    save: (_endpoint: string, tools: ToolInfo[]) => void saved.push(tools),
  };
  return { store, saved, loads: () => loads };
}

describe('shunong/tools: the tool catalog', () => {
  it('the stored list is read once, and only a list of at least one well-formed tool is taken', async () => {
    for (const bad of [[], [{ name: 'x' }], 'tools', undefined]) {
      const s = storeOf(bad);
      const c = new ToolCatalog('e', s.store, undefined, 1000);
      assert.equal(await c.cached(), undefined, JSON.stringify(bad));
      assert.equal(await c.cached(), undefined);
      assert.equal(s.loads(), 1, 'read once');
    }
    const s = storeOf([KNOWLEDGE]);
    const c = new ToolCatalog('e', s.store, undefined, 1000);
    assert.deepEqual(await c.cached(), [KNOWLEDGE]);
    assert.deepEqual(await c.cached(), [KNOWLEDGE]);
    assert.equal(s.loads(), 1);
  });

  it('a list in memory is the answer: the store is not read then, and a catalog without a store logs nothing', async () => {
    const s = storeOf([WEATHER]);
    const c = new ToolCatalog('e', s.store, undefined, 1000);
    await c.fetch(standIn({ tools: [KNOWLEDGE] }).session, newRequestContext());
    assert.deepEqual(await c.cached(), [KNOWLEDGE]);
    assert.equal(s.loads(), 0);
    const log: string[] = [];
    const bare = new ToolCatalog('e', undefined, (l) => log.push(l), 1000);
    await bare.fetch(standIn({ tools: [KNOWLEDGE] }).session, newRequestContext());
    await tick();
    assert.deepEqual(log, []);
  });

  it('a store that fails to load is a note in the log, not a failure', async () => {
    const log: string[] = [];
    const c = new ToolCatalog('e', storeOf(() => Promise.reject(new Error('disk gone'))).store, (l) => log.push(l), 1);
    assert.equal(await c.cached(), undefined);
    assert.deepEqual(log, ['note: the tool list store failed to load: disk gone']);
  });

  it('a list from the server while the store is still loading is not replaced by the stored one', async () => {
    let release!: (tools: ToolInfo[]) => void;
    const s = storeOf(() => new Promise<ToolInfo[]>((resolve) => (release = resolve)));
    const c = new ToolCatalog('e', s.store, undefined, 1000);
    const loading = c.cached();
    await c.fetch(standIn({ tools: [KNOWLEDGE] }).session, newRequestContext());
    release([WEATHER]);
    assert.deepEqual(await loading, [KNOWLEDGE]);
  });

  it('the server’s list is saved and announced when it changed, and only then; a listener that throws is logged', async () => {
    const s = storeOf(undefined);
    const log: string[] = [];
    const c = new ToolCatalog('e', s.store, (l) => log.push(l), 4321);
    const heard: string[][] = [];
    c.onDidChange(() => {
      throw new Error('listener broke');
    });
    const stop = c.onDidChange((tools) => heard.push(tools.map((t) => t.name)));
    const served: { tools: ToolInfo[] } = { tools: [KNOWLEDGE] };
    const { session, seen } = standIn(served);
    assert.deepEqual(await c.fetch(session, newRequestContext()), [KNOWLEDGE]);
    await c.fetch(session, newRequestContext());
    await tick();
    assert.deepEqual(s.saved, [[KNOWLEDGE]], 'the same list twice: saved once');
    assert.deepEqual(heard, [['knowledge_search']]);
    assert.deepEqual(seen.timeouts, [4321, 4321], 'the list timeout is the catalog’s');
    assert.deepEqual(log, ['note: a tool-list listener threw: listener broke']);
    stop();
    served.tools = [KNOWLEDGE, WEATHER];
    await c.fetch(session, newRequestContext());
    await tick();
    assert.deepEqual(heard, [['knowledge_search']], 'no longer listening');
    assert.equal(s.saved.length, 2);
  });

  it('a store that fails to save is a note in the log', async () => {
    const log: string[] = [];
    const store = { load: () => undefined, save: () => Promise.reject(new Error('read-only')) };
    const c = new ToolCatalog('e', store, (l) => log.push(l), 1);
    await c.fetch(standIn({ tools: [KNOWLEDGE] }).session, newRequestContext());
    await tick();
    assert.deepEqual(log, ['note: the tool list store failed to save: read-only']);
  });

  it('a name the stored list does not know: the server is asked once, then the name is unknown', async () => {
    const served: { tools: ToolInfo[] } = { tools: [KNOWLEDGE, WEATHER] };
    const { session, seen } = standIn(served);
    const c = new ToolCatalog('e', storeOf([KNOWLEDGE]).store, undefined, 1000);
    assert.equal((await c.resolve('weather', session, newRequestContext())).name, 'weather_search');
    assert.equal(seen.lists, 1, 'the stale stored list was refreshed');
    await assert.rejects(c.resolve('recognize', session, newRequestContext()), UnknownToolError);
    assert.equal(seen.lists, 1, 'a list from this run is not asked again');
  });

  it('an ambiguous name is not a reason to ask the server again', async () => {
    const { session, seen } = standIn({ tools: [KNOWLEDGE, WEATHER] });
    const c = new ToolCatalog('e', storeOf([KNOWLEDGE, WEATHER]).store, undefined, 1000);
    await assert.rejects(c.resolve('search', session, newRequestContext()), AmbiguousToolError);
    assert.equal(seen.lists, 0);
  });

  it('with no list anywhere the server is asked before resolving', async () => {
    const { session, seen } = standIn({ tools: [KNOWLEDGE] });
    const c = new ToolCatalog('e', undefined, undefined, 1000);
    assert.equal((await c.resolve('knowledgeSearch', session, newRequestContext())).name, 'knowledge_search');
    assert.equal(seen.lists, 1);
  });

  it('a change the server announces: one refresh at a time, inside the session, a failure logged', async () => {
    const log: string[] = [];
    const served: { tools: ToolInfo[] | Error } = { tools: [KNOWLEDGE] };
    const { session, seen } = standIn(served);
    const c = new ToolCatalog('e', undefined, (l) => log.push(l), 1000);
    c.refreshFrom(session);
    c.refreshFrom(session);
    assert.equal(seen.entered, 1);
    await tick();
    assert.equal(seen.lists, 1, 'the second announcement came while the first refresh ran');
    assert.equal(seen.left, 1);
    assert.deepEqual(await c.cached(), [KNOWLEDGE]);
    served.tools = new Error('tools/list failed');
    c.refreshFrom(session);
    await tick();
    assert.equal(seen.lists, 2, 'a refresh after the last one ended runs');
    assert.equal(seen.left, 2);
    assert.deepEqual(log, [
      'note: the server says the tool list changed; refreshing',
      'note: the server says the tool list changed; refreshing',
      'note: refreshing the tool list failed: tools/list failed',
    ]);
  });

  it('only declared arguments are sent; undefined ones are left out silently, undeclared ones with a note', () => {
    const log: string[] = [];
    const c = new ToolCatalog('e', undefined, (l) => log.push(l), 1000);
    assert.deepEqual(c.filterArgs(KNOWLEDGE, { query: '水稻', top_k: undefined, kb: 'A', mode: 'x' }), {
      query: '水稻',
    });
    assert.deepEqual(log, ['note: knowledge_search does not declare "kb", "mode"; not sent']);
    log.length = 0;
    assert.deepEqual(c.filterArgs(KNOWLEDGE, { query: '水稻', top_k: 3 }), { query: '水稻', top_k: 3 });
    assert.deepEqual(
      c.filterArgs(tool('free'), { anything: 1, gone: undefined }),
      { anything: 1 },
      'no properties: all sent',
    );
    assert.deepEqual(log, []);
  });
});
