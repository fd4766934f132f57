/**
 * The guided search as steps: crop (picks the knowledge base) → growth stage → farm task → your own
 * words → the composed query. Each step is a function that shows itself and returns the next one;
 * crop, stage and task are one "pick from the vocabulary" step with different entries.
 */
import * as vscode from 'vscode';
import type { SearchOptions } from '../../knowledge/history';
import type { Crop, Stage, Task, Vocabulary } from '../../knowledge/vocabulary';
import type { KnowledgeLib } from '../../platform';
import type { FlowContext } from './context';
import { runSteps, type FlowInput, type Step } from './input';
import { labelOf, separator, skipItem, type FlowItem, type VocabularyEntry } from './items';
import { queryStep } from './query';
import { settings, type KnowledgeSettings } from '../shared/settings';
import { vocabularyFor } from './vocabulary';

/** Entries (ids) preselected when refining after a miss. */
export interface Prefill {
  readonly crop?: string;
  readonly stage?: string;
  readonly task?: string;
}

/** Where the guided search starts: a knowledge base given, entries preselected. */
export interface GuidedStart {
  readonly prefill?: Prefill;
  readonly kbCode?: string;
}

/** What the steps gathered so far. */
interface Guided {
  crop?: Crop | string | undefined;
  stage?: Stage | string | undefined;
  task?: Task | string | undefined;
  words?: string | undefined;
  kbCode?: string | undefined;
  /** The search to run, once the query step was answered. */
  options?: SearchOptions;
}

const TOTAL = 5;

/** What a vocabulary step was answered with: an entry, a knowledge base seen, typed text, or nothing (Skip). */
type Picked<E> = { readonly entry: E } | { readonly base: string } | { readonly typed: string } | undefined;

/** One "pick from the vocabulary" step. */
interface VocabularyStep<E extends VocabularyEntry> {
  readonly title: string;
  readonly placeholder: string;
  readonly step: number;
  readonly entries: readonly { readonly entry: E; readonly description?: string }[];
  /** Items between the entries and Skip (the crop step's knowledge bases seen). */
  readonly extra?: readonly FlowItem[];
  readonly skipDetail?: string;
  /** The entry active when the step opens. */
  readonly active?: E | undefined;
}

/** Shows the entries, extra items and Skip; Back on every step but the first. */
async function pickFromVocabulary<E extends VocabularyEntry>(
  input: FlowInput,
  s: VocabularyStep<E>,
): Promise<Picked<E>> {
  const items: FlowItem[] = s.entries.map(({ entry, description }) => ({
    label: labelOf(entry),
    ...(description !== undefined ? { description } : {}),
    role: 'entry',
    entry,
  }));
  const active = s.active ? items[s.entries.findIndex((e) => e.entry === s.active)] : undefined;
  const r = await input.pick({
    title: s.title,
    placeholder: s.placeholder,
    items: [...items, ...(s.extra ?? []), separator(), skipItem(s.skipDetail)],
    step: s.step,
    total: TOTAL,
    back: s.step > 1,
    ...(active ? { active } : {}),
  });
  const it = r.item;
  if (it?.role === 'entry') {
    const picked = s.entries.find((e) => e.entry === it.entry);
    return picked ? { entry: picked.entry } : undefined;
  }
  if (it?.role === 'value') return { base: it.value };
  if (!it && r.value.trim()) return { typed: r.value.trim() };
  return undefined;
}

/** The entry or the typed text of a pick (what the query composer takes). */
function termOf<E>(p: Picked<E>): E | string | undefined {
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
    kbCode: string | undefined,
  ) {
    this.g = kbCode ? { kbCode } : {};
  }

  private get crop(): Crop | undefined {
    return typeof this.g.crop === 'object' ? this.g.crop : undefined;
  }

  readonly cropStep: Step = async (input) => {
    const { g, vocab, pre } = this;
    const covered = new Set(vocab.crops.map((c) => c.kbCode));
    const seen: FlowItem[] = this.ctx.services.store.state.bases
      .filter((b) => !covered.has(b.code))
      .map((b) => ({ label: b.name ?? b.code, description: b.code, role: 'value', value: b.code }));
    const kb = g.kbCode || this.defaults.defaultKbCode;
    const picked = await pickFromVocabulary(input, {
      title: vscode.l10n.t('Search Knowledge: crop'),
      placeholder: vscode.l10n.t('Crop (picks its knowledge base), or type another; Skip to leave it out'),
      step: 1,
      entries: vocab.crops.map((c) => ({ entry: c, description: c.kbCode ? `${c.kbName ?? ''} · ${c.kbCode}` : '' })),
      extra: seen.length ? [separator(vscode.l10n.t('Knowledge bases seen')), ...seen] : [],
      skipDetail: kb ? vscode.l10n.t('knowledge base {0}', kb) : vscode.l10n.t('all knowledge bases'),
      active: pre.crop ? vocab.crops.find((c) => c.id === pre.crop) : this.crop,
    });
    if (picked && 'base' in picked) {
      g.crop = undefined;
      g.kbCode = picked.base;
    } else {
      g.crop = termOf(picked);
      if (picked && 'entry' in picked && picked.entry.kbCode) g.kbCode = picked.entry.kbCode;
    }
    return this.stageStep;
  };

  readonly stageStep: Step = async (input) => {
    const crop = this.crop;
    const stages = crop
      ? crop.stages.map((s) => ({ entry: s }))
      : this.vocab.crops.flatMap((c) => c.stages.map((s) => ({ entry: s, description: labelOf(c) })));
    this.g.stage = termOf(
      await pickFromVocabulary(input, {
        title: vscode.l10n.t('Search Knowledge: growth stage'),
        placeholder: vscode.l10n.t('Growth stage, or type another; Skip to leave it out'),
        step: 2,
        entries: stages,
        active: this.pre.stage ? stages.find((s) => s.entry.id === this.pre.stage)?.entry : undefined,
      }),
    );
    return this.taskStep;
  };

  readonly taskStep: Step = async (input) => {
    const tasks = this.lib.tasksFor(this.vocab, this.crop).map((t) => ({ entry: t }));
    this.g.task = termOf(
      await pickFromVocabulary(input, {
        title: vscode.l10n.t('Search Knowledge: farm task'),
        placeholder: vscode.l10n.t('Farm task, or type another; Skip to leave it out'),
        step: 3,
        entries: tasks,
        active: this.pre.task ? tasks.find((t) => t.entry.id === this.pre.task)?.entry : undefined,
      }),
    );
    return this.wordsStep;
  };

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
    const composed = this.lib.composeQuery(
      {
        ...(g.crop !== undefined ? { crop: g.crop } : {}),
        ...(g.stage !== undefined ? { stage: g.stage } : {}),
        ...(g.task !== undefined ? { task: g.task } : {}),
        ...(g.words ? { words: g.words } : {}),
      },
      this.vocab,
    );
    const kbCode = g.kbCode || composed.kbCode || defaults.defaultKbCode;
    const chosen = await queryStep(
      this.ctx,
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
