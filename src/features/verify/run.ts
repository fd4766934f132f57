/**
 * A verification run: the sources of some bulletins looked up on the platform by the verify plan
 * (src/citations/verify.ts) through the shared connection, under a cancellable progress whose
 * Cancel aborts the searches in flight. Verified passages go into the citation cache, every
 * outcome into the source outcomes and the Problems, and the day's outcomes into workspace state.
 */
import vscode = require('vscode');
import type { CitedPassage } from '../../citations/passage';
import type { VerifyCache, VerifyReport, VerifyResult } from '../../citations/index';
import { loadCitations } from '../../bundles';
import { beijingDate } from '../../time/beijing';
import { describeError } from '../shared/errors';
import { withCancellableProgress } from '../shared/progress';
import type { SourceOutcome } from '../shared/sourceOutcomes';
import { documentSources, type SourceDiagnostics } from './diagnostics';
import type { VerifyRunOptions, VerifyServices } from './types';

const CACHE_KEY = 'shunong.verifyCache';

function passageOf(r: VerifyResult): CitedPassage | undefined {
  const o = r.outcome;
  if (o.status !== 'verified') return undefined;
  return { docName: r.source.docName, chunkIndex: r.source.chunkIndex, ...o.passage };
}

export class Verifier {
  private outcomeCache: VerifyCache | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly services: VerifyServices,
    private readonly diagnostics: SourceDiagnostics,
  ) {}

  /** The day's outcomes, read from workspace state on first use. */
  private cache(): VerifyCache {
    return (this.outcomeCache ??= loadCitations().VerifyCache.fromJSON(this.context.workspaceState.get(CACHE_KEY)));
  }

  /** Verifies the sources of `docs` under a cancellable progress titled `title`; their outcomes kept and published. */
  async verify(
    docs: readonly vscode.TextDocument[],
    options: VerifyRunOptions = {},
    title = vscode.l10n.t('Verifying citations'),
  ): Promise<VerifyReport> {
    const lib = loadCitations();
    const sources = lib
      .collectSources(docs.map((d) => ({ file: d.uri.toString(), text: d.getText(), model: this.services.model(d) })))
      .filter((s) => options.only === undefined || s.key === options.only);
    const endpoint = this.services.connection.endpoint;
    const report = await withCancellableProgress(title, async (signal, progress) => {
      let last = 0;
      return lib.verifySources(sources, {
        search: (args, signal) =>
          this.services.connection.run((c) => c.knowledgeSearch(args, signal ? { signal } : {}), {
            offerSetKey: false,
          }),
        passages: this.services.citations.cache,
        cache: this.cache(),
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
    await this.services.citations.rememberAll(found);
    this.services.outcomes.set(outcomes);
    await this.context.workspaceState.update(CACHE_KEY, this.cache().toJSON());
    for (const d of docs) this.diagnostics.publish(d);
    return report;
  }

  /** Takes the platform's changed text of `key` as verified (the quick fix "Accept the platform's text"). */
  async acceptChanged(uri?: unknown, key?: unknown): Promise<boolean> {
    if (typeof key !== 'string') return false;
    const o = this.services.outcomes.get(key)?.outcome;
    if (o?.status !== 'changed') return false;
    const docUri = typeof uri === 'string' ? vscode.Uri.parse(uri) : undefined;
    const doc = docUri ? await vscode.workspace.openTextDocument(docUri) : undefined;
    const source = doc ? documentSources(doc, this.services.model(doc)).find((s) => s.key === key) : undefined;
    if (!source) return false;
    await this.services.citations.rememberAll([
      { docName: source.docName, chunkIndex: source.chunkIndex, ...o.passage },
    ]);
    const verified = { status: 'verified' as const, passage: o.passage };
    const date = beijingDate(Date.now());
    this.services.outcomes.set([[key, { outcome: verified, date }]]);
    this.cache().put(key, date, verified);
    await this.context.workspaceState.update(CACHE_KEY, this.cache().toJSON());
    if (doc) this.diagnostics.publish(doc);
    return true;
  }
}
