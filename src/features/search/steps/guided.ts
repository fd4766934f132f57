/**
 * The guided search as steps: crop (picks the knowledge base) → growth stage → farm task → your own
 * words → the composed query. Each step is a function that shows itself and returns the next one;
 * crop, stage and task are one "pick from the vocabulary" step with different entries.
 */
import vscode = require('vscode');
import type { SearchOptions } from '../../../knowledge/history';
import {
  answerOf,
  guidedRows,
  reopen,
  stageEntries,
  type GuidedAnswer,
  type GuidedRow,
  type StepEntry,
  type StepRows,
} from '../../../knowledge/guidedRows';
import type { Crop, Stage, Task, Vocabulary, VocabularyEntry } from '../../../knowledge/vocabulary';
import type { KnowledgeLib } from '../../../bundles';
import { vocabularyFor } from '../../shared/search/vocabulary';
import { settings, type KnowledgeSettings } from '../../shared/settings';
import { runSteps, type FlowInput, type Step } from '../input';
import { labelOf, separator, skipItem, type FlowItem } from '../items';
import type { FlowContext, GuidedStart, Prefill } from '../state';

/** What the steps gathered so far (kept when going Back, so each step shows its answer again). */
interface Guided {
  crop?: GuidedAnswer<Crop>;
  /** A knowledge base picked at the crop step (one seen in results, not a crop of the vocabulary). */
  base?: string | undefined;
  stage?: GuidedAnswer<Stage>;
  task?: GuidedAnswer<Task>;
  words?: string | undefined;
  /** The search to run, once the query step was answered. */
  options?: SearchOptions;
}

const TOTAL = 5;

/** One "pick from the vocabulary" step. */
interface VocabularyStep<E extends VocabularyEntry> {
  readonly title: string;
  readonly placeholder: string;
  readonly step: number;
  readonly entries: readonly StepEntry<E>[];
  /** A description per entry besides its other-language name (the crop step's knowledge base). */
  readonly describe?: (entry: E) => string | undefined;
  /** Items after the entries (the crop step's knowledge bases seen). */
  readonly extra?: readonly FlowItem[];
  readonly skipDetail?: string;
  /** What the step was answered with before (Back), or a prefilled entry. */
  readonly previous: GuidedAnswer<E>;
}

/** The entry's other-language name (so both names show and match), and any further description. */
function entryDescription<E extends VocabularyEntry>(s: VocabularyStep<E>, e: StepEntry<E>): string | undefined {
  const shown = labelOf(e.entry);
  const other = e.entry.labels['zh-CN'] === shown ? e.entry.labels.en : e.entry.labels['zh-CN'];
  const parts = [
    ...(other !== shown ? [other] : []),
    ...(e.group ? [labelOf(e.group)] : []),
    ...[s.describe?.(e.entry)].filter((d): d is string => !!d),
  ];
  return parts.length ? parts.join(' · ') : undefined;
}

/** The quick-pick items of a step's rows (and the item of each row, to find the active one). */
function itemsOf<E extends VocabularyEntry>(
  s: VocabularyStep<E>,
  view: StepRows<E>,
): { items: FlowItem[]; active: FlowItem | undefined } {
  const items: FlowItem[] = [];
  let active: FlowItem | undefined;
  view.rows.forEach((row, i) => {
    const item = itemOfRow(s, row);
    if (row.kind === 'skip' && s.extra?.length) items.push(...s.extra, separator());
    items.push(item);
    if (i === view.active) active = item;
  });
  return { items, active };
}

function itemOfRow<E extends VocabularyEntry>(s: VocabularyStep<E>, row: GuidedRow<E>): FlowItem {
  switch (row.kind) {
    case 'group':
      return separator(labelOf({ labels: row.labels }));
    case 'entry': {
      const description = entryDescription(s, { entry: row.entry, ...(row.group ? { group: row.group } : {}) });
      return {
        label: labelOf(row.entry),
        ...(description !== undefined ? { description } : {}),
        role: 'entry',
        entry: row.entry,
        ...(row.matched ? { alwaysShow: true } : {}),
      };
    }
    case 'typed':
      return {
        label: `$(edit) ${vscode.l10n.t('Use "{0}"', row.value)}`,
        role: 'typed',
        value: row.value,
        alwaysShow: true,
      };
    case 'skip':
      return skipItem(s.skipDetail);
  }
}

/** Shows the step; the typed text is a choice of its own; Back on every step but the first. */
async function pickFromVocabulary<E extends VocabularyEntry>(
  input: FlowInput,
  s: VocabularyStep<E>,
): Promise<GuidedAnswer<E> | { readonly base: string }> {
  const again = reopen(s.previous);
  const show = (typed: string): ReturnType<typeof itemsOf> => itemsOf(s, guidedRows(s.entries, typed, again.active));
  const first = show(again.value);
  const r = await input.pick({
    title: s.title,
    placeholder: s.placeholder,
    items: first.items,
    value: again.value,
    step: s.step,
    total: TOTAL,
    back: s.step > 1,
    ...(first.active ? { active: first.active } : {}),
    onValue: (v) => {
      const now = show(v);
      input.qp.items = now.items;
      if (now.active) input.qp.activeItems = [now.active];
    },
  });
  const it = r.item;
  if (it?.role === 'value') return { base: it.value };
  if (it?.role === 'entry') return { entry: it.entry as E };
  if (it?.role === 'typed') return { typed: it.value };
  // Skip, a separator or nothing with text typed: the typed text (Enter on typed text never skips).
  return answerOf<E>(undefined, r.value);
}

/** The entry or the typed text of an answer (what the query composer takes). */
function termOf<E>(p: GuidedAnswer<E>): E | string | undefined {
  return p && 'entry' in p ? p.entry : p && 'typed' in p ? p.typed : undefined;
}

/** The steps of one guided search. */
class GuidedSteps {
  readonly g: Guided;

  constructor(
    private readonly ctx: FlowContext,
    private readonly lib: KnowledgeLib,
    private readonly vocab: Vocabulary,
    private readonly defaults: KnowledgeSettings,
    private readonly pre: Prefill,
    /** The knowledge base the search started with (kept unless a crop or a base is picked). */
    private readonly startKb: string | undefined,
  ) {
    this.g = {};
  }

  private get crop(): Crop | undefined {
    const c = this.g.crop;
    return c && 'entry' in c ? c.entry : undefined;
  }

  /** What a step shows as chosen: its answer when it was answered (Back), else the prefilled entry. */
  private previous<K extends 'crop' | 'stage' | 'task', E extends VocabularyEntry>(
    key: K,
    entries: readonly StepEntry<E>[],
  ): GuidedAnswer<E> {
    if (key in this.g) return this.g[key] as GuidedAnswer<E>;
    const id = this.pre[key];
    const entry = id !== undefined ? entries.find((e) => e.entry.id === id)?.entry : undefined;
    return entry ? { entry } : undefined;
  }

  readonly cropStep: Step = async (input) => {
    const { g, vocab } = this;
    const covered = new Set(vocab.crops.map((c) => c.kbCode));
    const seen: FlowItem[] = this.ctx.services.store.state.bases
      .filter((b) => !covered.has(b.code))
      .map((b) => ({ label: b.name ?? b.code, description: b.code, role: 'value', value: b.code }));
    const kb = this.startKb || this.defaults.defaultKbCode;
    const entries = vocab.crops.map((entry) => ({ entry }));
    const previous: GuidedAnswer<Crop> = g.base ? undefined : this.previous('crop', entries);
    const picked = await pickFromVocabulary(input, {
      title: vscode.l10n.t('Search Knowledge: crop'),
      placeholder: vscode.l10n.t('Crop (picks its knowledge base), or type another; Skip to leave it out'),
      step: 1,
      entries,
      describe: (c) => c.kbCode,
      extra: seen.length ? [separator(vscode.l10n.t('Knowledge bases seen')), ...seen] : [],
      skipDetail: kb ? vscode.l10n.t('knowledge base {0}', kb) : vscode.l10n.t('all knowledge bases'),
      previous,
    });
    if (picked && 'base' in picked) {
      g.crop = undefined;
      g.base = picked.base;
    } else {
      g.crop = picked;
      g.base = undefined;
    }
    return this.stageStep;
  };

  readonly stageStep: Step = async (input) => {
    const entries = stageEntries(this.vocab, this.crop);
    this.g.stage = await this.pickEntry(input, {
      title: vscode.l10n.t('Search Knowledge: growth stage'),
      placeholder: vscode.l10n.t('Growth stage, or type another; Skip to leave it out'),
      step: 2,
      entries,
      previous: this.previous('stage', entries),
    });
    return this.taskStep;
  };

  readonly taskStep: Step = async (input) => {
    const entries = this.lib.tasksFor(this.vocab, this.crop).map((entry) => ({ entry }));
    this.g.task = await this.pickEntry(input, {
      title: vscode.l10n.t('Search Knowledge: farm task'),
      placeholder: vscode.l10n.t('Farm task, or type another; Skip to leave it out'),
      step: 3,
      entries,
      previous: this.previous('task', entries),
    });
    return this.wordsStep;
  };

  /** A stage or task step (no knowledge bases among its items). */
  private async pickEntry<E extends VocabularyEntry>(input: FlowInput, s: VocabularyStep<E>): Promise<GuidedAnswer<E>> {
    const picked = await pickFromVocabulary(input, s);
    return picked && 'base' in picked ? undefined : picked;
  }

  readonly wordsStep: Step = async (input) => {
    const skip = skipItem();
    const wordsItem = (v: string): FlowItem => ({
      label: `$(add) ${vscode.l10n.t('Add "{0}"', v)}`,
      role: 'custom',
      alwaysShow: true,
    });
    const r = await input.pick({
      title: vscode.l10n.t('Search Knowledge: your own words'),
      placeholder: vscode.l10n.t('Type words to add (e.g. 要点, 时间, 用量), or Skip'),
      items: [skip],
      step: 4,
      total: TOTAL,
      back: true,
      value: this.g.words ?? '',
      onValue: (v) => {
        input.qp.items = v.trim() ? [wordsItem(v.trim()), skip] : [skip];
      },
    });
    // Typed words count even when Enter beats the "Add" item's arrival; to skip, clear the text.
    this.g.words = r.value.trim();
    return this.queryStep;
  };

  readonly queryStep: Step = async () => {
    const { g, defaults } = this;
    const [crop, stage, task] = [termOf(g.crop), termOf(g.stage), termOf(g.task)];
    const composed = this.lib.composeQuery(
      {
        ...(crop !== undefined ? { crop } : {}),
        ...(stage !== undefined ? { stage } : {}),
        ...(task !== undefined ? { task } : {}),
        ...(g.words ? { words: g.words } : {}),
      },
      this.vocab,
    );
    const kbCode = g.base || this.crop?.kbCode || this.startKb || composed.kbCode || defaults.defaultKbCode;
    const chosen = await this.ctx.steps.query(
      {
        query: composed.query,
        ...(kbCode ? { kbCode } : {}),
        topK: defaults.topK,
        scoreThreshold: defaults.scoreThreshold,
        useRerank: defaults.useRerank,
      },
      { back: true, step: TOTAL, live: false },
    );
    // Without search-as-you-type the query step only answers with options.
    if (typeof chosen !== 'string') g.options = chosen;
    return undefined;
  };
}

/** The guided steps, then the composed query. Returns the search to run, or undefined when closed. */
export async function runGuided(ctx: FlowContext, start: GuidedStart = {}): Promise<SearchOptions | undefined> {
  const lib = ctx.services.knowledge();
  const uri = ctx.target?.document.uri;
  const steps = new GuidedSteps(
    ctx,
    lib,
    vocabularyFor(lib, uri),
    settings.knowledge(uri),
    start.prefill ?? {},
    start.kbCode,
  );
  return (await runSteps(ctx.input, steps.cropStep)) ? steps.g.options : undefined;
}
