/** The recognition state of one preview panel, shared by running, saving and insertion. */
import type * as vscode from 'vscode';
import type { FlowNote, FlowOutcome } from '../../recognition/flow';
import type { RecognitionSummary } from '../../recognition/summary';
import type { RecognitionType } from '../../recognition/types';

/** A resolved image source, with what identifies its panel. */
export interface Source {
  key: string;
  title: string;
  /** Stem of saved file names. */
  stem: string;
  /** The image file, when local (for the workspace folder and the save scope). */
  uri?: vscode.Uri;
  url?: string;
  /** Data URI pasted as a "URL". */
  data?: Uint8Array;
}

/** The pictures saved for the current result. */
export interface SavedPictures {
  annotated?: vscode.Uri;
  original?: vscode.Uri;
}

/** The recognition state of one panel. */
export interface PanelState {
  source: Source;
  type: RecognitionType;
  run: number;
  abort?: AbortController | undefined;
  outcome?: FlowOutcome | undefined;
  summary?: RecognitionSummary | undefined;
  saved?: SavedPictures | undefined;
  /** The bytes read (and checked) by the command, used by its first run instead of reading the file again. */
  firstBytes?: Uint8Array | undefined;
}

/** What the command returns. */
export interface RecognizeCommandResult {
  key: string | undefined;
  status: 'done' | 'failed' | 'refused' | 'cancelled';
  summary?: RecognitionSummary;
  message?: string;
  notes?: FlowNote[];
  /** Who shrunk or re-encoded the picture sent: the preview's webview, or jimp in the host. */
  shrunkBy?: 'webview' | 'fallback';
}
