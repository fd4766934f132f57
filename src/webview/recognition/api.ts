/**
 * The webview's channel to the extension: typed messages of the shared protocol, and the view
 * state VS Code keeps for the webview while it is hidden or reloaded (`getState` / `setState`).
 */
import type { WebviewMessage } from '../../recognition/protocol';

/** What survives a reload of the webview (the host replays the rest). */
export interface SavedState {
  /** Zoom: fit the viewport, or this scale. */
  fit: boolean;
  scale: number;
}

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): SavedState | undefined;
  setState(state: SavedState): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();

/** Sends a message to the extension. */
export function post(m: WebviewMessage): void {
  vscode.postMessage(m);
}

/** The view state saved before the last reload, if it is well formed. */
export function savedState(): SavedState | undefined {
  const s: unknown = vscode.getState();
  if (typeof s !== 'object' || s === null) return undefined;
  const { fit, scale } = s as Partial<SavedState>;
  return typeof fit === 'boolean' && typeof scale === 'number' && scale > 0 ? { fit, scale } : undefined;
}

/** Keeps the view state for the next reload. */
export function saveState(state: SavedState): void {
  vscode.setState(state);
}
