/**
 * "Verify Citations" bench (`npm run bench -- verify`).
 *
 * A generated workspace of 200 bulletins citing 300 distinct sources of the local endpoint's ×60
 * knowledge base (each source cited in two bulletins; 30 of them as inline citations, the rest as
 * footnotes with their definitions; each snippet is the passage's text). Measured in one run:
 * - knowledge_search calls on the first run (goal 300 + 1: one per source and one over all bases)
 *   and on a second run the same day with the outcomes kept (goal 0), counted by the endpoint;
 * - the share of sources verified (goal 100 %: they are all real passages);
 * - the time of a first run (sources collected from the 200 parsed bulletins, then looked up)
 *   against the same 300 searches as bare SDK `callTool`s at concurrency 4, alternated, median of
 *   BENCH_ROUNDS (default 5) rounds each (goal ≤ 1.2×).
 */
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { analyzeDocument, formatDefinition, formatInlineCitation } from '../src/citations/index';
import { verifySources, VERIFY_TOP_K } from '../src/citations/verify';
import { VerifyCache } from '../src/citations/verifyCache';
import { collectSources, type VerifySource } from '../src/citations/verifySources';
import { ShunongClient } from '../src/shunong';
import { DEFAULT_KNOWLEDGE_DIR, RetrievalEngine, startEmulator } from '../test/emulator/server';
import { sized } from './smoke.mjs';

const KEY = 'sk_local_demo';
// smoke mode: 20 bulletins citing 30 sources (3 inline) of a ×3 base, one round
const BULLETINS = sized(200, 20);
const SOURCES = sized(300, 30);
const INLINE = sized(30, 3);
const SCALE = sized(60, 3);
const ROUNDS = Math.max(1, Number(process.env['BENCH_ROUNDS'] ?? sized(5, 1)));

interface Picked {
  docName: string;
  chunkIndex: number;
  content: string;
  kbCode: string;
  kbName: string;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** 300 passages spread over the whole ×60 corpus. */
function pick(engine: RetrievalEngine): Picked[] {
  const step = engine.passages.length / SOURCES;
  return Array.from({ length: SOURCES }, (_, i) => {
    const p = engine.passages[Math.floor(i * step)]!;
    const kb = engine.kbs[p.kb]!;
    return { docName: p.docName, chunkIndex: p.chunkIndex, content: p.content, kbCode: kb.code, kbName: kb.name };
  });
}

/** Bulletin `b` cites sources 3b/2 … (each source twice over the 200 bulletins). */
function bulletins(sources: Picked[]): string[] {
  return Array.from({ length: BULLETINS }, (_, b) => {
    const cited = [0, 1, 2].map((j) => (b * 3 + j) % SOURCES);
    const body: string[] = [`# 简报 ${b + 1}`, ''];
    const defs: string[] = [];
    cited.forEach((k, j) => {
      const s = sources[k]!;
      if (k < INLINE) body.push(`> ${s.content}${formatInlineCitation(s)}`, '');
      else {
        body.push(`> ${s.content}[^${j + 1}]`, '');
        defs.push(formatDefinition(String(j + 1), s));
      }
    });
    return [...body, '## 参考资料', '', ...defs, ''].join('\n');
  });
}

function collect(texts: string[]): VerifySource[] {
  return collectSources(texts.map((text, i) => ({ file: `b${i}.md`, text, model: analyzeDocument(text) })));
}

async function main(): Promise<number> {
  const t0 = performance.now();
  const engine = RetrievalEngine.fromDirectory(DEFAULT_KNOWLEDGE_DIR, SCALE);
  const emu = await startEmulator({ engine });
  const indexMs = performance.now() - t0;
  const picked = pick(engine);
  const texts = bulletins(picked);
  const ours = new ShunongClient({ endpoint: emu.url, getKey: () => KEY });
  const bare = new Client({ name: 'bench-bare', version: '1' }, { capabilities: {} });
  bare.onerror = () => undefined;
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
  const now = (): number => Date.parse('2026-12-01T01:00:00Z');
  const search = ours.knowledgeSearch.bind(ours);
  const calls = (): number => emu.requests.filter((r) => r.rpcMethod === 'tools/call').length;

  // First and second run: requests and verified share.
  const cache = new VerifyCache();
  const c0 = calls();
  const sources = collect(texts);
  const first = await verifySources(sources, {
    search: (a, signal) => search(a, signal ? { signal } : {}),
    cache,
    now,
  });
  const firstCalls = calls() - c0;
  const verified = first.results.filter((r) => r.outcome.status === 'verified').length;
  const c1 = calls();
  const second = await verifySources(collect(texts), { search: (a) => search(a), cache, now });
  const secondCalls = calls() - c1;
  const others = first.results.filter((r) => r.outcome.status !== 'verified');

  // The same 300 searches, bare, at concurrency 4.
  const args = sources.map((s) => ({
    query: s.citedText,
    ...(s.kbCode !== undefined ? { kbCode: s.kbCode } : {}),
    topK: VERIFY_TOP_K,
    scoreThreshold: 0,
  }));
  const runBare = async (): Promise<void> => {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < args.length) {
        const a = args[next++]!;
        const r = await bare.callTool({ name: 'knowledge_search', arguments: a });
        const text = (r.content as { text?: string }[])[0]?.text ?? '';
        if (r.isError || !(JSON.parse(text) as { sources: unknown[] }).sources.length) throw new Error('no sources');
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
  };
  const runOurs = async (): Promise<void> => {
    const r = await verifySources(collect(texts), { search: (a) => search(a), cache: new VerifyCache(), now });
    if (r.results.some((x) => x.outcome.status !== 'verified')) throw new Error('not all verified');
  };
  await runBare();
  await runOurs();
  const tOurs: number[] = [];
  const tBare: number[] = [];
  const timed = async (fn: () => Promise<void>, into: number[]): Promise<void> => {
    const t = performance.now();
    await fn();
    into.push(performance.now() - t);
  };
  for (let i = 0; i < ROUNDS; i++) {
    if (i % 2 === 0) {
      await timed(runOurs, tOurs);
      await timed(runBare, tBare);
    } else {
      await timed(runBare, tBare);
      await timed(runOurs, tOurs);
    }
  }
  const tCollect: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    collect(texts);
    tCollect.push(performance.now() - t);
  }
  const ratio = median(tOurs) / median(tBare);
  const uses = sources.reduce((n, s) => n + s.uses.length, 0);
  const lines = [
    `${BULLETINS} bulletins, ${sources.length} distinct sources (${uses} uses, ${INLINE} inline), ×${SCALE} knowledge base of ${engine.passages.length} passages (indexed in ${(indexMs / 1000).toFixed(1)} s)`,
    `knowledge_search calls, first run: ${firstCalls} (report: ${first.requests}) (goal ${SOURCES + 1}: ${firstCalls === SOURCES + 1 ? 'met' : 'NOT met'})`,
    `knowledge_search calls, second run the same day: ${secondCalls} (goal 0: ${secondCalls === 0 && second.requests === 0 ? 'met' : 'NOT met'})`,
    `verified: ${verified} of ${sources.length} (${((verified / sources.length) * 100).toFixed(1)} %) (goal 100 %: ${verified === sources.length ? 'met' : 'NOT met'})${others.length ? `; not verified: ${others.map((r) => `${r.source.citation} ${r.outcome.status}`).join(', ')}` : ''}`,
    `first run (collect + verify) vs ${args.length} bare callTool at concurrency 4, median of ${ROUNDS} alternated: ${median(tOurs).toFixed(1)} vs ${median(tBare).toFixed(1)} ms, ratio ${ratio.toFixed(2)} (goal ≤ 1.2: ${ratio <= 1.2 ? 'met' : 'NOT met'})`,
    `  of which parsing the ${BULLETINS} bulletins and collecting their sources: ${median(tCollect).toFixed(1)} ms (median of ${ROUNDS})`,
    `  rounds ours: ${tOurs.map((t) => t.toFixed(0)).join(', ')} ms; bare: ${tBare.map((t) => t.toFixed(0)).join(', ')} ms`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
  await Promise.all([ours.close(), bare.close()]);
  await emu.close();
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`verify bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  },
);
