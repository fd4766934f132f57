/**
 * Query composition per the vendor's advice: "作物 + 生育期 + 农事环节" (crop + growth stage + farm
 * task), then the author's own words, always in Chinese terms; plus the knowledge base the crop implies.
 */
import { escapeRegExp } from '../text/regExp';
import {
  builtinVocabulary,
  findCrop,
  findStage,
  findTask,
  type Crop,
  type Stage,
  type Task,
  type Vocabulary,
} from './vocabulary';

/** What the guided flow collected. Strings are resolved through the vocabulary (id, label or alias). */
export interface QuerySelection {
  readonly crop?: Crop | string;
  readonly stage?: Stage | string;
  readonly task?: Task | string;
  readonly words?: string;
}

/** A composed query, the entries it was built from and the knowledge base the crop implies. */
export interface ComposedQuery {
  /** Space-separated zh-CN terms, e.g. `茶树 驻芽期 修剪 要点`. */
  readonly query: string;
  readonly kbCode?: string;
  readonly kbName?: string;
  readonly crop?: Crop;
  readonly stage?: Stage;
  readonly task?: Task;
}

/**
 * Composes "crop stage task words". Vocabulary entries contribute their zh-CN label; a string that
 * is not in the vocabulary is used as typed. Whitespace is collapsed, and a word of `words` that
 * repeats an earlier term is dropped. Skipped steps contribute nothing.
 *
 * @example composeQuery({ crop: 'tea', stage: '驻芽期', task: 'pruning', words: '要点' }).query === '茶树 驻芽期 修剪 要点'
 */
export function composeQuery(selection: QuerySelection, vocabulary: Vocabulary = builtinVocabulary()): ComposedQuery {
  const crop = resolve(selection.crop, (n) => findCrop(vocabulary, n));
  const stage = resolve(selection.stage, (n) => findStage(vocabulary, n, crop.entry));
  const task = resolve(selection.task, (n) => findTask(vocabulary, n));
  const terms: string[] = [];
  for (const t of [crop.term, stage.term, task.term, ...splitWords(selection.words ?? '')]) {
    if (t !== '' && !terms.includes(t)) terms.push(t);
  }
  return {
    query: terms.join(' '),
    ...(crop.entry?.kbCode !== undefined ? { kbCode: crop.entry.kbCode } : {}),
    ...(crop.entry?.kbName !== undefined ? { kbName: crop.entry.kbName } : {}),
    ...(crop.entry ? { crop: crop.entry } : {}),
    ...(stage.entry ? { stage: stage.entry } : {}),
    ...(task.entry ? { task: task.entry } : {}),
  };
}

/**
 * Finds the crop, stage and task a free-text query mentions (longest crop name first, so
 * `玉米大豆带状复合种植` wins over `玉米`), e.g. to pass the implied kbCode on a free-text search or
 * to prefill the guided steps when refining.
 */
export function detectSelection(query: string, vocabulary: Vocabulary = builtinVocabulary()): ComposedQuery {
  const crop = longestMention(query, vocabulary.crops);
  const stage = longestMention(query, crop ? crop.stages : vocabulary.crops.flatMap((c) => c.stages));
  const task = longestMention(query, vocabulary.tasks);
  return {
    query: splitWords(query).join(' '),
    ...(crop?.kbCode !== undefined ? { kbCode: crop.kbCode } : {}),
    ...(crop?.kbName !== undefined ? { kbName: crop.kbName } : {}),
    ...(crop ? { crop } : {}),
    ...(stage ? { stage } : {}),
    ...(task ? { task } : {}),
  };
}

function resolve<T extends Crop | Stage | Task>(
  value: T | string | undefined,
  find: (name: string) => T | undefined,
): { entry?: T; term: string } {
  if (value === undefined) return { term: '' };
  if (typeof value !== 'string') return { entry: value, term: value.labels['zh-CN'] };
  const entry = find(value);
  return entry ? { entry, term: entry.labels['zh-CN'] } : { term: value.trim().replace(/\s+/g, ' ') };
}

function splitWords(words: string): string[] {
  return words.split(/\s+/).filter((w) => w !== '');
}

function longestMention<T extends Crop | Stage | Task>(text: string, entries: readonly T[]): T | undefined {
  const lower = text.toLowerCase();
  let best: T | undefined;
  let bestLength = 0;
  for (const e of entries) {
    for (const name of [e.labels['zh-CN'], ...e.aliases]) {
      // ASCII aliases must match whole words; Chinese names match as substrings.
      const found = /^[\x20-\x7e]+$/.test(name)
        ? new RegExp(`(^|[^a-z0-9])${escapeRegExp(name.toLowerCase())}($|[^a-z0-9])`).test(lower)
        : text.includes(name);
      if (found && name.length > bestLength) {
        best = e;
        bestLength = name.length;
      }
    }
  }
  return best;
}
