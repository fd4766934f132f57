/**
 * "Shunong: Verify Citations" (the active bulletin), "Verify Citations in Workspace" and the hover's
 * "Fetch this passage": each distinct source looked up on the platform by the verify plan
 * (src/citations/verify.ts) through the shared connection, with progress and a Cancel that aborts
 * the searches in flight. Verified passages go into the citation cache (so hovers show them), the
 * other outcomes into the Problems panel with quick fixes; outcomes are kept with their Beijing
 * date in workspace state, so a second run the same day asks nothing unless told to.
 */
import vscode = require('vscode');
import type { CitedPassage } from '../../citations/passage';
import type {
  CitationCache,
  DocumentModel,
  VerifyCache,
  VerifyReport,
  VerifyResult,
  VerifySource,
} from '../../citations/index';
import { loadCitations } from '../../bundles';
import { beijingDate } from '../../time/beijing';
import type { Connection } from '../shared/connection';
import { isMisdecodedDocument, refusedAsMisdecoded } from '../shared/decoding';
import { describeError, showError } from '../shared/errors';
import { withCancellableProgress } from '../shared/progress';
import type { SourceOutcome, SourceOutcomes } from '../shared/sourceOutcomes';
import { documentSources, SourceDiagnostics } from './diagnostics';
import { summary } from './strings';

const CACHE_KEY = 'shunong.verifyCache';

/** The citation cache as this feature uses it (the citation service, handed in). */
export interface VerifyPassages {
  readonly cache: CitationCache;
  rememberAll(passages: readonly CitedPassage[]): Promise<void>;
}

/** What the feature needs. */
export interface VerifyServices {
  connection: Connection;
  citations: VerifyPassages;
  /** The citation model of a document (the citation feature's). */
  model(doc: vscode.TextDocument): DocumentModel;
  /** Where the outcomes go (the citation hover reads them). */
  outcomes: SourceOutcomes;
}

/** Options of a run (command arguments). */
export interface VerifyRunOptions {
  /** Ask again even for sources verified today. */
  refresh?: boolean;
  /** Only this source (its key): the hover's "Fetch this passage". */
  only?: string;
}

/** What the feature registered (the integration tests' seam). */
export interface VerifyFeature {
  readonly diagnostics: SourceDiagnostics;
  /** Runs a verification of documents (what the commands do, without the summary message). */
  verify(docs: readonly vscode.TextDocument[], options?: VerifyRunOptions): Promise<VerifyReport | undefined>;
}

/** Registers the commands, the diagnostics and their quick fixes. */
export function activate(context: vscode.ExtensionContext, services: VerifyServices): VerifyFeature {
  const diagnostics = new SourceDiagnostics({ model: services.model, outcomes: services.outcomes });
  let outcomeCache: VerifyCache | undefined;
  const cache = (): VerifyCache =>
    (outcomeCache ??= loadCitations().VerifyCache.fromJSON(context.workspaceState.get(CACHE_KEY)));

  const passageOf = (r: VerifyResult): CitedPassage | undefined => {
    const o = r.outcome;
    if (o.status !== 'verified') return undefined;
    return { docName: r.source.docName, chunkIndex: r.source.chunkIndex, ...o.passage };
  };

  const verify = async (
    docs: readonly vscode.TextDocument[],
    options: VerifyRunOptions = {},
    title = vscode.l10n.t('Verifying citations'),
  ): Promise<VerifyReport | undefined> => {
    const lib = loadCitations();
    const sources = lib
      .collectSources(docs.map((d) => ({ file: d.uri.toString(), text: d.getText(), model: services.model(d) })))
      .filter((s) => options.only === undefined || s.key === options.only);
    const endpoint = services.connection.endpoint;
    const report = await withCancellableProgress(title, async (signal, progress) => {
      let last = 0;
      return lib.verifySources(sources, {
        search: (args, signal) =>
          services.connection.run((c) => c.knowledgeSearch(args, signal ? { signal } : {}), {
            offerSetKey: false,
          }),
        passages: services.citations.cache,
        cache: cache(),
        ...(options.refresh ? { refresh: true } : {}),
        now: () => Date.now(),
        signal,
        describe: (err) => describeError(err, endpoint),
        onProgress: (done, total) => {
          const pct = total ? (done / total) * 100 : 100;
          progress.report({ increment: pct - last, message: vscode.l10n.t('{0} of {1} sources', done, total) });
          last = pct;
        },
      });
    });
    const found: CitedPassage[] = [];
    const outcomes: [string, SourceOutcome][] = [];
    for (const r of report.results) {
      if (r.outcome.status === 'unverified' && r.outcome.reason === 'cancelled') continue;
      outcomes.push([r.source.key, { outcome: r.outcome, date: r.date }]);
      const p = passageOf(r);
      if (p && !r.cached) found.push(p);
    }
    await services.citations.rememberAll(found);
    services.outcomes.set(outcomes);
    await context.workspaceState.update(CACHE_KEY, cache().toJSON());
    for (const d of docs) diagnostics.publish(d);
    return report;
  };

  /** Tells the outcome of a run; `command` re-runs it asking again when outcomes came from today's cache. */
  const announce = async (report: VerifyReport | undefined, command?: string): Promise<VerifyReport | undefined> => {
    if (!report) return report;
    if (report.results.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No citations of ours to verify.'));
      return report;
    }
    if (report.cancelled) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Verification cancelled. {0}', summary(report)));
      return report;
    }
    if (report.stoppedBy !== undefined) {
      await showError(report.stoppedBy, services.connection.endpoint);
      return report;
    }
    const text = summary(report);
    const clean = report.results.every((r) => r.outcome.status === 'verified');
    const show = vscode.l10n.t('Show Problems');
    const again = vscode.l10n.t('Ask Again');
    const buttons = [...(clean ? [] : [show]), ...(command && report.results.some((r) => r.cached) ? [again] : [])];
    void (
      clean
        ? vscode.window.showInformationMessage(text, ...buttons)
        : vscode.window.showWarningMessage(text, ...buttons)
    ).then((c) =>
      c === show
        ? vscode.commands.executeCommand('workbench.actions.view.problems')
        : c === again && command
          ? vscode.commands.executeCommand(command, { refresh: true })
          : undefined,
    );
    return report;
  };

  const verifyActive = async (arg?: unknown): Promise<VerifyReport | undefined> => {
    const doc = vscode.window.activeTextEditor?.document;
    if (!doc || doc.languageId !== 'markdown') {
      void vscode.window.showWarningMessage(vscode.l10n.t('Open a Markdown bulletin to verify its citations.'));
      return undefined;
    }
    if (await refusedAsMisdecoded(doc, 'verify')) return undefined;
    return announce(await verify([doc], runOptions(arg)), 'shunong.verifyCitations');
  };

  const verifyWorkspace = async (arg?: unknown): Promise<VerifyReport | undefined> => {
    const uris = await vscode.workspace.findFiles('**/*.{md,markdown}', '**/{node_modules,.git,.vscode-test}/**');
    if (uris.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No Markdown files in this workspace.'));
      return undefined;
    }
    const docs: vscode.TextDocument[] = [];
    for (const uri of uris.sort((a, b) => a.toString().localeCompare(b.toString()))) {
      const doc = await vscode.workspace.openTextDocument(uri);
      // A bulletin VS Code could not decode is left out, and said so (its sources would be garbled).
      if (isMisdecodedDocument(doc)) void refusedAsMisdecoded(doc, 'verify');
      else docs.push(doc);
    }
    return announce(
      await verify(docs, runOptions(arg), vscode.l10n.t('Verifying citations in the workspace')),
      'shunong.verifyWorkspaceCitations',
    );
  };

  const fetchPassage = async (uri?: unknown, offset?: unknown): Promise<VerifyResult | undefined> => {
    if (typeof uri !== 'string' || typeof offset !== 'number') return undefined;
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
    const source = sourceAt(documentSources(doc, services.model(doc)), services.model(doc), offset);
    if (!source) return undefined;
    const report = await verify(
      [doc],
      { refresh: true, only: source.key },
      vscode.l10n.t('Fetching {0}', source.citation),
    );
    const result = report?.results.find((r) => r.source.key === source.key);
    if (!report || !result) return undefined;
    if (result.outcome.status === 'verified') {
      const open = vscode.l10n.t('Open the full passage');
      void vscode.window
        .showInformationMessage(vscode.l10n.t('Fetched {0}; its hover shows the passage now.', source.citation), open)
        .then((c) => (c === open ? vscode.commands.executeCommand('shunong.openPassage', source.citation) : undefined));
    } else await announce(report);
    return result;
  };

  const acceptChanged = async (uri?: unknown, key?: unknown): Promise<boolean> => {
    if (typeof key !== 'string') return false;
    const o = services.outcomes.get(key)?.outcome;
    if (o?.status !== 'changed') return false;
    const docUri = typeof uri === 'string' ? vscode.Uri.parse(uri) : undefined;
    const doc = docUri ? await vscode.workspace.openTextDocument(docUri) : undefined;
    const source = doc ? documentSources(doc, services.model(doc)).find((s) => s.key === key) : undefined;
    if (!source) return false;
    await services.citations.rememberAll([{ docName: source.docName, chunkIndex: source.chunkIndex, ...o.passage }]);
    const verified = { status: 'verified' as const, passage: o.passage };
    const date = beijingDate(Date.now());
    services.outcomes.set([[key, { outcome: verified, date }]]);
    cache().put(key, date, verified);
    await context.workspaceState.update(CACHE_KEY, cache().toJSON());
    if (doc) diagnostics.publish(doc);
    return true;
  };

  context.subscriptions.push(
    diagnostics,
    vscode.commands.registerCommand('shunong.verifyCitations', verifyActive),
    vscode.commands.registerCommand('shunong.verifyWorkspaceCitations', verifyWorkspace),
    vscode.commands.registerCommand('shunong.fetchPassage', fetchPassage),
    vscode.commands.registerCommand('shunong.acceptChangedPassage', acceptChanged),
    vscode.languages.registerCodeActionsProvider(
      { language: 'markdown' },
      { provideCodeActions: (doc, range) => diagnostics.codeActions(doc, range) },
      { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] },
    ),
  );
  return { diagnostics, verify: (docs, options) => verify(docs, options) };
}

function runOptions(arg: unknown): VerifyRunOptions {
  return typeof arg === 'object' && arg !== null && (arg as VerifyRunOptions).refresh === true ? { refresh: true } : {};
}

/** The source cited at `offset`: a definition or inline citation, or a reference to a definition. */
function sourceAt(sources: VerifySource[], model: DocumentModel, offset: number): VerifySource | undefined {
  const inside = (r: { start: number; end: number }): boolean => offset >= r.start && offset <= r.end;
  const direct = sources.find((s) => s.uses.some((u) => inside(u.range)));
  if (direct) return direct;
  const def = model.definitions.find((d) => inside(d.range));
  const label = def?.label ?? model.references.find((r) => r.ours && inside(r.range))?.label;
  return label === undefined ? undefined : sources.find((s) => s.uses.some((u) => u.label === label));
}
