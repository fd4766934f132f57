/**
 * `extendMarkdownIt`, which VS Code's Markdown extension calls with its engine (for the preview and
 * for every parse the Markdown language server asks for). Part of the activation bundle: it must
 * return the engine synchronously and loads only the citations bundle (`dist/citations.js`,
 * markdown-it-footnote and our plugin) — never the platform bundle nor the features. Passage titles
 * come from the features' lookup once they are loaded (best effort: a render before that has none).
 */
import type { MarkdownIt } from 'markdown-it';
import vscode = require('vscode');
import type { Citation } from '../../citations/types';
import { loadCitations } from '../../bundles';
import { citationFailure } from '../shared/problems';

/** The text of a cited passage, when the workspace's caches hold it. */
export interface PassageLookup {
  passageText(c: Citation): string | undefined;
}

/** Applies the citations plugin to VS Code's Markdown engine and returns it. */
export function extendMarkdownIt(md: MarkdownIt, lookup: () => PassageLookup | undefined): MarkdownIt {
  return md.use(loadCitations().citationsPlugin, {
    passageText: (c) => lookup()?.passageText(c),
    text: {
      undefinedReference: (label) => vscode.l10n.t('Footnote [^{0}] has no definition.', label),
      malformed: (failure) => vscode.l10n.t('Malformed citation: {0}', citationFailure(failure)),
    },
  });
}
