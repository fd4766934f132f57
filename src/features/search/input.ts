/**
 * The one QuickPick every step of the search is shown on, and the small driver of the steps (the
 * multi-step input pattern): a step shows itself and returns the next step, or undefined when the
 * flow is done; Back returns to the step before, closing the quick input ends the flow.
 */
import vscode = require('vscode');
import type { FlowItem } from './items';

/** How a step ends other than with an answer: thrown by {@link FlowInput.show}. */
export class FlowAction {
  private constructor(readonly name: string) {}
  /** The Back button: the driver shows the step before again. */
  static readonly back = new FlowAction('back');
  /** The quick input was closed (or the session disposed). */
  static readonly cancel = new FlowAction('cancel');
}

/** A step: shows itself on `input`, returns the next step (undefined: the flow is done). */
export type Step = (input: FlowInput) => Promise<Step | undefined>;

/** Runs `first` and the steps it leads to; Back pops to the step before. False when closed. */
export async function runSteps(input: FlowInput, first: Step): Promise<boolean> {
  const trail: Step[] = [];
  let step: Step | undefined = first;
  while (step) {
    trail.push(step);
    try {
      step = await step(input);
    } catch (err) {
      if (err === FlowAction.back) {
        trail.pop();
        step = trail.pop();
      } else if (err === FlowAction.cancel) return false;
      else throw err;
    }
  }
  return true;
}

/** An item accepted (Enter, or a cite button of a passage), or the text typed when no item is active. */
export interface Accepted {
  readonly kind: 'accept';
  readonly item: FlowItem | undefined;
  readonly value: string;
  /** Set when a passage's cite button answered the step. */
  readonly citeAs?: 'snippet' | 'citation';
}

/** A title-bar button other than Back. */
export interface Pressed {
  readonly kind: 'button';
  readonly button: vscode.QuickInputButton;
}

/** What a step was answered with. */
export type Answer = Accepted | Pressed;

/** What a step shows. */
export interface StepView {
  readonly title: string;
  readonly placeholder: string;
  readonly items: FlowItem[];
  /** The text in the input box (cleared when absent). */
  readonly value?: string;
  readonly step?: number;
  readonly total?: number;
  readonly back?: boolean;
  readonly buttons?: vscode.QuickInputButton[];
  readonly active?: FlowItem;
  readonly onValue?: (value: string) => void;
  readonly onActive?: (item: FlowItem | undefined) => void;
  readonly onItemButton?: (item: FlowItem, button: vscode.QuickInputButton) => void;
}

/** The QuickPick of one search session. */
export class FlowInput implements vscode.Disposable {
  readonly qp = vscode.window.createQuickPick<FlowItem>();
  private current: ((a: Answer | FlowAction) => void) | undefined;
  private view: StepView | undefined;
  private closed = false;
  private shown = 0;
  private readonly disposables: vscode.Disposable[] = [];

  constructor() {
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
        this.current?.(b === vscode.QuickInputButtons.Back ? FlowAction.back : { kind: 'button', button: b }),
      ),
      qp.onDidTriggerItemButton((e) => this.view?.onItemButton?.(e.item, e.button)),
      qp.onDidChangeActive((items) => this.view?.onActive?.(items[0])),
      qp.onDidChangeValue((v) => this.view?.onValue?.(v)),
      qp.onDidHide(() => {
        this.closed = true;
        this.current?.(FlowAction.cancel);
      }),
    );
  }

  /** True once the quick input was closed. */
  get hidden(): boolean {
    return this.closed;
  }

  /** Counts the steps shown, so a late answer never changes a later step. */
  get token(): number {
    return this.shown;
  }

  /** Shows a step and waits for its answer; Back and closing are thrown as {@link FlowAction}s. */
  show(view: StepView): Promise<Answer> {
    const qp = this.qp;
    qp.title = view.title;
    qp.placeholder = view.placeholder;
    qp.step = view.step;
    qp.totalSteps = view.total;
    qp.value = view.value ?? '';
    qp.items = view.items;
    if (view.active) qp.activeItems = [view.active];
    qp.buttons = [...(view.back ? [vscode.QuickInputButtons.Back] : []), ...(view.buttons ?? [])];
    qp.busy = false;
    qp.ignoreFocusOut = false;
    this.shown++;
    this.view = view;
    if (this.closed) return Promise.reject(FlowAction.cancel);
    qp.show();
    return new Promise((resolve, reject) => {
      this.current = (a) => {
        this.current = undefined;
        if (a instanceof FlowAction) reject(a);
        else resolve(a);
      };
    });
  }

  /** Shows a step that has no title-bar button but Back: its answer is always an accepted item or text. */
  async pick(view: StepView): Promise<Accepted> {
    const a = await this.show(view);
    if (a.kind !== 'accept') throw FlowAction.cancel;
    return a;
  }

  /** Like {@link pick}, with Back answered as undefined instead of thrown. */
  async pickOrBack(view: StepView): Promise<Accepted | undefined> {
    try {
      return await this.pick(view);
    } catch (err) {
      if (err === FlowAction.back) return undefined;
      throw err;
    }
  }

  /** Answers the step on screen (a passage's cite button). */
  answer(a: Accepted): void {
    this.current?.(a);
  }

  /** The busy state of a search in progress: no items, no buttons, kept open when the focus leaves. */
  showBusy(title: string, placeholder: string): void {
    const qp = this.qp;
    qp.title = title;
    qp.items = [];
    qp.value = '';
    qp.buttons = [];
    qp.busy = true;
    qp.ignoreFocusOut = true;
    qp.placeholder = placeholder;
    this.current = undefined;
    if (!this.closed) qp.show();
  }

  dispose(): void {
    this.current?.(FlowAction.cancel);
    for (const d of this.disposables) d.dispose();
  }
}
