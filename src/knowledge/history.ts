/**
 * The search history, the pinned passages and the knowledge bases seen so far: plain data, its
 * (de)serialisation for workspace state and the small operations on it. Pure: no `vscode`, no zod
 * (so it stays out of the heavy bundles and loads at activation for the browser view).
 */
import type { CitedPassage } from '../citations/passage';
import type { FoundBy } from './rrfReading';
import { splitJoined, type SearchArgs } from './types';

/** How a passage's score is shown, decided when it was retrieved (see `score.ts`). */
export interface ScoreView {
  /** 1-based rank in the list shown (the server's order, or the fused order). */
  readonly rank: number;
  readonly of: number;
  /** RRF lists: which retrievers likely found the passage (see `rrfReading.ts`). */
  readonly found?: FoundBy;
  /** The score threshold the search ran with, when it passed one. */
  readonly threshold?: number;
  /**
   * The usual threshold (`shunong.knowledge.scoreThreshold`) when the passage came only because the
   * search ran under it: a similarity under it, or any passage of a lowered-threshold search that
   * the full-text search alone cannot explain.
   */
  readonly belowUsual?: number;
  /** When the list was a fusion of several knowledge bases: how many of them found the passage. */
  readonly foundIn?: number;
  readonly lists?: number;
}

/** A retrieved passage with its display data. */
export interface StoredPassage {
  readonly passage: CitedPassage;
  readonly view: ScoreView;
}

/** The arguments a search ran with: knowledge_search's arguments, camelCase as on MCP. */
export type SearchOptions = SearchArgs;

/** One search of the history, with what it found. */
export interface SearchRecord {
  readonly id: string;
  readonly options: SearchOptions;
  /** ISO 8601. */
  readonly at: string;
  /** The knowledge bases searched (codes); several when fused. */
  readonly kbCodes: readonly string[];
  readonly passages: readonly StoredPassage[];
}

/** A knowledge base seen in results. */
export interface SeenKnowledgeBase {
  readonly code: string;
  readonly name?: string;
}

/** Everything persisted per workspace. */
export interface KnowledgeState {
  readonly version: 1;
  readonly history: readonly SearchRecord[];
  readonly pins: readonly CitedPassage[];
  readonly bases: readonly SeenKnowledgeBase[];
  /** True once a search over all of the account's bases told us which ones it has. */
  readonly basesListed: boolean;
}

/** How many searches the history keeps. */
export const HISTORY_LIMIT = 30;

/** The empty state. */
export function emptyState(): KnowledgeState {
  return { version: 1, history: [], pins: [], bases: [], basesListed: false };
}

/** `doc_name#chunk_index`. */
export function keyOf(p: Pick<CitedPassage, 'docName' | 'chunkIndex'>): string {
  return `${p.docName}#${p.chunkIndex}`;
}

/** The identity of a passage in a knowledge base: `kb_code/doc_name#chunk_index`. */
export function idOf(p: Pick<CitedPassage, 'docName' | 'chunkIndex' | 'kbCode'>): string {
  return `${p.kbCode}/${keyOf(p)}`;
}

/** Adds a search at the top of the history; an older search with the same options is replaced. */
export function addSearch(state: KnowledgeState, record: SearchRecord): KnowledgeState {
  const same = optionsKey(record.options);
  const rest = state.history.filter((r) => optionsKey(r.options) !== same && r.id !== record.id);
  return { ...state, history: [record, ...rest].slice(0, HISTORY_LIMIT) };
}

/** Removes one search. */
export function removeSearch(state: KnowledgeState, id: string): KnowledgeState {
  return { ...state, history: state.history.filter((r) => r.id !== id) };
}

/** Pins a passage (no duplicate; the newest pin first). */
export function pin(state: KnowledgeState, passage: CitedPassage): KnowledgeState {
  const id = idOf(passage);
  return { ...state, pins: [passage, ...state.pins.filter((p) => idOf(p) !== id)] };
}

/** Unpins a passage. */
export function unpin(
  state: KnowledgeState,
  passage: Pick<CitedPassage, 'docName' | 'chunkIndex' | 'kbCode'>,
): KnowledgeState {
  const id = idOf(passage);
  return { ...state, pins: state.pins.filter((p) => idOf(p) !== id) };
}

/** True when the passage is pinned. */
export function isPinned(
  state: KnowledgeState,
  passage: Pick<CitedPassage, 'docName' | 'chunkIndex' | 'kbCode'>,
): boolean {
  const id = idOf(passage);
  return state.pins.some((p) => idOf(p) === id);
}

/**
 * Records knowledge bases from a result's `kb_code` / `kb_name` (comma-joined lists in the same
 * order when several were searched). `listed` marks the answer of a search over all the account's bases.
 */
export function observeBases(state: KnowledgeState, kbCode: string, kbName: string, listed = false): KnowledgeState {
  const codes = splitJoined(kbCode);
  const names = splitJoined(kbName);
  const bases = [...state.bases];
  codes.forEach((code, i) => {
    if (code === '') return;
    const name = names[i] || undefined;
    const at = bases.findIndex((b) => b.code === code);
    if (at === -1) bases.push(name === undefined ? { code } : { code, name });
    else if (name !== undefined) bases[at] = { code, name };
  });
  return { ...state, bases, basesListed: state.basesListed || listed };
}

/** Every passage the state holds (history then pins), by {@link idOf}; the first found wins. */
export function findPassage(state: KnowledgeState, id: string): CitedPassage | undefined {
  for (const r of state.history) for (const s of r.passages) if (idOf(s.passage) === id) return s.passage;
  return state.pins.find((p) => idOf(p) === id);
}

/** Clears the history (pins and bases stay). */
export function clearHistory(state: KnowledgeState): KnowledgeState {
  return { ...state, history: [] };
}

/** Clears the pins. */
export function clearPins(state: KnowledgeState): KnowledgeState {
  return { ...state, pins: [] };
}

function optionsKey(o: SearchOptions): string {
  return JSON.stringify([
    o.query.trim(),
    o.kbCode ?? '',
    o.topK ?? null,
    o.scoreThreshold ?? null,
    o.useRerank ?? null,
    o.mode ?? null,
  ]);
}

// ---- reading persisted state (never trusts it) ----

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Reads a persisted passage; undefined when malformed. */
function readPassage(v: unknown): CitedPassage | undefined {
  if (!isObj(v)) return undefined;
  const docName = str(v.docName);
  const chunkIndex = num(v.chunkIndex);
  const content = str(v.content);
  const kbCode = str(v.kbCode);
  const kbName = str(v.kbName);
  const query = str(v.query);
  const score = num(v.score);
  const scoreType = str(v.scoreType);
  const retrievedAt = str(v.retrievedAt);
  if (!docName || chunkIndex === undefined || !Number.isInteger(chunkIndex) || chunkIndex < 0) return undefined;
  if (content === undefined || !kbCode || kbName === undefined || query === undefined || score === undefined)
    return undefined;
  if (scoreType === undefined || retrievedAt === undefined) return undefined;
  return { docName, chunkIndex, content, kbCode, kbName, query, score, scoreType, retrievedAt };
}

const FOUND: readonly FoundBy[] = ['both', 'one', 'vector', 'fulltext', 'unknown'];

function readView(v: unknown): ScoreView | undefined {
  if (!isObj(v)) return undefined;
  const rank = num(v.rank);
  const of = num(v.of);
  if (rank === undefined || of === undefined) return undefined;
  const found = FOUND.find((f) => f === v.found);
  const threshold = num(v.threshold);
  const belowUsual = num(v.belowUsual);
  const foundIn = num(v.foundIn);
  const lists = num(v.lists);
  return {
    rank,
    of,
    ...(found !== undefined ? { found } : {}),
    ...(threshold !== undefined ? { threshold } : {}),
    ...(belowUsual !== undefined ? { belowUsual } : {}),
    ...(foundIn !== undefined ? { foundIn } : {}),
    ...(lists !== undefined ? { lists } : {}),
  };
}

function readOptions(v: unknown): SearchOptions | undefined {
  if (!isObj(v)) return undefined;
  const query = str(v.query);
  if (!query) return undefined;
  const kbCode = str(v.kbCode);
  const topK = num(v.topK);
  const scoreThreshold = num(v.scoreThreshold);
  const mode = v.mode === 'hybrid' || v.mode === 'vector' ? v.mode : undefined;
  return {
    query,
    ...(kbCode ? { kbCode } : {}),
    ...(topK !== undefined ? { topK } : {}),
    ...(scoreThreshold !== undefined ? { scoreThreshold } : {}),
    ...(typeof v.useRerank === 'boolean' ? { useRerank: v.useRerank } : {}),
    ...(mode ? { mode } : {}),
  };
}

function readRecord(v: unknown): SearchRecord | undefined {
  if (!isObj(v)) return undefined;
  const id = str(v.id);
  const at = str(v.at);
  const options = readOptions(v.options);
  if (!id || !at || !options) return undefined;
  const kbCodes = Array.isArray(v.kbCodes)
    ? v.kbCodes.filter((c): c is string => typeof c === 'string' && c !== '')
    : [];
  const passages: StoredPassage[] = [];
  for (const s of Array.isArray(v.passages) ? v.passages : []) {
    if (!isObj(s)) continue;
    const passage = readPassage(s.passage);
    const view = readView(s.view);
    if (passage && view) passages.push({ passage, view });
  }
  return { id, options, at, kbCodes, passages };
}

/** Reads persisted state; whatever is unreadable is dropped, never thrown. */
export function readState(v: unknown): KnowledgeState {
  if (!isObj(v) || v.version !== 1) return emptyState();
  const history = (Array.isArray(v.history) ? v.history : [])
    .map(readRecord)
    .filter((r): r is SearchRecord => r !== undefined);
  const pins = (Array.isArray(v.pins) ? v.pins : []).map(readPassage).filter((p): p is CitedPassage => p !== undefined);
  const bases: SeenKnowledgeBase[] = [];
  for (const b of Array.isArray(v.bases) ? v.bases : []) {
    if (!isObj(b)) continue;
    const code = str(b.code)?.trim();
    const name = str(b.name)?.trim();
    if (code && !bases.some((x) => x.code === code)) bases.push(name ? { code, name } : { code });
  }
  return { version: 1, history: history.slice(0, HISTORY_LIMIT), pins, bases, basesListed: v.basesListed === true };
}
