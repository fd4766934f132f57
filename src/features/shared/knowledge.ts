/**
 * The knowledge state the search and the knowledge browser share: the workspace's store (history,
 * pins, knowledge bases seen) and the read-only passage documents. Made once at activation and
 * handed to both features.
 */
import vscode = require('vscode');
import type { SafetyService } from './safety';
import type { CitationCache } from '../../citations/index';
import { KnowledgeStore } from './knowledgeStore';
import { KNOWLEDGE_SCHEME, PassageDocs } from './passageDocs';

/** The knowledge services of this workspace. */
export interface KnowledgeServices {
  readonly store: KnowledgeStore;
  readonly docs: PassageDocs;
  /** The pesticide rules in force: search results mark passages that recommend a banned pesticide. */
  readonly safety: SafetyService;
}

/**
 * Makes the store on `context.workspaceState` and the passage documents (which also show the
 * passages of `cited`, the citation cache), and registers their provider.
 */
export function createKnowledgeServices(
  context: vscode.ExtensionContext,
  cited: () => CitationCache,
  safety: SafetyService,
): KnowledgeServices {
  const store = new KnowledgeStore(context.workspaceState);
  const docs = new PassageDocs(store, cited);
  context.subscriptions.push(store, docs, vscode.workspace.registerTextDocumentContentProvider(KNOWLEDGE_SCHEME, docs));
  return { store, docs, safety };
}
