/**
 * "Shunong: Export Bulletin…" (palette, editor title, explorer context menu on Markdown files) and
 * "Shunong: Copy for WeChat": a bulletin to Word with real footnotes, to a WeChat article, to a
 * standalone HTML page, to PDF (printed by a browser on the machine: pdf.ts), through src/publish
 * (the `dist/publish.js` bundle, loaded on the first export). The bulletin is read as it is in the editor (unsaved changes included) and never
 * changed; an existing file is replaced only when the user says so, and one that recommends a
 * banned pesticide (safety.ts) or gives a dose its cited passage does not (doses.ts) is exported
 * only when the user says so.
 */
import { insideFolder } from '../../paths';
import vscode = require('vscode');
import { loadPublish, type PublishLib } from '../../bundles';
import type { Browser, ExportFormat, ExportOutcome, PublishWarning } from '../../publish/index';
import type { SettingGroups } from '../../settings/index';
import { refusedAsMisdecoded } from '../shared/decoding';
import { insertLanguageFor } from '../shared/language';
import { problemMessage } from '../shared/problems';
import { settings } from '../shared/settings';
import { imageReader } from './images';
import { WechatPanel } from './panel';
import { chooseFormat, chooseTarget, type Target } from './prompts';
import type { SafetyService } from '../shared/safety';
import type { CommandRegistry } from '../shared/commands';
import type { Failures } from '../shared/failures';
import type { WrongDoses } from '../shared/doses';
import { dosesAgreeForExport } from './doses';
import { safeToExport } from './safety';
import { refusedForProblems } from './refused';
import { pdfBrowser, pdfFailed } from './pdf';
import { withSignal } from '../shared/signal';

/** What the tests see of the feature. */
export interface ExportApi {
  /** Exports `uri` (or the active Markdown editor) as `format`, asking what it must; the written file, if any. */
  exportBulletin(uri?: vscode.Uri, format?: ExportFormat): Promise<vscode.Uri | undefined>;
  /** The open "Copy for WeChat" panel. */
  readonly wechatPanel: WechatPanel | undefined;
}

/**
 * What the export needs: the log its reports go to, the safety check, the bulletin's wrong doses
 * (the dose feature's, checked now), the failures, the command registry.
 */
interface ExportServices {
  readonly output: vscode.LogOutputChannel;
  readonly safety: SafetyService;
  readonly doses?: WrongDoses;
  readonly failures: Failures;
  readonly commands: CommandRegistry;
}

/** Registers the commands. */
export function activate(context: vscode.ExtensionContext, services: ExportServices): ExportApi {
  const run = async (uri?: vscode.Uri, format?: ExportFormat): Promise<vscode.Uri | undefined> => {
    const document = await bulletinDocument(uri);
    if (!document) return undefined;
    const chosen = format ?? (await chooseFormat(context.workspaceState));
    if (!chosen) return undefined;
    return exportDocument(context, services, document, chosen);
  };
  services.commands.register(
    {
      id: 'shunong.exportBulletin',
      run: (uri?: unknown, format?: unknown) =>
        run(
          uri instanceof vscode.Uri ? uri : undefined,
          typeof format === 'string' ? (format as ExportFormat) : undefined,
        ),
    },
    { id: 'shunong.copyForWeChat', run: (uri?: unknown) => run(uri instanceof vscode.Uri ? uri : undefined, 'wechat') },
  );
  return {
    exportBulletin: run,
    get wechatPanel() {
      return WechatPanel.open;
    },
  };
}

/** The Markdown document to export: the given file (opened, so unsaved edits count) or the active editor's. */
async function bulletinDocument(uri: vscode.Uri | undefined): Promise<vscode.TextDocument | undefined> {
  const document = uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
  if (document?.languageId === 'markdown') return document;
  void vscode.window.showWarningMessage(vscode.l10n.t('Open a Markdown bulletin to export it.'));
  return undefined;
}

/** Exports `document` as `format` to the file the user chooses, then says what was written; that file, if any. */
async function exportDocument(
  context: vscode.ExtensionContext,
  services: ExportServices,
  document: vscode.TextDocument,
  format: ExportFormat,
): Promise<vscode.Uri | undefined> {
  if (await refusedAsMisdecoded(document, 'export')) return undefined;
  const s = settings.export(document.uri);
  if (!(await safeToExport(document.getText(), s.refuseUnsafe, services.safety))) return undefined;
  if (!(await dosesAgreeForExport(services.doses?.wrongDoses(document) ?? []))) return undefined;
  return exportChecked(context, services, document, format, s);
}

/** The export of a bulletin that may be exported; a PDF the browser cannot print may become a Word file. */
async function exportChecked(
  context: vscode.ExtensionContext,
  services: ExportServices,
  document: vscode.TextDocument,
  format: ExportFormat,
  s: SettingGroups['export'],
): Promise<vscode.Uri | undefined> {
  const { output, failures } = services;
  const publish: PublishLib = loadPublish();
  const browser = format === 'pdf' ? await pdfBrowser(publish, s.browserPath, output) : undefined;
  if (browser === 'word') return exportChecked(context, services, document, 'docx', s);
  if (format === 'pdf' && !browser) return undefined;
  const target = await chooseTarget(document, format, publish.outputName);
  if (!target) return undefined;
  const template = format === 'docx' && s.docxTemplate ? await readTemplate(document, s.docxTemplate) : undefined;
  if (template === null) return undefined;
  let outcome;
  try {
    outcome = await writeExport(publish, s, document, format, target, { template, browser });
  } catch (err) {
    // a file that cannot be written (read-only folder, full disk) or a writer's own failure: said, not thrown
    const why = err instanceof Error ? err.message : String(err);
    failures.report(
      `export of ${basename(document.uri)}`,
      err,
      vscode.l10n.t('Could not export {0}: {1}', basename(target.uri), why),
    );
    return undefined;
  }
  if (outcome === 'cancelled') return undefined;
  if (!outcome.ok) {
    if (outcome.reason === 'pdf' && browser) {
      if ((await pdfFailed(publish, browser, outcome.failure, output)) === 'word')
        return exportChecked(context, services, document, 'docx', s);
    } else if (outcome.reason === 'broken-citations') {
      await refusedForProblems(
        vscode.l10n.t(
          'Not exported: {0} broken citation(s). Fix them, or turn off shunong.export.refuseBrokenCitations.',
          outcome.broken.length,
        ),
      );
    } else if (outcome.reason === 'template')
      await templateProblem(s.docxTemplate, publish.templateProblemText(outcome.error, outcome.where, vscode.l10n));
    return undefined;
  }
  const pictures = (outcome.pictures ?? []).map((p) => vscode.Uri.joinPath(target.uri, '..', p.name));
  await report(context, output, document, target, format, outcome.warnings, outcome.article, pictures);
  return target.uri;
}

/** Exports under a cancellable progress and, unless cancelled, writes the file (a WeChat article's pictures beside it). */
async function writeExport(
  publish: PublishLib,
  s: SettingGroups['export'],
  document: vscode.TextDocument,
  format: ExportFormat,
  target: Target,
  use: { template: Uint8Array | undefined; browser: Browser | undefined },
): Promise<ExportOutcome | 'cancelled'> {
  return vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Exporting {0}…', basename(target.uri)),
      cancellable: true,
    },
    (_progress, token) =>
      withSignal(token, async (signal) => {
        const { template, browser } = use;
        const result = await publish
          .exportBulletin({
            text: document.getText(),
            format,
            lang: insertLanguageFor(document),
            referencesHeading: settings.citations(document.uri).referencesHeading,
            citations: s.citations,
            refuseBrokenCitations: s.refuseBrokenCitations,
            defaultLayout: s.layout,
            officialFonts: s.officialFonts,
            ...(template ? { template } : {}),
            readImage: imageReader(document),
            now: new Date(),
            ...(format === 'wechat'
              ? { imageBaseUrl: s.imageBaseUrl, picturePrefix: publish.picturePrefix(basename(target.uri)) }
              : {}),
            ...(browser
              ? { print: (page: string) => publish.printToPdf(page, { browser, timeoutMs: s.pdfTimeoutMs, signal }) }
              : {}),
          })
          // the browser stopped on cancel rejects with the signal's reason
          .catch((err: unknown) => (signal.aborted ? ('cancelled' as const) : Promise.reject(err)));
        if (result === 'cancelled' || token.isCancellationRequested) return 'cancelled' as const;
        if (result.ok) {
          await vscode.workspace.fs.writeFile(target.uri, result.bytes);
          // the article's pictures beside it, in order: to upload in WeChat's editor, or to the station's host
          for (const p of result.pictures ?? [])
            await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(target.uri, '..', p.name), p.bytes);
        }
        return result;
      }),
  );
}

/** The template's bytes; null (after telling the user) when it cannot be read. */
async function readTemplate(document: vscode.TextDocument, path: string): Promise<Uint8Array | null> {
  const folder = vscode.workspace.getWorkspaceFolder(document.uri)?.uri ?? vscode.Uri.joinPath(document.uri, '..');
  const rel = insideFolder(path);
  if (rel === undefined) {
    await templateProblem(path, vscode.l10n.t('it must be a .docx file inside the workspace folder'));
    return null;
  }
  try {
    return await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, rel));
  } catch {
    await templateProblem(path, vscode.l10n.t('the file cannot be read'));
    return null;
  }
}

async function templateProblem(path: string, why: string): Promise<void> {
  const open = vscode.l10n.t('Open Settings');
  const pick = await vscode.window.showErrorMessage(
    vscode.l10n.t(
      'Not exported: the Word template "{0}" of shunong.export.docxTemplate cannot be used: {1}.',
      path,
      why,
    ),
    open,
  );
  if (pick === open)
    await vscode.commands.executeCommand('workbench.action.openSettings', 'shunong.export.docxTemplate');
}

/** Tells what was written (and what was left out); opens the copy panel for a WeChat article. */
async function report(
  context: vscode.ExtensionContext,
  output: vscode.LogOutputChannel,
  document: vscode.TextDocument,
  target: Target,
  format: ExportFormat,
  warnings: readonly PublishWarning[],
  article: string | undefined,
  pictures: readonly vscode.Uri[],
): Promise<void> {
  const publish = loadPublish();
  const lines = warnings.map((w) => publish.warningText(w, vscode.l10n, problemMessage));
  for (const line of lines) output.warn(`${basename(document.uri)}: ${line}`);
  if (format === 'wechat' && article !== undefined)
    WechatPanel.show(context.extensionUri, article, target.uri, pictures);
  const name = basename(target.uri);
  const openLabel = vscode.l10n.t('Open');
  const details = vscode.l10n.t('Show Details');
  const buttons = [...(format === 'wechat' ? [] : [openLabel]), ...(lines.length ? [details] : [])];
  const message = lines.length
    ? vscode.l10n.t('Exported {0} with {1} warning(s): {2}', name, lines.length, lines.slice(0, 2).join(' '))
    : vscode.l10n.t('Exported {0}.', name);
  const show = lines.length ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  const pick = await show(message, ...buttons);
  if (pick === details) output.show(true);
  else if (pick === openLabel) await vscode.env.openExternal(target.uri);
}

function basename(uri: vscode.Uri): string {
  return uri.path.split('/').pop() ?? uri.path;
}
