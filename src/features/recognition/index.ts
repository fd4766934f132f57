/**
 * "Shunong: Recognize Crop Image…": picks an image (workspace file, URL or pasted path) and a
 * recognition type, calls crop_growth_recognize through the shared connection, and shows the
 * result in a preview panel (./panel) whose actions insert a Markdown summary into the bulletin,
 * save the annotated and original pictures into the workspace, or re-run with another type.
 *
 * This file is the glue: the command and the panels' messages. What the command accepts is in
 * ./arguments, the file checks in ./checks, a run in ./running, saving in ./saving, the summary's
 * insertion in ./insertion, and the type names, refusals, failures, notes and the result's words in
 * ./strings (each step words its own prompts and progress).
 */
import vscode = require('vscode');
import type { CommandRegistry } from '../shared/commands';
import type { Failures } from '../shared/failures';
import type { Connection } from '../shared/connection';
import type { ActionMessage } from '../../recognition/panelHost';
import type { RecognitionType } from '../../recognition/types';
import { chooseType, commandArguments, notASource, pickSource, type Source } from './arguments';
import { checkSource } from './checks';
import { PreviewCopies } from './copies';
import { Bulletins, insertSummary } from './insertion';
import { panelTitle } from './strings';
import { RecognitionPanel } from './panel';
import { Runner } from './running';
import { save, savedNames } from './saving';
import type { PanelState, RecognizeCommandResult } from './state';

export type { RecognizeCommandOptions } from './arguments';
export type { RecognizeCommandResult } from './state';

/** What the recognition needs: the connection, the failures' one way out, the command registry. */
interface RecognitionServices {
  readonly connection: Connection;
  readonly failures: Failures;
  readonly commands: CommandRegistry;
}

/** The feature: the command, and one state per open panel. */
class Recognition {
  private readonly states = new Map<string, PanelState>();
  private readonly bulletins = new Bulletins();
  private readonly copies: PreviewCopies;
  private readonly runner: Runner;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly services: RecognitionServices,
  ) {
    this.copies = new PreviewCopies(vscode.Uri.joinPath(context.globalStorageUri, 'recognition-preview'));
    this.runner = new Runner(services.connection, this.copies, services.failures);
  }

  /** Registers the command; answers what else it made. */
  register(): vscode.Disposable[] {
    this.services.commands.register({
      id: 'shunong.recognizeImage',
      run: (a?: unknown, b?: unknown) => this.command(a, b),
    });
    return [
      this.bulletins,
      {
        dispose: () => {
          RecognitionPanel.all().forEach((p) => p.dispose());
          void this.copies.releaseAll();
        },
      },
    ];
  }

  /** The command: (uri | url/path string | undefined, uris[] | options). */
  private async command(
    a?: unknown,
    b?: unknown,
  ): Promise<RecognizeCommandResult | RecognizeCommandResult[] | undefined> {
    const args = commandArguments(a, b);
    if (args.kind === 'refused') {
      void vscode.window.showErrorMessage(notASource(args.text));
      return { key: undefined, status: 'refused' };
    }
    let sources: Source[];
    if (args.kind === 'sources') sources = args.sources;
    else {
      const s = await pickSource();
      if (!s) return undefined;
      sources = [s];
    }
    const type = await chooseType(args.options, sources[0]?.uri);
    if (!type) return undefined;
    const results: RecognizeCommandResult[] = [];
    for (const s of sources) results.push(await this.start(s, type));
    return results.length === 1 ? results[0] : results;
  }

  /** Checks a local file (type by magic bytes, size) before anything is sent, then opens the panel and runs. */
  private async start(source: Source, type: RecognitionType): Promise<RecognizeCommandResult> {
    const checked = await checkSource(source);
    if (!checked.ok) return { key: source.key, status: 'refused', message: checked.message };
    const state: PanelState = this.states.get(source.key) ?? { source, type, run: 0 };
    state.source = source;
    state.type = type;
    state.firstBytes = checked.bytes;
    this.states.set(source.key, state);
    // The webview may load the image's own folder and the preview copies, nothing else of the disk.
    const roots = [this.copies.folder, ...(source.uri ? [vscode.Uri.joinPath(source.uri, '..')] : [])];
    const panel = RecognitionPanel.createOrShow(
      this.context.extensionUri,
      source.key,
      panelTitle(source, type),
      roots,
      (p, m) => this.onMessage(p, m),
    );
    panel.onDidDispose(() => {
      state.abort?.abort();
      this.states.delete(source.key);
      void this.copies.release(source.key);
    });
    return this.runner.run(panel, state);
  }

  /** The panel's buttons: retry, re-run with another type, save, insert. */
  private async onMessage(panel: RecognitionPanel, m: ActionMessage): Promise<void> {
    const state = this.states.get(panel.key);
    if (!state) return;
    try {
      switch (m.type) {
        case 'retry':
          await this.runner.run(panel, state);
          return;
        case 'rerun':
          state.type = m.recognitionType;
          await this.runner.run(panel, state);
          return;
        case 'save': {
          const saved = await save(panel, state, undefined);
          panel.post({ type: 'status', error: false, message: vscode.l10n.t('Saved {0}.', savedNames(saved)) });
          return;
        }
        case 'insert':
          await insertSummary(panel, state, this.bulletins);
          return;
      }
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      panel.post({ type: 'status', error: true, message });
      this.services.failures.report(`recognition panel: ${m.type}`, err, message);
    }
  }
}

/** Registers the command, the explorer menu entry's handler and the panels; answers what it registered. */
export function activate(context: vscode.ExtensionContext, services: RecognitionServices): vscode.Disposable[] {
  const registered = new Recognition(context, services).register();
  context.subscriptions.push(...registered);
  return registered;
}
