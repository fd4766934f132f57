/**
 * "Shunong: Search Knowledge" in one quick input: crop (picks the knowledge base) → growth stage →
 * farm task → free words → the composed query (editable) with its options → results (server or
 * fused order kept, preview beside, buttons to cite, copy, reveal) or, on a miss, the counts,
 * threshold and best score with the ways out. The same QuickPick serves every step.
 */
import * as vscode from 'vscode';
import type { Crop, Stage, Task, Vocabulary } from '../../knowledge/vocabulary';
import type { MissInfo, MissOffer } from '../../knowledge/miss';
import { summarizeCounts } from '../../knowledge/summary';
import { loadKnowledge, type KnowledgeLib } from '../../platform';
import type { KnowledgeResult } from '../../shunong/index';
import type { LatestOnly, LatestOnlyStats } from '../../knowledge/latestOnly';
import type { Scheduler } from '../../knowledge/scheduler';
import type { Connection } from '../shared/connection';
import { describeError, isPlatformError } from '../shared/errors';
import { settings } from '../shared/settings';
import { runSearch, type SearchDeps, type SearchOutcome } from './engine';
import * as model from './model';
import type { KnowledgeStore } from './store';
import { citationText, firstLine, localise, scoreNote, scoreText, snippetRest } from './text';
import type { PassageDocs } from './docs';

/** How a search command ended (returned by the commands, for tests and callers). */
export interface SearchRun {
  readonly status: 'inserted' | 'cited' | 'opened' | 'closed' | 'cancelled' | 'error';
  /** The last search that found passages in this session. */
  readonly record?: model.SearchRecord;
  /** The last miss shown in this session. */
  readonly miss?: MissInfo;
}

/** What the search flow needs. */
export interface SearchServices {
  readonly connection: Connection;
  readonly store: KnowledgeStore;
  readonly docs: PassageDocs;
  /** The timers of search-as-you-type (injected by the integration tests); default the real clock and {@link TYPING_DELAY_MS}. */
  readonly typing?: TypingTimers;
}

/** The debounce of search-as-you-type: its timers and its quiet time. */
export interface TypingTimers {
  scheduler?: Scheduler | undefined;
  delayMs?: number | undefined;
}

/** Quiet time after the last keystroke before a search-as-you-type request is sent. */
export const TYPING_DELAY_MS = 300;
/** Shorter queries are not searched while typing (Enter still searches them). */
const TYPING_MIN_CHARS = 2;

/** The vocabulary: built in, extended by `shunong.knowledge.vocabulary`; problems are shown once per change. */
let warnedVocabulary = '';
export function vocabularyFor(lib: KnowledgeLib, uri?: vscode.Uri): Vocabulary {
  const setting = settings.knowledge(uri).vocabulary;
  const loaded = lib.loadVocabulary(setting ?? {});
  const first = loaded.warnings[0];
  const key = JSON.stringify(setting ?? {});
  if (first && warnedVocabulary !== key) {
    warnedVocabulary = key;
    void vscode.window.showWarningMessage(localise(first.message));
  }
  return loaded.vocabulary;
}

/** True when the endpoint's knowledge_search declares a `mode` argument. */
async function modeDeclared(connection: Connection): Promise<boolean> {
  const seen = connection.tools;
  const tools = seen.length
    ? seen
    : await connection
        .getClient()
        .then((c) => c.listTools())
        .catch(() => []);
  const tool = tools.find((t) => t.name === 'knowledge_search' || t.name.endsWith('knowledge_search'));
  return tool?.inputSchema.properties?.['mode'] !== undefined;
}

type ItemKind =
  | 'entry'
  | 'skip'
  | 'custom'
  | 'search'
  | 'options'
  | 'option'
  | 'done'
  | 'passage'
  | 'info'
  | 'offer'
  | 'edit'
  | 'value';

/** A QuickPick item of the flow. */
export interface FlowItem extends vscode.QuickPickItem {
  readonly kind2: ItemKind;
  readonly data?: unknown;
  /** Set on result items: the passage and its display. */
  readonly stored?: model.StoredPassage;
}

type Step =
  | { kind: 'accept'; item: FlowItem | undefined; value: string }
  | { kind: 'back' }
  | { kind: 'button'; button: vscode.QuickInputButton }
  | { kind: 'hide' };

interface Guided {
  crop?: Crop | string | undefined;
  stage?: Stage | string | undefined;
  task?: Task | string | undefined;
  words?: string | undefined;
  kbCode?: string | undefined;
}

const BUTTON_SNIPPET: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('quote'),
  tooltip: vscode.l10n.t('Insert cited snippet'),
};
const BUTTON_CITATION: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('link'),
  tooltip: vscode.l10n.t('Insert citation only'),
};
const BUTTON_COPY: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('copy'),
  tooltip: vscode.l10n.t('Copy passage with its citation'),
};
const BUTTON_REVEAL: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('list-tree'),
  tooltip: vscode.l10n.t('Show in the knowledge browser'),
};
const BUTTON_OPTIONS: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('settings-gear'),
  tooltip: vscode.l10n.t('Search options…'),
};

/** One run of the search UI, on one QuickPick. */
export class SearchSession implements vscode.Disposable {
  readonly qp = vscode.window.createQuickPick<FlowItem>();
  private current: ((s: Step) => void) | undefined;
  private itemButton: ((item: FlowItem, button: vscode.QuickInputButton) => void) | undefined;
  private activeChanged: ((item: FlowItem | undefined) => void) | undefined;
  private valueChanged: ((value: string) => void) | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private hidden = false;
  private lib: KnowledgeLib | undefined;
  private lastRecord: model.SearchRecord | undefined;
  private lastMiss: MissInfo | undefined;
  private readonly lang = vscode.env.language;
  /** Search-as-you-type of the free-text query step (created on first use). */
  private live: LatestOnly<model.SearchOptions, SearchOutcome> | undefined;
  /** Counts the requests of search-as-you-type, so only the latest one clears `busy`. */
  private liveGen = 0;
  /** Counts the steps shown, so a late answer never changes a later step. */
  private stepToken = 0;
  /** True in the free-text search: its query step (also when coming back to it) searches as you type. */
  private freeText = false;

  constructor(
    private readonly services: SearchServices,
    private readonly target: vscode.TextEditor | undefined,
  ) {
    const qp = this.qp;
    // Keep the order we give (the ranking): no re-sorting by label match while filtering.
    (qp as vscode.QuickPick<FlowItem> & { sortByLabel?: boolean }).sortByLabel = false;
    qp.matchOnDescription = true;
    qp.matchOnDetail = true;
    this.disposables.push(
      qp,
      qp.onDidAccept(() =>
        this.current?.({ kind: 'accept', item: qp.activeItems[0] ?? qp.selectedItems[0], value: qp.value }),
      ),
      qp.onDidTriggerButton((b) =>
        this.current?.(b === vscode.QuickInputButtons.Back ? { kind: 'back' } : { kind: 'button', button: b }),
      ),
      qp.onDidTriggerItemButton((e) => this.itemButton?.(e.item, e.button)),
      qp.onDidChangeActive((items) => this.activeChanged?.(items[0])),
      qp.onDidChangeValue((v) => this.valueChanged?.(v)),
      qp.onDidHide(() => {
        this.hidden = true;
        this.current?.({ kind: 'hide' });
      }),
    );
  }

  private knowledge(): KnowledgeLib {
    this.lib ??= loadKnowledge();
    return this.lib;
  }

  /** The counters of search-as-you-type in this session (requests sent, aborted…), for tests and figures. */
  get typingStats(): LatestOnlyStats | undefined {
    return this.live?.stats;
  }

  private label(e: { labels: { 'zh-CN': string; en: string } }): string {
    return this.lang.toLowerCase().startsWith('zh') ? e.labels['zh-CN'] : e.labels.en;
  }

  /** Shows a step and waits for its outcome. */
  private step(config: {
    title: string;
    placeholder: string;
    items: FlowItem[];
    value?: string;
    step?: number;
    total?: number;
    back?: boolean;
    buttons?: vscode.QuickInputButton[];
    active?: FlowItem;
    onValue?: (v: string) => void;
  }): Promise<Step> {
    const qp = this.qp;
    qp.title = config.title;
    qp.placeholder = config.placeholder;
    qp.step = config.step;
    qp.totalSteps = config.total;
    qp.value = config.value ?? '';
    qp.items = config.items;
    if (config.active) qp.activeItems = [config.active];
    qp.buttons = [...(config.back ? [vscode.QuickInputButtons.Back] : []), ...(config.buttons ?? [])];
    qp.busy = false;
    qp.ignoreFocusOut = false;
    this.stepToken++;
    this.valueChanged = config.onValue;
    this.itemButton = undefined;
    this.activeChanged = undefined;
    if (this.hidden) return Promise.resolve({ kind: 'hide' });
    qp.show();
    return new Promise((resolve) => {
      this.current = (s) => {
        this.current = undefined;
        resolve(s);
      };
    });
  }

  private skipItem(detail?: string): FlowItem {
    return {
      label: `$(debug-step-over) ${vscode.l10n.t('Skip')}`,
      kind2: 'skip',
      alwaysShow: true,
      ...(detail ? { description: detail } : {}),
    };
  }

  /**
   * The guided steps, then the composed query. Returns the search to run, or undefined when the
   * user closed the flow. `prefill` preselects entries (ids) when refining after a miss.
   */
  async guided(
    start: { prefill?: { crop?: string; stage?: string; task?: string }; kbCode?: string } = {},
  ): Promise<model.SearchOptions | undefined> {
    const lib = this.knowledge();
    const vocab = vocabularyFor(lib, this.target?.document.uri);
    const defaults = settings.knowledge(this.target?.document.uri);
    const g: Guided = start.kbCode ? { kbCode: start.kbCode } : {};
    const pre = start.prefill ?? {};
    let at = 1;
    for (;;) {
      if (at === 1) {
        const cropItems: FlowItem[] = vocab.crops.map((c) => ({
          label: this.label(c),
          description: c.kbCode ? `${c.kbName ?? ''} · ${c.kbCode}` : '',
          kind2: 'entry',
          data: c,
        }));
        const covered = new Set(vocab.crops.map((c) => c.kbCode));
        const seen: FlowItem[] = this.services.store.state.bases
          .filter((b) => !covered.has(b.code))
          .map((b) => ({ label: b.name ?? b.code, description: b.code, kind2: 'value', data: b.code }));
        const skip = this.skipItem(
          g.kbCode || defaults.defaultKbCode
            ? vscode.l10n.t('knowledge base {0}', g.kbCode || defaults.defaultKbCode)
            : vscode.l10n.t('all knowledge bases'),
        );
        const items = [
          ...cropItems,
          ...(seen.length
            ? [
                {
                  label: vscode.l10n.t('Knowledge bases seen'),
                  kind: vscode.QuickPickItemKind.Separator,
                  kind2: 'info' as const,
                },
                ...seen,
              ]
            : []),
          { label: '', kind: vscode.QuickPickItemKind.Separator, kind2: 'info' as const },
          skip,
        ];
        const preCrop = pre.crop
          ? cropItems.find((i) => (i.data as Crop).id === pre.crop)
          : typeof g.crop === 'object'
            ? cropItems.find((i) => i.data === g.crop)
            : undefined;
        const r = await this.step({
          title: vscode.l10n.t('Search Knowledge: crop'),
          placeholder: vscode.l10n.t('Crop (picks its knowledge base), or type another; Skip to leave it out'),
          items,
          step: 1,
          total: 5,
          ...(preCrop ? { active: preCrop } : {}),
        });
        if (r.kind !== 'accept') return undefined;
        const it = r.item;
        if (it?.kind2 === 'entry') {
          const crop = it.data as Crop;
          g.crop = crop;
          if (crop.kbCode) g.kbCode = crop.kbCode;
        } else if (it?.kind2 === 'value') {
          g.crop = undefined;
          g.kbCode = String(it.data);
        } else if (!it && r.value.trim()) {
          g.crop = r.value.trim();
        } else {
          g.crop = undefined;
        }
        at = 2;
      } else if (at === 2) {
        const crop = typeof g.crop === 'object' ? g.crop : undefined;
        const stages: { stage: Stage; crop: Crop }[] = crop
          ? crop.stages.map((s) => ({ stage: s, crop }))
          : vocab.crops.flatMap((c) => c.stages.map((s) => ({ stage: s, crop: c })));
        const items: FlowItem[] = stages.map(({ stage, crop: c }) => ({
          label: this.label(stage),
          ...(crop ? {} : { description: this.label(c) }),
          kind2: 'entry',
          data: stage,
        }));
        const preStage = pre.stage ? items.find((i) => (i.data as Stage).id === pre.stage) : undefined;
        const r = await this.step({
          title: vscode.l10n.t('Search Knowledge: growth stage'),
          placeholder: vscode.l10n.t('Growth stage, or type another; Skip to leave it out'),
          items: [...items, { label: '', kind: vscode.QuickPickItemKind.Separator, kind2: 'info' }, this.skipItem()],
          step: 2,
          total: 5,
          back: true,
          ...(preStage ? { active: preStage } : {}),
        });
        if (r.kind === 'back') {
          at = 1;
          continue;
        }
        if (r.kind !== 'accept') return undefined;
        g.stage =
          r.item?.kind2 === 'entry' ? (r.item.data as Stage) : !r.item && r.value.trim() ? r.value.trim() : undefined;
        at = 3;
      } else if (at === 3) {
        const crop = typeof g.crop === 'object' ? g.crop : undefined;
        const items: FlowItem[] = lib
          .tasksFor(vocab, crop)
          .map((t) => ({ label: this.label(t), kind2: 'entry', data: t }));
        const preTask = pre.task ? items.find((i) => (i.data as Task).id === pre.task) : undefined;
        const r = await this.step({
          title: vscode.l10n.t('Search Knowledge: farm task'),
          placeholder: vscode.l10n.t('Farm task, or type another; Skip to leave it out'),
          items: [...items, { label: '', kind: vscode.QuickPickItemKind.Separator, kind2: 'info' }, this.skipItem()],
          step: 3,
          total: 5,
          back: true,
          ...(preTask ? { active: preTask } : {}),
        });
        if (r.kind === 'back') {
          at = 2;
          continue;
        }
        if (r.kind !== 'accept') return undefined;
        g.task =
          r.item?.kind2 === 'entry' ? (r.item.data as Task) : !r.item && r.value.trim() ? r.value.trim() : undefined;
        at = 4;
      } else if (at === 4) {
        const skip = this.skipItem();
        const wordsItem = (v: string): FlowItem => ({
          label: `$(add) ${vscode.l10n.t('Add "{0}"', v)}`,
          kind2: 'custom',
          alwaysShow: true,
        });
        const r = await this.step({
          title: vscode.l10n.t('Search Knowledge: your own words'),
          placeholder: vscode.l10n.t('Type words to add (e.g. 要点, 时间, 用量), or Skip'),
          items: [skip],
          step: 4,
          total: 5,
          back: true,
          value: g.words ?? '',
          onValue: (v) => {
            this.qp.items = v.trim() ? [wordsItem(v.trim()), skip] : [skip];
          },
        });
        if (r.kind === 'back') {
          at = 3;
          continue;
        }
        if (r.kind !== 'accept') return undefined;
        // Typed words count even when Enter beats the "Add" item's arrival; to skip, clear the text.
        g.words = r.value.trim();
        at = 5;
      } else {
        const composed = lib.composeQuery(
          {
            ...(g.crop !== undefined ? { crop: g.crop } : {}),
            ...(g.stage !== undefined ? { stage: g.stage } : {}),
            ...(g.task !== undefined ? { task: g.task } : {}),
            ...(g.words ? { words: g.words } : {}),
          },
          vocab,
        );
        const kbCode = g.kbCode || composed.kbCode || defaults.defaultKbCode;
        const options: model.SearchOptions = {
          query: composed.query,
          ...(kbCode ? { kbCode } : {}),
          topK: defaults.topK,
          scoreThreshold: defaults.scoreThreshold,
          useRerank: defaults.useRerank,
        };
        const chosen = await this.confirm(options, true, 5);
        if (chosen === 'back') {
          at = 4;
          continue;
        }
        return chosen;
      }
    }
  }

  /**
   * The composed query, editable, with its options. Returns the search to run, 'back' (guided
   * flow only), undefined when closed, or — with `live` (the free-text search) — how the session
   * ended when a passage found while typing was inserted or cited.
   *
   * With `live` and `shunong.knowledge.searchAsYouType` on, the passages of the typed query are
   * listed under the Search item as the user types: debounced, a superseded request aborted, busy
   * while a request is in flight, the server's order kept. Enter on the typed text (the Search
   * item) still runs the full search with its no-hit offers; Enter on a passage inserts it cited.
   */
  async confirm(
    initial: model.SearchOptions,
    back: boolean,
    step?: number,
  ): Promise<model.SearchOptions | 'back' | undefined>;
  async confirm(
    initial: model.SearchOptions,
    back: boolean,
    step: number | undefined,
    live: boolean,
  ): Promise<model.SearchOptions | 'back' | SearchRun['status'] | undefined>;
  async confirm(
    initial: model.SearchOptions,
    back: boolean,
    step?: number,
    live = false,
  ): Promise<model.SearchOptions | 'back' | SearchRun['status'] | undefined> {
    let options = initial;
    const asYouType = live && settings.knowledge(this.target?.document.uri).searchAsYouType;
    let found: FlowItem[] = [];
    let record: model.SearchRecord | undefined;
    let outcome: (SearchOutcome & { kind: 'hit' }) | undefined;
    let previewed = false;
    try {
      for (;;) {
        const search: FlowItem = {
          label: `$(search) ${vscode.l10n.t('Search')}`,
          description: this.describeOptions(options),
          kind2: 'search',
          alwaysShow: true,
        };
        const more: FlowItem = {
          label: `$(settings-gear) ${vscode.l10n.t('Options…')}`,
          kind2: 'options',
          alwaysShow: true,
        };
        let shown = '';
        const show = (items: FlowItem[]): void => {
          found = items;
          this.qp.items = [search, more, ...items];
        };
        const pending = this.step({
          title: vscode.l10n.t('Search Knowledge: the query (edit it freely)'),
          placeholder: asYouType
            ? vscode.l10n.t(
                'Type the query: passages appear as you type; Enter searches, or pick a passage to insert it',
              )
            : vscode.l10n.t('The query: crop + growth stage + farm task, then your words'),
          items: [search, more, ...found],
          value: options.query,
          back,
          buttons: [BUTTON_OPTIONS],
          ...(step !== undefined ? { step, total: 5 } : {}),
          ...(asYouType
            ? {
                onValue: (v: string): void => {
                  const query = v.trim();
                  if (query === shown) return;
                  shown = query;
                  this.typed({ ...options, query }, (r) => {
                    if (!(r instanceof Error) && r.kind === 'hit') {
                      outcome = r;
                      record = r.record;
                    }
                    show(this.typedItems(r));
                  });
                },
              }
            : {}),
        });
        if (asYouType) {
          this.activeChanged = (item) => {
            if (!item?.stored) return;
            previewed = true;
            void this.services.docs.preview(item.stored);
          };
          this.itemButton = (item, button) => {
            if (!item.stored || !record) return;
            if (button === BUTTON_SNIPPET || button === BUTTON_CITATION)
              this.current?.({
                kind: 'accept',
                item: { ...item, data: button === BUTTON_SNIPPET ? 'snippet' : 'citation' },
                value: this.qp.value,
              });
            else
              this.passageButton(record, item.stored, button, () =>
                outcome ? this.commit(outcome) : Promise.resolve(),
              );
          };
        }
        const r = await pending;
        this.live?.cancel();
        this.qp.busy = false;
        if (r.kind === 'back') return 'back';
        if (r.kind === 'hide') return undefined;
        const chosen = r.kind === 'accept' ? r.item?.stored : undefined;
        if (r.kind === 'accept' && chosen && record && outcome) {
          this.lastRecord = record;
          await this.commit(outcome);
          this.qp.hide();
          if (previewed) {
            previewed = false;
            await this.services.docs.closePreview();
          }
          return this.cite(chosen.passage, r.item?.data !== 'citation');
        }
        const query = this.qp.value.trim();
        options = { ...options, query };
        if (r.kind === 'button' || r.item?.kind2 === 'options') {
          const edited = await this.editOptions(options);
          if (!edited) return undefined;
          options = edited;
          found = [];
          record = undefined;
          outcome = undefined;
          continue;
        }
        if (query === '') continue;
        return options;
      }
    } finally {
      this.live?.cancel();
      if (previewed) await this.services.docs.closePreview();
    }
  }

  /**
   * Search-as-you-type: asks for `options` after the quiet time, superseding (and aborting) every
   * older request; `shown` gets the outcome only if nothing newer came and the step is still on
   * screen. Failures are shown by `shown` as an item, never as notifications.
   */
  private typed(options: model.SearchOptions, shown: (r: SearchOutcome | Error) => void): void {
    const live = (this.live ??= this.knowledge().createLatestOnly(
      (o: model.SearchOptions, signal: AbortSignal) => this.request(o, signal),
      {
        delayMs: this.services.typing?.delayMs ?? TYPING_DELAY_MS,
        ...(this.services.typing?.scheduler ? { scheduler: this.services.typing.scheduler } : {}),
      },
    ));
    const token = this.stepToken;
    if ([...options.query].length < TYPING_MIN_CHARS) {
      live.cancel();
      this.qp.busy = false;
      shown(new TypingTooShort());
      return;
    }
    live(options).then(
      (r) => {
        if (r.status === 'ok' && token === this.stepToken && !this.hidden) shown(r.value);
      },
      (err: unknown) => {
        if (token === this.stepToken && !this.hidden) shown(err instanceof Error ? err : new Error(String(err)));
      },
    );
  }

  /** One request of search-as-you-type: busy while in flight; the store is left alone until a passage is used. */
  private async request(options: model.SearchOptions, signal: AbortSignal): Promise<SearchOutcome> {
    const gen = ++this.liveGen;
    this.qp.busy = true;
    try {
      const state = this.services.store.state;
      return await this.services.connection.run((client) => runSearch(options, this.deps(client, state), signal), {
        offerSetKey: false,
      });
    } finally {
      if (gen === this.liveGen) this.qp.busy = false;
    }
  }

  /** The items of a search-as-you-type answer: the passages in the server's order, or one quiet line. */
  private typedItems(r: SearchOutcome | Error): FlowItem[] {
    if (r instanceof TypingTooShort) return [];
    if (r instanceof Error) {
      const about = isPlatformError(r, 'cancelled')
        ? vscode.l10n.t('Cancelled.')
        : describeError(r, this.services.connection.endpoint);
      return [{ label: `$(warning) ${about}`, kind2: 'info', alwaysShow: true }];
    }
    if (r.kind === 'miss') {
      return [
        {
          label: `$(info) ${vscode.l10n.t('No passage for "{0}" yet. Enter searches and tells why.', r.options.query)}`,
          kind2: 'info',
          alwaysShow: true,
        },
      ];
    }
    const where = r.fused
      ? vscode.l10n.t('{0} knowledge bases, fused by rank', r.lists)
      : r.record.passages[0]?.passage.kbName || r.record.kbCodes.join(', ');
    return [
      {
        label: vscode.l10n.t('"{0}": {1} passages · {2}', r.record.options.query, r.record.passages.length, where),
        kind: vscode.QuickPickItemKind.Separator,
        kind2: 'info',
      },
      ...passageItems(r.record, true),
    ];
  }

  private describeOptions(o: model.SearchOptions): string {
    const parts = [
      o.kbCode ? o.kbCode : vscode.l10n.t('all knowledge bases'),
      `topK ${o.topK ?? 5}`,
      vscode.l10n.t('threshold {0}', String(o.scoreThreshold ?? 0.7)),
      o.useRerank ? vscode.l10n.t('rerank on') : vscode.l10n.t('rerank off'),
      ...(o.mode ? [o.mode] : []),
    ];
    return parts.join(' · ');
  }

  /** The options of one search, edited in the same quick input. Undefined when closed. */
  async editOptions(initial: model.SearchOptions): Promise<model.SearchOptions | undefined> {
    let o = { ...initial };
    const withMode = await modeDeclared(this.services.connection);
    for (;;) {
      const items: FlowItem[] = [
        {
          label: vscode.l10n.t('Knowledge base'),
          description: o.kbCode ?? vscode.l10n.t('all knowledge bases'),
          kind2: 'option',
          data: 'kb',
        },
        { label: vscode.l10n.t('Passages (topK)'), description: String(o.topK ?? 5), kind2: 'option', data: 'topK' },
        {
          label: vscode.l10n.t('Score threshold'),
          description: String(o.scoreThreshold ?? 0.7),
          detail: vscode.l10n.t(
            'Filters vector candidates by cosine similarity; lower values bring noise, 0 turns filtering off.',
          ),
          kind2: 'option',
          data: 'threshold',
        },
        {
          label: vscode.l10n.t('Rerank'),
          description: o.useRerank ? vscode.l10n.t('on') : vscode.l10n.t('off'),
          kind2: 'option',
          data: 'rerank',
        },
        ...(withMode
          ? [{ label: vscode.l10n.t('Mode'), description: o.mode ?? 'hybrid', kind2: 'option' as const, data: 'mode' }]
          : []),
        { label: `$(check) ${vscode.l10n.t('Done')}`, kind2: 'done', alwaysShow: true },
      ];
      const r = await this.step({
        title: vscode.l10n.t('Search options'),
        placeholder: vscode.l10n.t('Pick an option to change it'),
        items,
        back: true,
      });
      if (r.kind === 'back' || (r.kind === 'accept' && r.item?.kind2 === 'done')) return o;
      if (r.kind !== 'accept' || !r.item) return r.kind === 'hide' ? undefined : o;
      switch (r.item.data) {
        case 'rerank':
          o = { ...o, useRerank: !o.useRerank };
          break;
        case 'mode':
          o = { ...o, mode: o.mode === 'vector' ? 'hybrid' : 'vector' };
          break;
        case 'kb': {
          const lib = this.knowledge();
          const vocab = vocabularyFor(lib, this.target?.document.uri);
          const all: FlowItem = { label: vscode.l10n.t('All knowledge bases'), kind2: 'value', data: '' };
          const codes = new Map<string, string>();
          for (const c of vocab.crops) if (c.kbCode) codes.set(c.kbCode, c.kbName ?? c.kbCode);
          for (const b of this.services.store.state.bases) codes.set(b.code, b.name ?? codes.get(b.code) ?? b.code);
          const kbItems: FlowItem[] = [...codes].map(([code, name]) => ({
            label: name,
            description: code,
            kind2: 'value',
            data: code,
          }));
          const p = await this.step({
            title: vscode.l10n.t('Knowledge base'),
            placeholder: vscode.l10n.t('Search one knowledge base, or all'),
            items: [all, ...kbItems],
            back: true,
          });
          if (p.kind === 'hide') return undefined;
          if (p.kind === 'accept') {
            const code = p.item ? String(p.item.data) : p.value.trim();
            const { kbCode: _drop, ...rest } = o;
            void _drop;
            o = code ? { ...rest, kbCode: code } : rest;
          }
          break;
        }
        case 'topK':
        case 'threshold': {
          const isTopK = r.item.data === 'topK';
          const presets = isTopK ? ['3', '5', '10', '20'] : ['0.7', '0.65', '0.6', '0.5'];
          const p = await this.step({
            title: isTopK ? vscode.l10n.t('Passages (topK)') : vscode.l10n.t('Score threshold'),
            placeholder: isTopK
              ? vscode.l10n.t('1 to 20; type a number or pick one')
              : vscode.l10n.t('0 to 1; type a number or pick one. Low values bring noise.'),
            items: presets.map((v) => ({
              label: v,
              kind2: 'value',
              data: v,
              ...(!isTopK && Number(v) < 0.6
                ? { detail: vscode.l10n.t('Low thresholds let off-topic passages through: check each before citing.') }
                : {}),
            })),
            back: true,
          });
          if (p.kind === 'hide') return undefined;
          if (p.kind === 'accept') {
            const raw = Number(p.item ? String(p.item.data) : p.value.trim());
            if (isTopK && Number.isInteger(raw) && raw >= 1 && raw <= 20) o = { ...o, topK: raw };
            else if (!isTopK && Number.isFinite(raw) && raw >= 0 && raw <= 1) {
              if (
                raw === 0 &&
                !(await confirmNoise(
                  vscode.l10n.t('With the threshold off, unrelated low-scoring passages are returned.'),
                ))
              )
                break;
              o = { ...o, scoreThreshold: raw };
            } else
              void vscode.window.showWarningMessage(
                isTopK
                  ? vscode.l10n.t('topK must be a whole number from 1 to 20.')
                  : vscode.l10n.t('The score threshold must be a number from 0 to 1.'),
              );
          }
          break;
        }
      }
    }
  }

  /**
   * The quick free-text search: the query step with search-as-you-type, then the full search on
   * Enter (or the passage picked while typing, inserted).
   */
  async searchFreeText(initial: model.SearchOptions): Promise<SearchRun> {
    this.freeText = true;
    const chosen = await this.confirm(initial, false, undefined, true);
    if (chosen === undefined || chosen === 'back') return this.end('closed');
    if (typeof chosen === 'string') return this.end(chosen);
    return this.search(chosen);
  }

  /**
   * Runs `options` with progress (Cancel aborts the request) and shows the results, or the miss and
   * its offers; loops while the user retries. Returns how the session ended.
   */
  async search(first: model.SearchOptions): Promise<SearchRun> {
    let options: model.SearchOptions | undefined = first;
    while (options) {
      const outcome = await this.execute(options);
      if (outcome === 'cancelled') return this.end('cancelled');
      if (outcome instanceof Error) {
        this.qp.hide();
        void vscode.window.showErrorMessage(describeError(outcome, this.services.connection.endpoint));
        return this.end('error');
      }
      if (outcome.kind === 'hit') {
        const next = await this.results(outcome);
        if (next === undefined || typeof next === 'string') return this.end(next ?? 'closed');
        options = next;
      } else {
        this.lastMiss = outcome.miss;
        const next = await this.missed(outcome);
        if (next === undefined || typeof next === 'string') return this.end(next ?? 'closed');
        options = next;
      }
    }
    return this.end('closed');
  }

  private end(status: SearchRun['status']): SearchRun {
    return {
      status,
      ...(this.lastRecord ? { record: this.lastRecord } : {}),
      ...(this.lastMiss ? { miss: this.lastMiss } : {}),
    };
  }

  private async execute(options: model.SearchOptions): Promise<SearchOutcome | Error | 'cancelled'> {
    const qp = this.qp;
    const { connection, store } = this.services;
    qp.title = vscode.l10n.t('Searching for "{0}"…', options.query);
    qp.items = [];
    qp.value = '';
    qp.buttons = [];
    qp.busy = true;
    qp.ignoreFocusOut = true;
    qp.placeholder = this.describeOptions(options);
    this.current = undefined;
    if (!this.hidden) qp.show();
    const abort = new AbortController();
    const hide = qp.onDidHide(() => abort.abort());
    try {
      return await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t('Searching the knowledge base for "{0}"…', options.query),
          cancellable: true,
        },
        async (_progress, token) => {
          const sub = token.onCancellationRequested(() => abort.abort());
          try {
            const state = store.state;
            const outcome = await connection.run((client) =>
              runSearch(options, this.deps(client, state), abort.signal),
            );
            if (abort.signal.aborted) return 'cancelled';
            // The store takes the change at once (in memory); writing it to workspace state is not waited for.
            void this.commit(outcome).catch(() => undefined);
            return outcome;
          } finally {
            sub.dispose();
          }
        },
      );
    } catch (err) {
      if (abort.signal.aborted || isPlatformError(err, 'cancelled')) return 'cancelled';
      return err instanceof Error ? err : new Error(String(err));
    } finally {
      hide.dispose();
      qp.busy = false;
      qp.ignoreFocusOut = false;
      if (abort.signal.aborted) {
        qp.hide();
        void vscode.window.setStatusBarMessage(vscode.l10n.t('Knowledge search cancelled.'), 3000);
      }
    }
  }

  /** What `runSearch` needs: the shared client's call and the knowledge bases known in `state`. */
  private deps(
    client: { knowledgeSearch(o: model.SearchOptions, opts: { signal: AbortSignal }): Promise<KnowledgeResult> },
    state: model.KnowledgeState,
  ): SearchDeps {
    return {
      call: (o, signal): Promise<KnowledgeResult> => client.knowledgeSearch(o, { signal }),
      missOf: (e) => (isPlatformError(e, 'knowledge-miss') ? e : undefined),
      bases: state.bases,
      basesListed: state.basesListed,
      now: () => new Date(),
    };
  }

  /** Remembers what a search saw (knowledge bases) and, for a hit, the search in the history. */
  private async commit(outcome: SearchOutcome): Promise<void> {
    await this.services.store.update((s) => {
      let next = s;
      for (const o of outcome.observed) next = model.observeBases(next, o.kbCode, o.kbName, o.listed);
      if (outcome.kind === 'hit' && !next.history.some((r) => r.id === outcome.record.id))
        next = model.addSearch(next, outcome.record);
      return next;
    });
  }

  /** Copy and "show in the browser" on a passage (the browser needs the search in the history first: `remember`). */
  private passageButton(
    record: model.SearchRecord,
    stored: model.StoredPassage,
    button: vscode.QuickInputButton,
    remember: () => Promise<void>,
  ): void {
    if (button === BUTTON_COPY) void copyPassage(stored.passage);
    else if (button === BUTTON_REVEAL) {
      this.qp.hide();
      void remember().then(() =>
        vscode.commands.executeCommand('shunong.browser.reveal', record.id, model.idOf(stored.passage)),
      );
    }
  }

  /** The results list. Returns new options to search with, a final status, or undefined (closed). */
  private async results(
    outcome: SearchOutcome & { kind: 'hit' },
  ): Promise<model.SearchOptions | SearchRun['status'] | undefined> {
    const { record } = outcome;
    this.lastRecord = record;
    const docs = this.services.docs;
    const passages = passageItems(record, false);
    const scoreType = record.passages[0]?.passage.scoreType ?? '';
    const info = [
      ...summarizeCounts(outcome.counts, outcome.warnings).map(localise),
      scoreNote(scoreType, outcome.fused),
      ...outcome.failed.map((f) =>
        vscode.l10n.t('{0} did not answer: {1}', f.kbCode, describeError(f.error, this.services.connection.endpoint)),
      ),
    ];
    const infoItems: FlowItem[] = [
      { label: vscode.l10n.t('About these results'), kind: vscode.QuickPickItemKind.Separator, kind2: 'info' },
      ...info.map((line) => ({ label: `$(info) ${line}`, kind2: 'info' as const })),
    ];
    const where = outcome.fused
      ? vscode.l10n.t('{0} knowledge bases, fused by rank', outcome.lists)
      : record.passages[0]?.passage.kbName || record.kbCodes.join(', ');
    for (;;) {
      const step = this.step({
        title: vscode.l10n.t('"{0}": {1} passages · {2}', record.options.query, record.passages.length, where),
        placeholder: vscode.l10n.t('Enter inserts the cited snippet; the buttons cite, copy or show it in the browser'),
        items: [...passages, ...infoItems],
        back: true,
        buttons: [BUTTON_OPTIONS],
      });
      this.activeChanged = (item) => {
        if (item?.stored) void docs.preview(item.stored);
      };
      this.itemButton = (item, button) => {
        if (!item.stored) return;
        if (button === BUTTON_SNIPPET || button === BUTTON_CITATION)
          this.current?.({
            kind: 'accept',
            item: { ...item, data: button === BUTTON_SNIPPET ? 'snippet' : 'citation' },
            value: '',
          });
        else this.passageButton(record, item.stored, button, () => Promise.resolve());
      };
      const r = await step;
      if (r.kind === 'hide') {
        await docs.closePreview();
        return undefined;
      }
      if (r.kind === 'back') {
        const again = await this.confirm(record.options, false, undefined, this.freeText);
        return again === 'back' ? undefined : again;
      }
      if (r.kind === 'button') {
        const edited = await this.editOptions(record.options);
        return edited;
      }
      const chosen = r.item?.stored;
      if (!chosen) continue;
      this.qp.hide();
      await docs.closePreview();
      return this.cite(chosen.passage, r.item?.data !== 'citation');
    }
  }

  /** Inserts a passage into the editor the search started from (a Markdown bulletin). */
  private async cite(
    passage: import('../../citations/passage').CitedPassage,
    snippet: boolean,
  ): Promise<SearchRun['status']> {
    const target = this.target;
    if (!target || target.document.isClosed || target.document.languageId !== 'markdown') {
      await this.services.docs.open(passage);
      void vscode.window.showInformationMessage(
        vscode.l10n.t(
          'Open a Markdown bulletin and put the cursor where the citation goes, then insert it from the knowledge browser.',
        ),
      );
      return 'opened';
    }
    await vscode.window.showTextDocument(target.document, {
      viewColumn: target.viewColumn ?? vscode.ViewColumn.Active,
      selection: target.selection,
      preserveFocus: false,
    });
    const ok = await vscode.commands.executeCommand<boolean>(
      snippet ? 'shunong.insertCitedSnippet' : 'shunong.insertCitation',
      passage,
    );
    return ok ? (snippet ? 'inserted' : 'cited') : 'closed';
  }

  /** The miss: why, and the ways out. Returns the next search, or undefined when closed. */
  private async missed(
    outcome: SearchOutcome & { kind: 'miss' },
  ): Promise<model.SearchOptions | SearchRun['status'] | undefined> {
    const lib = this.knowledge();
    const vocab = vocabularyFor(lib, this.target?.document.uri);
    const lines = lib.describeMiss(outcome.miss).map(localise);
    const offers = lib.missOffers(outcome.miss, outcome.options, { vocabulary: vocab });
    const noise = vscode.l10n.t('Low scores bring noise: check each passage before citing it.');
    const offerItems: FlowItem[] = offers.map(
      (o) =>
        ({
          label: `${offerIcon(o)} ${localise(o.message)}`,
          detail: o.warning ? localise(o.warning) : o.change.kind === 'scoreThreshold' ? noise : undefined,
          kind2: 'offer',
          data: o,
          alwaysShow: true,
        }) as FlowItem,
    );
    const items: FlowItem[] = [
      ...lines.map((l) => ({ label: `$(info) ${l}`, kind2: 'info' as const, alwaysShow: true })),
      { label: vscode.l10n.t('What next?'), kind: vscode.QuickPickItemKind.Separator, kind2: 'info' },
      ...offerItems,
      { label: `$(edit) ${vscode.l10n.t('Edit the query')}`, kind2: 'edit', alwaysShow: true },
    ];
    for (;;) {
      const r = await this.step({
        title: vscode.l10n.t('No passage matched "{0}"', outcome.options.query),
        placeholder: vscode.l10n.t('Nothing is inserted without a hit. Pick a way to retry.'),
        items,
        ...(offerItems[0] ? { active: offerItems[0] } : {}),
      });
      if (r.kind !== 'accept') return undefined;
      const it = r.item;
      if (!it || it.kind2 === 'info') continue;
      if (it.kind2 === 'edit') {
        const again = await this.confirm(outcome.options, false, undefined, this.freeText);
        return again === 'back' ? undefined : again;
      }
      const offer = it.data as MissOffer;
      if (offer.requiresConfirmation && !(await confirmNoise(offer.warning ? localise(offer.warning) : noise)))
        continue;
      if (offer.change.kind === 'guided') {
        const { query: _q, ...rest } = outcome.options;
        void _q;
        const guided = await this.guided({
          prefill: offer.change.prefill,
          ...(rest.kbCode ? { kbCode: rest.kbCode } : {}),
        });
        return guided ? { ...rest, ...guided, query: guided.query } : undefined;
      }
      return { ...offer.args } as model.SearchOptions;
    }
  }

  dispose(): void {
    this.current?.({ kind: 'hide' });
    for (const d of this.disposables) d.dispose();
  }
}

/** A query too short to search while typing (its list is emptied). */
class TypingTooShort extends Error {}

/**
 * The result items of `record` in its order (the server's ranking, or the fused one). `alwaysShow`
 * while typing: the typed query is the quick pick's filter text, and VS Code must neither hide nor
 * re-sort the passages by it.
 */
function passageItems(record: model.SearchRecord, alwaysShow: boolean): FlowItem[] {
  return record.passages.map((s) => ({
    label: firstLine(s.passage.content, 40),
    description: `${model.keyOf(s.passage)} · ${s.passage.kbName}`,
    detail: `${scoreText(s)} · ${snippetRest(s.passage.content)}`,
    kind2: 'passage',
    stored: s,
    buttons: [BUTTON_SNIPPET, BUTTON_CITATION, BUTTON_COPY, BUTTON_REVEAL],
    ...(alwaysShow ? { alwaysShow: true } : {}),
  }));
}

function offerIcon(o: MissOffer): string {
  switch (o.id) {
    case 'lower-threshold':
    case 'disable-threshold':
      return '$(filter)';
    case 'refine':
      return '$(list-flat)';
    case 'all-knowledge-bases':
      return '$(globe)';
  }
}

/** A modal confirmation for a noisy retry. */
async function confirmNoise(warning: string): Promise<boolean> {
  const go = vscode.l10n.t('Retry anyway');
  return (await vscode.window.showWarningMessage(warning, { modal: true }, go)) === go;
}

/** Copies a passage followed by its citation. */
export async function copyPassage(p: import('../../citations/passage').CitedPassage): Promise<void> {
  await vscode.env.clipboard.writeText(`${p.content}\n— ${citationText(p)}`);
  void vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0}', model.keyOf(p)), 3000);
}
