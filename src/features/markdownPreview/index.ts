/**
 * The Markdown preview's side of the features: the passage lookup that titles citations (the
 * workspace's citation cache first, then the knowledge store's history and pins), and a refresh of
 * open previews when either changes (best effort). The plugin itself is applied by the activation
 * entry (`markdownIt.ts`), which asks this lookup once the features are loaded.
 */
import vscode = require('vscode');
import type { Citation } from '../../citations/types';
import { keyOf } from '../../knowledge/history';
import type { KnowledgeStore } from '../shared/knowledgeStore';
import type { PassageLookup } from './markdownIt';

/** The citation cache as the preview reads it (the cite feature's service, handed in). */
export interface PassageCache {
  readonly cache: { get(citation: string): { content: string } | undefined };
  readonly onDidChange: vscode.Event<void>;
}

const MARKDOWN_EXTENSION = 'vscode.markdown-language-features';
const REFRESH_DELAY_MS = 500;

/** Builds the lookup and keeps open previews in step with the caches. */
export function activate(
  context: vscode.ExtensionContext,
  services: { citations: PassageCache; store: KnowledgeStore },
): PassageLookup {
  const { citations, store } = services;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const refresh = (): void => {
    if (!vscode.extensions.getExtension(MARKDOWN_EXTENSION)?.isActive) return;
    clearTimeout(timer);
    timer = setTimeout(() => void vscode.commands.executeCommand('markdown.preview.refresh'), REFRESH_DELAY_MS);
  };
  context.subscriptions.push(citations.onDidChange(refresh), store.onDidChange(refresh), {
    dispose: () => clearTimeout(timer),
  });
  return {
    passageText(c: Citation): string | undefined {
      const key = keyOf(c);
      const cached = citations.cache.get(key)?.content;
      if (cached !== undefined) return cached;
      const s = store.state;
      for (const r of s.history) for (const p of r.passages) if (keyOf(p.passage) === key) return p.passage.content;
      return s.pins.find((p) => keyOf(p) === key)?.content;
    },
  };
}
