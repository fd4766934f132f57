/**
 * "Verify Citations" (the active bulletin), "Verify Citations in Workspace", the hover's "Fetch this
 * passage" and the quick fix that accepts a passage's changed text.
 */
import vscode = require('vscode');
import type { DocumentModel, VerifyReport, VerifyResult, VerifySource } from '../../citations/index';
import type { Command } from '../shared/commands';
import { isMisdecodedDocument, refusedAsMisdecoded } from '../shared/decoding';
import type { Failures } from '../shared/failures';
import { announce } from './announce';
import { documentSources } from './diagnostics';
import type { VerifyRunOptions, VerifyServices } from './types';
import type { Verifier } from './run';

/** The feature's commands, each running through `verifier`. */
export function verifyCommands(verifier: Verifier, services: VerifyServices): Command[] {
  const { failures } = services;
  return [
    { id: 'shunong.verifyCitations', run: (arg?: unknown) => verifyActive(verifier, failures, arg) },
    { id: 'shunong.verifyWorkspaceCitations', run: (arg?: unknown) => verifyWorkspace(verifier, failures, arg) },
    {
      id: 'shunong.fetchPassage',
      run: (uri?: unknown, offset?: unknown) => fetchPassage(verifier, services, uri, offset),
    },
    { id: 'shunong.acceptChangedPassage', run: (uri?: unknown, key?: unknown) => verifier.acceptChanged(uri, key) },
  ];
}

async function verifyActive(verifier: Verifier, failures: Failures, arg?: unknown): Promise<VerifyReport | undefined> {
  const doc = vscode.window.activeTextEditor?.document;
  if (!doc || doc.languageId !== 'markdown') {
    void vscode.window.showWarningMessage(vscode.l10n.t('Open a Markdown bulletin to verify its citations.'));
    return undefined;
  }
  if (await refusedAsMisdecoded(doc, 'verify')) return undefined;
  return announce(await verifier.verify([doc], runOptions(arg)), failures, 'shunong.verifyCitations');
}

async function verifyWorkspace(
  verifier: Verifier,
  failures: Failures,
  arg?: unknown,
): Promise<VerifyReport | undefined> {
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
    await verifier.verify(docs, runOptions(arg), vscode.l10n.t('Verifying citations in the workspace')),
    failures,
    'shunong.verifyWorkspaceCitations',
  );
}

async function fetchPassage(
  verifier: Verifier,
  services: VerifyServices,
  uri?: unknown,
  offset?: unknown,
): Promise<VerifyResult | undefined> {
  if (typeof uri !== 'string' || typeof offset !== 'number') return undefined;
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
  const source = sourceAt(documentSources(doc, services.model(doc)), services.model(doc), offset);
  if (!source) return undefined;
  const report = await verifier.verify(
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
  } else await announce(report, services.failures);
  return result;
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
