/**
 * Activation entry (`dist/extension.js`), kept thin so that VS Code's start-up never waits on us,
 * and the one way Shunong activates, in every extension mode: it registers a stand-in for every
 * command the manifest contributes, and the citation Problems (src/features/cite/diagnostics.ts,
 * linted in a worker thread), which it publishes for the bulletins already open. The features
 * bundle (`dist/features.js`: status bar, views, Markdown providers, commands) loads once the
 * workbench has reported those Problems back, in its own task (loading it before would hold them
 * up on this thread) — or at once, if a command is run first. A stand-in, when run,
 * loads the features (which replace every stand-in with the real command) and runs the real
 * command. VS Code's chat gets stand-ins too (src/features/chat/standIns.ts): the language model
 * tools, the participant and the MCP provider are registered here and taken over by the features,
 * since the workbench may call them the moment activation returns. The exported `loaded` settles
 * once the features are loaded and have started (the connection's idle state known).
 */
import * as path from 'node:path';
import type { MarkdownIt } from 'markdown-it';
import vscode = require('vscode');
import { loadCitations } from './bundles';
import { chatStandIns, type ChatStandIns } from './features/chat/standIns';
import { CitationDiagnostics } from './features/cite/diagnostics';
import type { ShunongApi } from './features/index';
import { extendMarkdownIt } from './features/markdownPreview/markdownIt';
import { LintWorker } from './lintWorker/client';

export type { ShunongApi };

/**
 * What the extension exports: the features' API (loading them if needed), when they are loaded,
 * and `extendMarkdownIt` for VS Code's Markdown engine (`markdown.markdownItPlugins`).
 */
export type ExtensionExports = ShunongApi & {
  readonly loaded: Promise<void>;
  extendMarkdownIt(md: MarkdownIt): MarkdownIt;
};

/** Activation entry point. */
export function activate(context: vscode.ExtensionContext): ExtensionExports {
  // Loaded by whichever comes first: a command's stand-in, a chat stand-in, or the next task.
  let standIns: ChatStandIns = {};
  const diagnostics = citationDiagnostics(context);
  const lazy = new LazyCommands(contributedCommands(context), () =>
    featuresBundle().activate(context, { standIns, diagnostics }),
  );
  lazy.stubCommands();
  standIns = chatStandIns(context, () => lazy.load());
  // Settles once the features are loaded and started (or failed to, which the user is told).
  const loaded = new Promise<void>((resolve) => {
    const load = (): void => {
      try {
        void lazy.load().started.then(resolve, (e: unknown) => {
          couldNotStart(e);
          resolve();
        });
      } catch (e) {
        couldNotStart(e);
        resolve();
      }
    };
    // The open bulletins' Problems first (what an author sees of us first), then the features.
    const next = (): void => void setTimeout(load, 0);
    setTimeout(() => void diagnostics.refreshOpen().then(next, next), 0);
  });
  return {
    get connection() {
      return lazy.load().api.connection;
    },
    get commands() {
      return lazy.load().api.commands;
    },
    get calendar() {
      return lazy.load().api.calendar;
    },
    get citations() {
      return lazy.load().api.citations;
    },
    get knowledge() {
      return lazy.load().api.knowledge;
    },
    get preview() {
      return lazy.load().api.preview;
    },
    get export() {
      return lazy.load().api.export;
    },
    get safety() {
      return lazy.load().api.safety;
    },
    get dose() {
      return lazy.load().api.dose;
    },
    get verify() {
      return lazy.load().api.verify;
    },
    get chat() {
      return lazy.load().api.chat;
    },
    loaded,
    // never loads the features: titles come once they are there
    extendMarkdownIt: (md) => extendMarkdownIt(md, () => lazy.current?.api.preview),
  };
}

function couldNotStart(e: unknown): void {
  void vscode.window.showErrorMessage(
    vscode.l10n.t('Shunong could not start: {0}', e instanceof Error ? e.message : String(e)),
  );
}

/**
 * Something loaded once, on first need, with stand-ins for the commands it registers: running a
 * stand-in loads it (after disposing every stand-in, so the real commands can take their ids)
 * and then runs the real command.
 */
export class LazyCommands<T> {
  private value: T | undefined;
  private stubs: vscode.Disposable[] = [];

  constructor(
    private readonly commands: readonly string[],
    private readonly loadOnce: () => T,
  ) {}

  /** Registers the stand-ins. */
  stubCommands(): void {
    for (const command of this.commands) {
      this.stubs.push(
        vscode.commands.registerCommand(command, (...args: unknown[]) => {
          this.load();
          return vscode.commands.executeCommand(command, ...args);
        }),
      );
    }
  }

  /** The value if it is loaded. */
  get current(): T | undefined {
    return this.value;
  }

  /** The value, loaded on the first call. */
  load(): T {
    if (this.value !== undefined) return this.value;
    for (const stub of this.stubs.splice(0)) stub.dispose();
    this.value = this.loadOnce();
    return this.value;
  }
}

/** The citation Problems, linted in a worker thread beside dist/citations.js (on this thread if it cannot run). */
function citationDiagnostics(context: vscode.ExtensionContext): CitationDiagnostics {
  const diagnostics = new CitationDiagnostics(
    new LintWorker({
      script: path.join(__dirname, 'lintWorker.js'),
      library: path.join(__dirname, 'citations.js'),
      fallback: () => loadCitations().lint,
    }),
  );
  context.subscriptions.push(diagnostics, ...diagnostics.watch());
  return diagnostics;
}

/** The commands the manifest contributes. */
function contributedCommands(context: vscode.ExtensionContext): string[] {
  const pkg = context.extension.packageJSON as { contributes?: { commands?: { command: string }[] } };
  return (pkg.contributes?.commands ?? []).map((c) => c.command);
}

/** The features bundle, `dist/features.js` (required once; Node caches it). */
function featuresBundle(): typeof import('./features/index') {
  // A computed path keeps esbuild from inlining the bundle into this one.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(path.join(__dirname, 'features.js')) as typeof import('./features/index');
}

export function deactivate(): void {
  // every disposable is on context.subscriptions
}
