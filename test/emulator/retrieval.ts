/**
 * The retrieval engine behind `knowledge_search`: precomputed inverted indexes, built once.
 *
 * - Full text: BM25 (k1 = 1.2, b = 0.75) over @node-rs/jieba search-mode segmentation. A passage is a
 *   full-text match when it contains at least 75 % (rounded up) of the query's distinct terms
 *   (like Elasticsearch's `minimum_should_match: 75%`); matches are ranked by BM25, at most 32 kept.
 * - Vector: cosine between character 1–3-gram TF-IDF vectors (sublinear tf, smoothed idf, L2
 *   normalised), computed through postings, so only passages sharing an n-gram with the query are
 *   touched. The best 32 are the vector candidates. Raw cosine is calibrated to an embedding-like
 *   scale by the monotonic map `calibrate(c) = 1 − 0.55·exp(−c / 0.16)` (0 → 0.45, 0.097 → 0.70,
 *   0.3 → 0.915, 1 → 0.999).
 * - `scoreThreshold` filters the vector candidates by calibrated cosine before fusion; full-text
 *   matches are kept. Hybrid fuses both lists with RRF, k = 60 (rank from 1).
 * - Rerank (optional): the top 20 fused results are re-scored by a finer measure, the mean of the
 *   query-term coverage (jieba tokens) and the Dice coefficient of character bigrams, and reordered.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Jieba } from '@node-rs/jieba';
import { dict } from '@node-rs/jieba/dict';

/** One knowledge base file (`test/emulator/kb/*.json`). */
export interface KbFile {
  kb_code: string;
  kb_name: string;
  documents: { doc_name: string; chunks: string[] }[];
}

/** One indexed passage. */
export interface Passage {
  kb: number;
  docName: string;
  chunkIndex: number;
  content: string;
}

/** Search parameters (already validated). */
export interface SearchParams {
  query: string;
  /** Knowledge-base codes to search; undefined = all. */
  kbCodes?: string[] | undefined;
  topK: number;
  scoreThreshold: number;
  useRerank: boolean;
  mode: 'hybrid' | 'vector';
}

/** One source in a result. */
export interface SearchSource {
  doc_name: string;
  chunk_index: number;
  content: string;
  score: number;
  rerank_score?: number;
}

/** The tool payload on a hit. */
export interface SearchResult {
  kb_code: string;
  kb_name: string;
  query: string;
  mode: 'hybrid' | 'vector';
  score_type: string;
  total: number;
  counts: { vector: number; fulltext: number; hybrid: number; rerank: number };
  sources: SearchSource[];
  warnings: string[];
}

/** A search either hits or fails with the vendor's reason text (second line of the failure). */
export type SearchOutcome = { ok: true; result: SearchResult } | { ok: false; reason: string };

/** Candidates taken from each list. */
export const CANDIDATES = 32;
/** RRF constant. */
export const RRF_K = 60;
/** How many fused results the reranker re-scores. */
export const RERANK_TOP = 20;
const BM25_K1 = 1.2;
const BM25_B = 0.75;

/** The documented calibration from raw n-gram cosine to an embedding-like similarity. */
export function calibrate(rawCosine: number): number {
  return 1 - 0.55 * Math.exp(-Math.max(0, rawCosine) / 0.16);
}

let jiebaInstance: Jieba | undefined;
/** The shared segmenter (loading the dictionary takes a few hundred ms). */
export function jieba(): Jieba {
  jiebaInstance ??= Jieba.withDict(dict);
  return jiebaInstance;
}

const STOP = new Set(
  '的 了 和 与 及 或 在 是 对 等 也 要 把 将 可 以 时 中 后 前 为 并 从 到 由 于 其 该 这 那 有 不 就 都 而 又 上 下 个 如 用 被 给 让 使 吗 呢 啊 什么 怎么 如何 哪些 进行 一个'.split(
    ' ',
  ),
);
const WORDISH = /[\p{Script=Han}\p{L}\p{N}]/u;

/** Full-text terms of a text: jieba search-mode tokens without punctuation or stop words. */
export function fullTextTerms(text: string): string[] {
  return jieba()
    .cutForSearch(text, true)
    .map((t) => t.trim().toLowerCase())
    .filter((t) => t.length > 0 && WORDISH.test(t) && !STOP.has(t));
}

/** Query terms (precise mode, deduplicated). */
function queryTerms(text: string): string[] {
  const terms = jieba()
    .cut(text, true)
    .map((t) => t.trim().toLowerCase())
    .filter((t) => t.length > 0 && WORDISH.test(t) && !STOP.has(t));
  return [...new Set(terms)];
}

/** Character 1–3-grams with counts; punctuation and spaces split runs. */
export function charNgrams(text: string): Map<string, number> {
  const out = new Map<string, number>();
  const runs = text.toLowerCase().split(/[^\p{Script=Han}\p{L}\p{N}]+/u);
  for (const run of runs) {
    const chars = [...run];
    for (let i = 0; i < chars.length; i++) {
      let g = '';
      for (let n = 1; n <= 3 && i + n <= chars.length; n++) {
        g += chars[i + n - 1];
        out.set(g, (out.get(g) ?? 0) + 1);
      }
    }
  }
  return out;
}

interface Postings {
  docs: Int32Array;
  weights: Float32Array;
}

function buildPostings(
  perDoc: Map<string, number>[],
  weight: (term: string, tf: number, doc: number) => number,
): Map<string, Postings> {
  const lists = new Map<string, { docs: number[]; weights: number[] }>();
  perDoc.forEach((terms, doc) => {
    for (const [term, tf] of terms) {
      let l = lists.get(term);
      if (!l) lists.set(term, (l = { docs: [], weights: [] }));
      l.docs.push(doc);
      l.weights.push(weight(term, tf, doc));
    }
  });
  const out = new Map<string, Postings>();
  for (const [term, l] of lists)
    out.set(term, { docs: Int32Array.from(l.docs), weights: Float32Array.from(l.weights) });
  return out;
}

function count<T>(items: Iterable<T>): Map<T, number> {
  const m = new Map<T, number>();
  for (const it of items) m.set(it, (m.get(it) ?? 0) + 1);
  return m;
}

const REGIONS = [
  '川西',
  '川南',
  '川东',
  '川北',
  '成都平原',
  '盆周山区',
  '攀西',
  '江汉平原',
  '黄淮海',
  '长江中下游',
  '西南丘陵',
  '云贵高原',
];

/** Makes the generated variant `copy` (1-based) of a knowledge base, used to scale the corpus for the bench. */
export function variantOf(kb: KbFile, copy: number): KbFile {
  const region = REGIONS[copy % REGIONS.length] ?? '';
  return {
    kb_code: kb.kb_code,
    kb_name: kb.kb_name,
    documents: kb.documents.map((d) => ({
      doc_name: d.doc_name.replace(/(\.[^.]+)?$/, (ext) => `（${region}版${copy}）${ext}`),
      chunks: d.chunks.map((c) => {
        const sentences = c.split(/(?<=[。；！？])/u).filter((s) => s.length > 0);
        const k = sentences.length > 0 ? copy % sentences.length : 0;
        return `【${region}】` + [...sentences.slice(k), ...sentences.slice(0, k)].join('');
      }),
    })),
  };
}

/** Reads every `*.json` knowledge base of a directory, sorted by file name. */
export function loadKnowledgeDir(dir: string): KbFile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as KbFile);
}

/** The account's knowledge-base order. Bases not listed follow in file order. */
export const KB_ORDER = ['TEA_MANAGER_001', 'Strip_Intercropping', 'RICE_001', 'CORN_001', 'SOYBEAN_001', 'WHEAT_001'];

/** Knowledge bases in the account's order. */
export function orderKbs(kbs: KbFile[]): KbFile[] {
  const rank = (c: string): number => {
    const i = KB_ORDER.indexOf(c);
    return i < 0 ? KB_ORDER.length : i;
  };
  return kbs
    .map((kb, i) => ({ kb, i }))
    .sort((a, b) => rank(a.kb.kb_code) - rank(b.kb.kb_code) || a.i - b.i)
    .map((x) => x.kb);
}

/** Keeps the best `n` (index, score) pairs by score, ties by lower index. */
function topN(indices: Iterable<number>, score: (i: number) => number, n: number): { i: number; s: number }[] {
  const best: { i: number; s: number }[] = [];
  for (const i of indices) {
    const s = score(i);
    if (best.length === n && s <= (best[n - 1]?.s ?? -Infinity)) continue;
    let pos = best.length;
    while (pos > 0 && (best[pos - 1]?.s ?? 0) < s) pos--;
    best.splice(pos, 0, { i, s });
    if (best.length > n) best.pop();
  }
  return best;
}

function round4(v: number): number {
  return Math.round(v * 10_000) / 10_000;
}

function bigrams(text: string): Set<string> {
  const s = new Set<string>();
  const chars = [...text.replace(/[^\p{Script=Han}\p{L}\p{N}]+/gu, '')];
  for (let i = 0; i + 1 < chars.length; i++) s.add(`${chars[i]}${chars[i + 1]}`);
  return s;
}

/** Inverted-index retrieval over the knowledge bases. */
export class RetrievalEngine {
  readonly kbs: { code: string; name: string }[];
  readonly passages: Passage[] = [];
  private readonly kbOfCode = new Map<string, number>();
  private readonly vectorPostings: Map<string, Postings>;
  private readonly vectorIdf = new Map<string, number>();
  private readonly textPostings: Map<string, Postings>;
  private readonly textIdf = new Map<string, number>();
  private readonly maxVectorIdf: number;
  private readonly scratch: Float64Array;
  private readonly hits: Int32Array;
  private readonly stamp: Int32Array;
  private generation = 0;

  /** Indexes `kbs` (put in the account's order); `scale` > 1 adds generated variants of every document. */
  constructor(kbs: KbFile[], scale = 1) {
    const ordered = orderKbs(kbs);
    this.kbs = ordered.map((kb) => ({ code: kb.kb_code, name: kb.kb_name }));
    ordered.forEach((kb, k) => {
      this.kbOfCode.set(kb.kb_code, k);
      for (let copy = 0; copy < Math.max(1, scale); copy++) {
        const src = copy === 0 ? kb : variantOf(kb, copy);
        for (const d of src.documents)
          d.chunks.forEach((content, chunkIndex) =>
            this.passages.push({ kb: k, docName: d.doc_name, chunkIndex, content }),
          );
      }
    });
    const n = this.passages.length;
    // Vector index.
    const grams = this.passages.map((p) => charNgrams(p.content));
    const df = new Map<string, number>();
    for (const g of grams) for (const t of g.keys()) df.set(t, (df.get(t) ?? 0) + 1);
    for (const [t, d] of df) this.vectorIdf.set(t, Math.log((n + 1) / (d + 1)) + 1);
    this.maxVectorIdf = Math.log(n + 1) + 1;
    const norms = grams.map((g) => {
      let s = 0;
      for (const [t, tf] of g) s += ((1 + Math.log(tf)) * (this.vectorIdf.get(t) ?? 0)) ** 2;
      return Math.sqrt(s) || 1;
    });
    this.vectorPostings = buildPostings(
      grams,
      (t, tf, doc) => ((1 + Math.log(tf)) * (this.vectorIdf.get(t) ?? 0)) / (norms[doc] ?? 1),
    );
    // Full-text index.
    const terms = this.passages.map((p) => count(fullTextTerms(p.content)));
    const lengths = terms.map((t) => [...t.values()].reduce((a, b) => a + b, 0));
    const avg = lengths.reduce((a, b) => a + b, 0) / Math.max(1, n);
    const tdf = new Map<string, number>();
    for (const t of terms) for (const k of t.keys()) tdf.set(k, (tdf.get(k) ?? 0) + 1);
    for (const [t, d] of tdf) this.textIdf.set(t, Math.log(1 + (n - d + 0.5) / (d + 0.5)));
    this.textPostings = buildPostings(
      terms,
      (_t, tf, doc) =>
        (tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * (lengths[doc] ?? 0)) / (avg || 1))),
    );
    this.scratch = new Float64Array(n);
    this.hits = new Int32Array(n);
    this.stamp = new Int32Array(n);
  }

  /** Loads a directory of knowledge bases and indexes it. */
  static fromDirectory(dir: string, scale = 1): RetrievalEngine {
    return new RetrievalEngine(loadKnowledgeDir(dir), scale);
  }

  /** Resolves knowledge-base codes to indexes; unknown codes are returned separately. */
  resolveKbs(codes: string[] | undefined): { kbs: number[]; unknown: string[] } {
    if (!codes || codes.length === 0) return { kbs: this.kbs.map((_, i) => i), unknown: [] };
    const kbs: number[] = [];
    const unknown: string[] = [];
    for (const c of codes) {
      const k = this.kbOfCode.get(c);
      if (k === undefined) unknown.push(c);
      else if (!kbs.includes(k)) kbs.push(k);
    }
    return { kbs: kbs.sort((a, b) => a - b), unknown };
  }

  /** Vector candidates: the best 32 passages by raw cosine among those sharing an n-gram with the query. */
  vectorCandidates(query: string, allowed: Set<number> | null): { doc: number; cosine: number }[] {
    const q = charNgrams(query);
    let qNorm = 0;
    const qWeights: [Postings, number][] = [];
    for (const [t, tf] of q) {
      const idf = this.vectorIdf.get(t) ?? this.maxVectorIdf;
      const w = (1 + Math.log(tf)) * idf;
      qNorm += w * w;
      const p = this.vectorPostings.get(t);
      if (p) qWeights.push([p, w]);
    }
    qNorm = Math.sqrt(qNorm) || 1;
    const gen = ++this.generation;
    const touched: number[] = [];
    for (const [p, w] of qWeights) {
      const wq = w / qNorm;
      for (let j = 0; j < p.docs.length; j++) {
        const d = p.docs[j] as number;
        if (this.stamp[d] !== gen) {
          this.stamp[d] = gen;
          this.scratch[d] = 0;
          touched.push(d);
        }
        this.scratch[d] = (this.scratch[d] as number) + wq * (p.weights[j] as number);
      }
    }
    const eligible = allowed ? touched.filter((d) => allowed.has(this.passages[d]?.kb ?? -1)) : touched;
    return topN(eligible, (d) => this.scratch[d] as number, CANDIDATES).map((x) => ({ doc: x.i, cosine: x.s }));
  }

  /** Full-text matches: passages holding ≥ 75 % of the query terms, best 32 by BM25. */
  fullTextCandidates(query: string, allowed: Set<number> | null): { doc: number; bm25: number }[] {
    const terms = queryTerms(query);
    if (terms.length === 0) return [];
    const need = Math.ceil(terms.length * 0.75);
    const gen = ++this.generation;
    const touched: number[] = [];
    for (const t of terms) {
      const p = this.textPostings.get(t);
      if (!p) continue;
      const idf = this.textIdf.get(t) ?? 0;
      for (let j = 0; j < p.docs.length; j++) {
        const d = p.docs[j] as number;
        if (this.stamp[d] !== gen) {
          this.stamp[d] = gen;
          this.scratch[d] = 0;
          this.hits[d] = 0;
          touched.push(d);
        }
        this.scratch[d] = (this.scratch[d] as number) + idf * (p.weights[j] as number);
        this.hits[d] = (this.hits[d] as number) + 1;
      }
    }
    const matched = touched.filter(
      (d) => (this.hits[d] as number) >= need && (!allowed || allowed.has(this.passages[d]?.kb ?? -1)),
    );
    return topN(matched, (d) => this.scratch[d] as number, CANDIDATES).map((x) => ({ doc: x.i, bm25: x.s }));
  }

  /** The finer relevance measure used by rerank (0–1). */
  rerankScore(query: string, content: string): number {
    const terms = queryTerms(query);
    const lower = content.toLowerCase();
    const coverage = terms.length ? terms.filter((t) => lower.includes(t)).length / terms.length : 0;
    const a = bigrams(query.toLowerCase());
    const b = bigrams(lower);
    let inter = 0;
    for (const g of a) if (b.has(g)) inter++;
    const dice = a.size + b.size ? (2 * inter) / (a.size + b.size) : 0;
    return 0.5 * coverage + 0.5 * Math.min(1, dice * 4);
  }

  /** Runs a search. Unknown knowledge-base codes are a failure. */
  search(params: SearchParams): SearchOutcome {
    const { kbs, unknown } = this.resolveKbs(params.kbCodes);
    if (unknown.length > 0) return { ok: false, reason: `知识库不存在或未开通: ${unknown.join(',')}` };
    const allowed = kbs.length === this.kbs.length ? null : new Set(kbs);
    const vector = this.vectorCandidates(params.query, allowed);
    const fulltext = params.mode === 'hybrid' ? this.fullTextCandidates(params.query, allowed) : [];
    const threshold = params.scoreThreshold;
    const kept = vector
      .map((v) => ({ doc: v.doc, sim: calibrate(v.cosine) }))
      .filter((v) => threshold <= 0 || v.sim >= threshold);
    let fused: { doc: number; score: number }[];
    if (params.mode === 'vector') {
      fused = kept.map((v) => ({ doc: v.doc, score: v.sim }));
    } else {
      const rrf = new Map<number, number>();
      kept.forEach((v, r) => rrf.set(v.doc, (rrf.get(v.doc) ?? 0) + 1 / (RRF_K + r + 1)));
      fulltext.forEach((f, r) => rrf.set(f.doc, (rrf.get(f.doc) ?? 0) + 1 / (RRF_K + r + 1)));
      fused = [...rrf].map(([doc, score]) => ({ doc, score })).sort((a, b) => b.score - a.score || a.doc - b.doc);
    }
    if (fused.length === 0) {
      const best = vector.length ? calibrate(vector[0]?.cosine ?? 0) : 0;
      const filtered =
        vector.length > 0 && threshold > 0
          ? `score_threshold=${threshold} 过滤掉全部 ${vector.length} 条候选(最高分 ${best.toFixed(4)}), 可降低阈值或传 0 关闭过滤。`
          : '';
      return {
        ok: false,
        reason: `知识库未命中相关片段(候选: 向量 ${vector.length} 条 / 全文 ${fulltext.length} 条); ${filtered}可改用更具体的关键词或同义词重试, 或适当降低 score_threshold; 在获得命中内容前不要编造引用`,
      };
    }
    let rerankCount = 0;
    let ranked: { doc: number; score: number; rerank?: number }[] = fused;
    if (params.useRerank) {
      const head = fused
        .slice(0, RERANK_TOP)
        .map((f) => ({ ...f, rerank: this.rerankScore(params.query, this.passages[f.doc]?.content ?? '') }));
      rerankCount = head.length;
      head.sort((a, b) => b.rerank - a.rerank || b.score - a.score);
      ranked = [...head, ...fused.slice(RERANK_TOP)];
    }
    const sources: SearchSource[] = ranked.slice(0, params.topK).map((f) => {
      const p = this.passages[f.doc] as Passage;
      const s: SearchSource = {
        doc_name: p.docName,
        chunk_index: p.chunkIndex,
        content: p.content,
        score: round4(f.score),
      };
      if (f.rerank !== undefined) s.rerank_score = round4(f.rerank);
      return s;
    });
    return {
      ok: true,
      result: {
        kb_code: kbs.map((k) => this.kbs[k]?.code).join(','),
        kb_name: kbs.map((k) => this.kbs[k]?.name).join(','),
        query: params.query,
        mode: params.mode,
        score_type: params.mode === 'hybrid' ? 'rrf(≈1/(60+rank), 仅用于排序)' : 'cosine_similarity(0~1)',
        total: sources.length,
        counts: { vector: vector.length, fulltext: fulltext.length, hybrid: fused.length, rerank: rerankCount },
        sources,
        warnings: params.useRerank ? [] : ['Rerank 精排已手动关闭'],
      },
    };
  }
}
