/**
 * The workspace's knowledge state (search history, pins, knowledge bases seen) in workspace state,
 * with a change event for the browser view. Every change is written at once, so it survives a reload.
 */
import vscode = require('vscode');
import type { CitedPassage } from '../../citations/passage';
import * as model from '../../knowledge/history';

/** The workspace-state key. */
const STATE_KEY = 'shunong.knowledge.state';

/** The persisted knowledge state of this workspace. */
export class KnowledgeStore implements vscode.Disposable {
  private value: model.KnowledgeState;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires after every change. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly memento: vscode.Memento) {
    this.value = model.readState(memento.get(STATE_KEY));
  }

  /** The current state (immutable). */
  get state(): model.KnowledgeState {
    return this.value;
  }

  /** Applies `change` and persists the result. */
  async update(change: (s: model.KnowledgeState) => model.KnowledgeState): Promise<void> {
    const next = change(this.value);
    if (next === this.value) return;
    this.value = next;
    this.changed.fire();
    await this.memento.update(STATE_KEY, next);
  }

  /** Pins or unpins a passage. */
  async setPinned(passage: CitedPassage, pinned: boolean): Promise<void> {
    await this.update((s) => (pinned ? model.pin(s, passage) : model.unpin(s, passage)));
  }

  dispose(): void {
    this.changed.dispose();
  }
}
