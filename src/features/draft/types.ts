/** What the draft feature takes and gives: its services, a scripted run's arguments, the outcome. */
import type vscode = require('vscode');
import type { ChatUsage } from '../../shunong/index';
import type { DraftBlock } from '../../citations/draftPlan';
import type { CommandRegistry } from '../shared/commands';
import type { Connection } from '../shared/connection';
import type { Failures } from '../shared/failures';

/** Arguments for scripted runs (tests, other commands); without them the command asks. */
export interface DraftArgs {
  question?: string;
  kbCode?: string;
  topK?: number;
  minScore?: number;
  useRerank?: boolean;
  /** A place to include the weather for ('' = none). */
  weather?: string;
  weatherDate?: 'now' | 'forecast';
  /** What to accept: all, none, or sentence ids (see the outcome's `sentences`). */
  accept?: 'all' | 'none' | number[];
}

/** What the command did. */
export interface DraftOutcome {
  status: 'inserted' | 'discarded' | 'cancelled' | 'failed';
  content?: string;
  sentences?: { id: number; text: string; source: string }[];
  usage?: ChatUsage | undefined;
  resolved?: number;
  unresolved?: number;
  preview?: string;
}

/** Inserts a drafted text with its citations into a bulletin (one edit); the citation service does it. */
export interface DraftInserter {
  insertDraft(editor: vscode.TextEditor, blocks: readonly DraftBlock[]): Promise<boolean>;
}

/** The services the feature needs. */
export interface DraftServices {
  connection: Connection;
  citations: DraftInserter;
  commands: CommandRegistry;
  failures: Failures;
}
