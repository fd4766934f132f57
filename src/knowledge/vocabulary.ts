/**
 * The guided-search vocabulary: crops (each with its knowledge base and growth stages) and farm
 * tasks, in zh-CN and en. The built-in data is `vocabulary.json`; the `shunong.knowledge.vocabulary`
 * setting, in the same format, can add crops, stages and tasks. Queries are always composed from the
 * zh-CN labels, because the knowledge bases are Chinese.
 */
import { z } from 'zod';
import builtinData from './vocabulary.json';
import { langOf } from '../text/words';
import { msg, type Message } from './messages';

/** The two label languages of the vocabulary. */
export type VocabularyLocale = 'zh-CN' | 'en';

/** Labels of an entry. `zh-CN` is also the term used in queries. */
export interface Labels {
  readonly 'zh-CN': string;
  readonly en: string;
}

/** Common shape of crops, stages and tasks. */
export interface VocabularyEntry {
  readonly id: string;
  readonly labels: Labels;
  /** Other names that find this entry (matching only; never put in a query). */
  readonly aliases: readonly string[];
}

/** A growth stage of one crop. */
export type Stage = VocabularyEntry;

/** A crop, the knowledge base that covers it (when known) and its growth stages in order. */
export interface Crop extends VocabularyEntry {
  readonly kbCode?: string;
  readonly kbName?: string;
  readonly stages: readonly Stage[];
}

/** A farm task. `crops` (crop ids) limits where it is offered; absent = every crop. */
export interface Task extends VocabularyEntry {
  readonly crops?: readonly string[];
}

/** The whole vocabulary. */
export interface Vocabulary {
  readonly crops: readonly Crop[];
  readonly tasks: readonly Task[];
}

/** A part of the user's setting that was ignored, with where it was and a message to show. */
export interface VocabularyWarning {
  readonly path: string;
  readonly message: Message;
}

/** The result of {@link loadVocabulary}: the merged vocabulary and what was ignored. */
export interface LoadedVocabulary {
  readonly vocabulary: Vocabulary;
  readonly warnings: readonly VocabularyWarning[];
}

const text = z.string().trim().min(1).max(200);
const entrySchema = z.object({
  id: text.optional(),
  'zh-CN': text,
  en: text.optional(),
  aliases: z.array(text).max(100).optional(),
});
const cropSchema = entrySchema.extend({
  kbCode: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_.-]{1,100}$/, 'kbCode: letters, digits, "_", "." or "-" only')
    .optional(),
  kbName: text.optional(),
  stages: z.array(z.unknown()).optional(),
});
const taskSchema = entrySchema.extend({ crops: z.array(text).optional() });
const KNOWN_KEYS = new Set(['crops', 'stages', 'tasks', '$schema']);

type EntryInput = z.infer<typeof entrySchema>;
interface MutableEntry {
  id: string;
  labels: { 'zh-CN': string; en: string };
  aliases: string[];
}
interface MutableCrop extends MutableEntry {
  kbCode?: string;
  kbName?: string;
  stages: MutableEntry[];
}
interface MutableTask extends MutableEntry {
  crops?: string[];
}

let builtinCache: Vocabulary | undefined;

/** The vocabulary shipped with the extension (parsed once; throws only if the shipped data is broken). */
export function builtinVocabulary(): Vocabulary {
  if (!builtinCache) {
    const loaded = loadVocabulary(builtinData, { crops: [], tasks: [] });
    if (loaded.warnings.length > 0) {
      throw new Error(`vocabulary.json is invalid at ${loaded.warnings.map((w) => w.path).join(', ')}`);
    }
    builtinCache = loaded.vocabulary;
  }
  return builtinCache;
}

/**
 * Merges the user's vocabulary setting into `base` (default: the built-in vocabulary). Never throws:
 * every invalid part is skipped and reported as a warning. A crop or task whose `id` or zh-CN label
 * matches an existing one extends it (labels, aliases, kbCode and kbName given override; stages are
 * appended); others are added. `stages` maps a crop (id or any of its names) to stages to append.
 *
 * @param userExtension the raw setting value, e.g. `{ crops: [...], stages: { 小麦: [...] }, tasks: [...] }`
 */
export function loadVocabulary(userExtension: unknown, base: Vocabulary = builtinVocabulary()): LoadedVocabulary {
  const warnings: VocabularyWarning[] = [];
  const warn = (path: string, message: Message): void => {
    warnings.push({ path, message });
  };
  const crops: MutableCrop[] = base.crops.map(copyCrop);
  const tasks: MutableTask[] = base.tasks.map((t) => ({
    ...copyEntry(t),
    ...(t.crops ? { crops: [...t.crops] } : {}),
  }));

  if (userExtension === undefined || userExtension === null) return { vocabulary: freeze(crops, tasks), warnings };
  if (typeof userExtension !== 'object' || Array.isArray(userExtension)) {
    warn('', msg('vocabulary.warning.notObject'));
    return { vocabulary: freeze(crops, tasks), warnings };
  }
  const input = userExtension as Record<string, unknown>;
  for (const key of Object.keys(input)) {
    if (!KNOWN_KEYS.has(key)) warn(key, msg('vocabulary.warning.unknownKey', key));
  }

  for (const [path, raw] of listItems(input['crops'], 'crops', warn)) {
    const parsed = cropSchema.safeParse(raw);
    if (!parsed.success) {
      warn(path, msg('vocabulary.warning.invalidEntry', path, describeIssues(parsed.error)));
      continue;
    }
    const { stages, kbCode, kbName, ...entry } = parsed.data;
    const crop = upsert(crops, entry, (e) => ({ ...e, stages: [] }));
    if (kbCode !== undefined) crop.kbCode = kbCode;
    if (kbName !== undefined) crop.kbName = kbName;
    addStages(crop, stages, `${path}.stages`, warn);
  }

  const stageMap = input['stages'];
  if (stageMap !== undefined) {
    if (typeof stageMap !== 'object' || stageMap === null || Array.isArray(stageMap)) {
      warn('stages', msg('vocabulary.warning.notMap', 'stages'));
    } else {
      for (const [cropName, list] of Object.entries(stageMap as Record<string, unknown>)) {
        const path = `stages.${cropName}`;
        const crop = crops.find((c) => entryMatches(c, cropName));
        if (!crop) warn(path, msg('vocabulary.warning.unknownCrop', path, cropName));
        else addStages(crop, list, path, warn);
      }
    }
  }

  for (const [path, raw] of listItems(input['tasks'], 'tasks', warn)) {
    const parsed = taskSchema.safeParse(raw);
    if (!parsed.success) {
      warn(path, msg('vocabulary.warning.invalidEntry', path, describeIssues(parsed.error)));
      continue;
    }
    const { crops: cropNames, ...entry } = parsed.data;
    const task = upsert<MutableTask>(tasks, entry, (e) => e);
    if (cropNames) {
      task.crops = cropNames.map((name) => {
        const crop = crops.find((c) => entryMatches(c, name));
        if (!crop) warn(path, msg('vocabulary.warning.unknownTaskCrop', path, name));
        return crop ? crop.id : name;
      });
    }
  }
  return { vocabulary: freeze(crops, tasks), warnings };
}

/** Finds a crop by id, zh-CN or en label, or alias (trimmed, case-insensitive). */
export function findCrop(vocabulary: Vocabulary, name: string): Crop | undefined {
  return vocabulary.crops.find((c) => entryMatches(c, name));
}

/** Finds a stage of `crop` by id, label or alias; without a crop, the first crop having such a stage. */
export function findStage(vocabulary: Vocabulary, name: string, crop?: Crop): Stage | undefined {
  const crops = crop ? [crop] : vocabulary.crops;
  for (const c of crops) {
    const stage = c.stages.find((s) => entryMatches(s, name));
    if (stage) return stage;
  }
  return undefined;
}

/** Finds a task by id, label or alias. */
export function findTask(vocabulary: Vocabulary, name: string): Task | undefined {
  return vocabulary.tasks.find((t) => entryMatches(t, name));
}

/** The tasks to offer for a crop (all tasks without a crop restriction, plus those naming it). */
export function tasksFor(vocabulary: Vocabulary, crop?: Crop): readonly Task[] {
  if (!crop) return vocabulary.tasks;
  return vocabulary.tasks.filter((t) => !t.crops || t.crops.includes(crop.id));
}

/** The label of an entry for a display language (`zh…` → zh-CN, anything else → en). */
export function labelOf(entry: VocabularyEntry, language: string): string {
  return langOf(language) === 'zh' ? entry.labels['zh-CN'] : entry.labels.en;
}

/** True when `name` is the entry's id, one of its labels or aliases (trimmed, case-insensitive). */
function entryMatches(entry: VocabularyEntry, name: string): boolean {
  const n = normalise(name);
  if (n === '') return false;
  return [entry.id, entry.labels['zh-CN'], entry.labels.en, ...entry.aliases].some((x) => normalise(x) === n);
}

function normalise(s: string): string {
  return s.trim().toLowerCase();
}

function* listItems(
  value: unknown,
  key: string,
  warn: (path: string, message: Message) => void,
): Generator<[string, unknown]> {
  if (value === undefined) return;
  if (!Array.isArray(value)) {
    warn(key, msg('vocabulary.warning.notList', key));
    return;
  }
  for (let i = 0; i < value.length; i++) yield [`${key}[${i}]`, value[i] as unknown];
}

function addStages(
  crop: MutableCrop,
  list: unknown,
  path: string,
  warn: (path: string, message: Message) => void,
): void {
  for (const [itemPath, raw] of listItems(list, path, warn)) {
    const parsed = entrySchema.safeParse(raw);
    if (!parsed.success) warn(itemPath, msg('vocabulary.warning.invalidEntry', itemPath, describeIssues(parsed.error)));
    else upsert(crop.stages, parsed.data, (e) => e);
  }
}

/** Updates the entry with the same id (or zh-CN label) in `list`, or appends a new one. */
function upsert<T extends MutableEntry>(list: T[], input: EntryInput, create: (e: MutableEntry) => T): T {
  const zh = input['zh-CN'];
  const id = input.id ?? zh;
  const existing =
    list.find((e) => e.id === id) ?? (input.id === undefined ? list.find((e) => e.labels['zh-CN'] === zh) : undefined);
  if (existing) {
    existing.labels = { 'zh-CN': zh, en: input.en ?? existing.labels.en };
    for (const alias of input.aliases ?? []) if (!existing.aliases.includes(alias)) existing.aliases.push(alias);
    return existing;
  }
  const created = create({ id, labels: { 'zh-CN': zh, en: input.en ?? zh }, aliases: [...(input.aliases ?? [])] });
  list.push(created);
  return created;
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(entry)'}: ${i.message}`).join('; ');
}

function copyEntry(e: VocabularyEntry): MutableEntry {
  return { id: e.id, labels: { ...e.labels }, aliases: [...e.aliases] };
}

function copyCrop(c: Crop): MutableCrop {
  return {
    ...copyEntry(c),
    ...(c.kbCode !== undefined ? { kbCode: c.kbCode } : {}),
    ...(c.kbName !== undefined ? { kbName: c.kbName } : {}),
    stages: c.stages.map(copyEntry),
  };
}

function freeze(crops: MutableCrop[], tasks: MutableTask[]): Vocabulary {
  const deep = <T>(o: T): T => {
    if (o && typeof o === 'object') {
      for (const v of Object.values(o)) deep(v);
      Object.freeze(o);
    }
    return o;
  };
  return deep({ crops, tasks });
}
