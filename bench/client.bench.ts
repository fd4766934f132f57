/**
 * Platform-client bench (`npx tsx bench/client.bench.ts`, or `npm run bench -- client`).
 *
 * Starts its own local endpoint on 127.0.0.1 and measures, in the same run:
 * - p50 / p95 latency of a warm knowledge_search through ShunongClient (typed: parse + zod + envelope
 *   machinery) against the bare SDK `Client` (callTool + JSON.parse) on the same endpoint, calls
 *   alternated one by one (the order flips every pair) so both see the same server state; goal ratio ≤ 1.10;
 * - HTTP requests per warm call (goal 1) and per first call with a cached tool list (goal ≤ 3).
 * Set BENCH_CALLS to change the number of timed calls per client (default 500, minimum 500 for the figures).
 */
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startEmulator } from '../test/emulator/server';
import { ShunongClient, type ToolInfo } from '../src/shunong';
import { sized } from './smoke.mjs';

const KEY = 'sk_local_demo';
const CALLS = Math.max(1, Number(process.env['BENCH_CALLS'] ?? sized(500, 3)));
const WARMUP = sized(50, 1);
const QUERIES = ['茶树修剪技术要点', '水稻分蘖期水分管理', '玉米大豆带状复合种植', '小麦拔节期追肥', '茶园病虫害防治'];

function pct(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? NaN;
}

function fmt(ms: number): string {
  return `${ms.toFixed(3)} ms`;
}

async function main(): Promise<number> {
  const emu = await startEmulator();
  const ours = new ShunongClient({ endpoint: emu.url, getKey: () => KEY });
  const bare = new Client({ name: 'bench-bare', version: '1' }, { capabilities: {} });
  bare.onerror = () => undefined; // the endpoint answers the SDK's GET stream with 400 by design
  await bare.connect(
    new StreamableHTTPClientTransport(new URL(emu.url), {
      requestInit: { headers: { Authorization: `Bearer ${KEY}` } },
      reconnectionOptions: {
        maxRetries: 0,
        initialReconnectionDelay: 1000,
        maxReconnectionDelay: 1000,
        reconnectionDelayGrowFactor: 1,
      },
    }),
  );
  await ours.connect();

  const callOurs = async (q: string): Promise<void> => {
    const r = await ours.knowledgeSearch({ query: q, scoreThreshold: 0 });
    if (!r.sources.length) throw new Error('no sources');
  };
  const callBare = async (q: string): Promise<void> => {
    const r = await bare.callTool({ name: 'knowledge_search', arguments: { query: q, scoreThreshold: 0 } });
    const first = (r.content as { type: string; text?: string }[])[0];
    const data = JSON.parse(first?.text ?? 'null') as { sources?: unknown[] } | null;
    if (!data?.sources?.length) throw new Error('no sources');
  };

  for (let i = 0; i < WARMUP; i++) {
    const q = QUERIES[i % QUERIES.length] ?? '';
    await callOurs(q);
    await callBare(q);
  }

  const tOurs: number[] = [];
  const tBare: number[] = [];
  const timed = async (fn: (q: string) => Promise<void>, q: string, into: number[]): Promise<void> => {
    const t0 = performance.now();
    await fn(q);
    into.push(performance.now() - t0);
  };
  for (let i = 0; i < CALLS; i++) {
    const q = QUERIES[i % QUERIES.length] ?? '';
    if (i % 2 === 0) {
      await timed(callOurs, q, tOurs);
      await timed(callBare, q, tBare);
    } else {
      await timed(callBare, q, tBare);
      await timed(callOurs, q, tOurs);
    }
  }
  tOurs.sort((a, b) => a - b);
  tBare.sort((a, b) => a - b);

  // Requests per warm call.
  const WARM_COUNT = sized(50, 2);
  const before = emu.requests.length;
  for (let i = 0; i < WARM_COUNT; i++) await callOurs(QUERIES[i % QUERIES.length] ?? '');
  const perWarm = (emu.requests.length - before) / WARM_COUNT;

  // Requests of a first call with a cached tool list, and without.
  const cached: ToolInfo[] = await ours.listTools();
  const cold = new ShunongClient({
    endpoint: emu.url,
    getKey: () => KEY,
    toolStore: { load: () => cached, save: () => undefined },
  });
  const b1 = emu.requests.length;
  await cold.knowledgeSearch({ query: QUERIES[0] ?? '' });
  const perFirstCached = emu.requests.length - b1;
  const noCache = new ShunongClient({ endpoint: emu.url, getKey: () => KEY });
  const b2 = emu.requests.length;
  await noCache.knowledgeSearch({ query: QUERIES[0] ?? '' });
  const perFirstUncached = emu.requests.length - b2;

  const p50o = pct(tOurs, 50);
  const p95o = pct(tOurs, 95);
  const p50b = pct(tBare, 50);
  const p95b = pct(tBare, 95);
  const ratio50 = p50o / p50b;
  const ratio95 = p95o / p95b;
  const lines = [
    `warm knowledge_search, ${CALLS} calls each, alternated (node ${process.version})`,
    `  ShunongClient   p50 ${fmt(p50o)}  p95 ${fmt(p95o)}`,
    `  bare SDK Client p50 ${fmt(p50b)}  p95 ${fmt(p95b)}`,
    `  ratio p50 ${ratio50.toFixed(3)}  p95 ${ratio95.toFixed(3)}  (goal ≤ 1.10: ${ratio50 <= 1.1 ? 'met' : 'NOT met'})`,
    `HTTP requests per warm call: ${perWarm.toFixed(2)} (goal 1: ${perWarm === 1 ? 'met' : 'NOT met'})`,
    `HTTP requests of a first call with a cached tool list: ${perFirstCached} (goal ≤ 3: ${perFirstCached <= 3 ? 'met' : 'NOT met'})`,
    `HTTP requests of a first call without a cached tool list: ${perFirstUncached}`,
  ];
  process.stdout.write(lines.join('\n') + '\n');

  await Promise.all([ours.close(), cold.close(), noCache.close(), bare.close()]);
  await emu.close();
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`client bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  },
);
