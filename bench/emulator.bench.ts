/**
 * Emulator bench: warm `knowledge_search` round trip (raw HTTP POST with a session, SSE reply read
 * to the end) at the sample knowledge base (scale 1) and at the base scaled ×60 with generated
 * variants, both emulators running side by side in this process; calls are interleaved so both
 * see the same machine state. Prints both medians and their ratio (goal ≤ 3).
 * Run: `npx tsx bench/emulator.bench.ts` (or `npm run bench -- emulator`).
 */
import { loadKnowledgeDir } from '../test/emulator/retrieval';
import { DEFAULT_KNOWLEDGE_DIR, RetrievalEngine, startEmulator, type Emulator } from '../test/emulator/server';
import { sized } from './smoke.mjs';

const QUERIES = [
  '茶树修剪技术要点',
  '水稻分蘖期水分管理',
  '小麦赤霉病防治',
  '玉米大豆带状复合种植密度',
  '大豆结荚期管理',
  '玉米大喇叭口期追肥',
  '春茶采摘标准',
  '水稻稻瘟病防治',
];
const WARMUP = sized(60, 1);
const CALLS = sized(400, 4);
/** The large base: the sample ×60, or ×3 in smoke mode (the ×60 index takes seconds to build). */
const SCALE = sized(60, 3);
const DIRECT = sized(200, 4);
const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  authorization: 'Bearer sk_local_demo',
};

async function session(emu: Emulator): Promise<string> {
  const r = await fetch(emu.url, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    }),
  });
  await r.text();
  const sid = r.headers.get('mcp-session-id');
  if (!sid) throw new Error('no session');
  return sid;
}

let id = 10;
async function call(emu: Emulator, sid: string, query: string): Promise<number> {
  const t0 = performance.now();
  const r = await fetch(emu.url, {
    method: 'POST',
    headers: { ...HEADERS, 'mcp-session-id': sid },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: id++,
      method: 'tools/call',
      params: { name: 'knowledge_search', arguments: { query } },
    }),
  });
  const text = await r.text();
  const ms = performance.now() - t0;
  if (r.status !== 200 || !text.includes('"isError":false'))
    throw new Error(`unexpected reply for ${query}: ${text.slice(0, 200)}`);
  return ms;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

async function main(): Promise<void> {
  let t = performance.now();
  const small = new RetrievalEngine(loadKnowledgeDir(DEFAULT_KNOWLEDGE_DIR), 1);
  const smallBuild = performance.now() - t;
  t = performance.now();
  const large = new RetrievalEngine(loadKnowledgeDir(DEFAULT_KNOWLEDGE_DIR), SCALE);
  const largeBuild = performance.now() - t;
  const a = await startEmulator({ engine: small });
  const b = await startEmulator({ engine: large });
  try {
    const sa = await session(a);
    const sb = await session(b);
    for (let i = 0; i < WARMUP; i++) {
      const q = QUERIES[i % QUERIES.length] as string;
      await call(a, sa, q);
      await call(b, sb, q);
    }
    const ta: number[] = [];
    const tb: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const q = QUERIES[i % QUERIES.length] as string;
      if (i % 2 === 0) {
        ta.push(await call(a, sa, q));
        tb.push(await call(b, sb, q));
      } else {
        tb.push(await call(b, sb, q));
        ta.push(await call(a, sa, q));
      }
    }
    const ma = median(ta);
    const mb = median(tb);
    // Retrieval alone (no HTTP), for context.
    const direct = (e: RetrievalEngine): number => {
      const xs: number[] = [];
      for (let i = 0; i < DIRECT; i++) {
        const t1 = performance.now();
        e.search({
          query: QUERIES[i % QUERIES.length] as string,
          topK: 5,
          scoreThreshold: 0.7,
          useRerank: false,
          mode: 'hybrid',
        });
        xs.push(performance.now() - t1);
      }
      return median(xs);
    };
    const da = direct(small);
    const db = direct(large);
    process.stdout.write(
      [
        `passages: scale 1 = ${small.passages.length}, scale ${SCALE} = ${large.passages.length} (index build ${smallBuild.toFixed(0)} ms / ${largeBuild.toFixed(0)} ms)`,
        `knowledge_search round trip, median of ${CALLS} warm calls: scale 1 = ${ma.toFixed(3)} ms, scale ${SCALE} = ${mb.toFixed(3)} ms`,
        `ratio scale ${SCALE} / scale 1 = ${(mb / ma).toFixed(2)} (goal ≤ 3) ${mb / ma <= 3 ? 'OK' : 'OVER GOAL'}`,
        `retrieval alone (no HTTP), median: scale 1 = ${da.toFixed(3)} ms, scale ${SCALE} = ${db.toFixed(3)} ms`,
        '',
      ].join('\n'),
    );
  } finally {
    await a.close();
    await b.close();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
