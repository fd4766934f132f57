/**
 * A registration made at activation for something the features bundle implements once it has
 * loaded. The features load once the open bulletins' Problems are published (src/extension.ts, in
 * every extension mode), but VS Code may call a chat tool, the participant or the MCP provider the
 * moment activation returns (it activates us for that call, then wants an implementation at once). A stand-in is registered at activation
 * under the real id; when called, it loads the features and delegates to what they handed over.
 * The features take the registration over (`take`) instead of registering their own, so VS Code
 * never sees a moment without one.
 */
import vscode = require('vscode');

export class StandIn<T> implements vscode.Disposable {
  private target: T | undefined;
  private registration: vscode.Disposable | undefined;
  private readonly taken = new vscode.EventEmitter<T>();

  /**
   * @param load loads the features (synchronously; they call `take` while loading)
   * @param register registers the stand-in; its implementation calls `current()` for the real
   *   thing (never during `register` itself) and may follow `taken` (e.g. to forward events)
   */
  constructor(
    private readonly load: () => void,
    register: (current: () => T, taken: vscode.Event<T>) => vscode.Disposable,
  ) {
    this.registration = register(() => this.current(), this.taken.event);
  }

  /** What the features handed over, loading them first if needed. */
  current(): T {
    if (this.target === undefined) this.load();
    if (this.target === undefined) {
      // The features loaded and did not take it: its setting is off, or this VS Code refused it.
      throw new Error(vscode.l10n.t("This part of Shunong's chat support is turned off or not available here."));
    }
    return this.target;
  }

  /**
   * The features take the registration over with their implementation. Returns what removes it,
   * or undefined when there is none to take (taken before, or released).
   */
  take(target: T): vscode.Disposable | undefined {
    const registration = this.registration;
    if (!registration) return undefined;
    this.registration = undefined;
    this.target = target;
    this.taken.fire(target);
    return {
      dispose: () => {
        this.target = undefined;
        registration.dispose();
      },
    };
  }

  /** Removes the registration unless the features took it (they then own it). */
  dispose(): void {
    this.registration?.dispose();
    this.registration = undefined;
    this.taken.dispose();
  }
}
