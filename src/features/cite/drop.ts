/** The drop of a passage dragged from the knowledge browser into a bulletin. */
import vscode = require('vscode');
import { isCitedPassage, PASSAGE_MIME, sourceOf, type CitedPassage } from '../../citations/passage';
import { loadCitations } from '../../bundles';
import { toWorkspaceEdit } from './ranges';
import { insertErrorMessage, type CitationService } from '../shared/citationService';
import { referencesOptions } from '../shared/language';
import { settings } from '../shared/settings';

/** Registers the drop provider of dragged passages in Markdown documents. */
export function registerPassageDrop(citations: CitationService): vscode.Disposable {
  return vscode.languages.registerDocumentDropEditProvider(
    { language: 'markdown' },
    {
      provideDocumentDropEdits: async (doc, pos, data) => {
        const item = data.get(PASSAGE_MIME);
        if (!item) return undefined;
        let passage: unknown;
        try {
          passage = JSON.parse(await item.asString());
        } catch {
          return undefined;
        }
        if (!isCitedPassage(passage)) return undefined;
        return dropEdit(citations, doc, pos, passage);
      },
    },
    { dropMimeTypes: [PASSAGE_MIME] },
  );
}

/** The drop of a passage: the cited snippet at the drop spot, the definition in the references section. */
async function dropEdit(
  citations: CitationService,
  doc: vscode.TextDocument,
  pos: vscode.Position,
  passage: CitedPassage,
): Promise<vscode.DocumentDropEdit | undefined> {
  const s = settings.citations(doc.uri);
  const text = doc.getText();
  const result = loadCitations().insertCitation(text, doc.offsetAt(pos), sourceOf(passage), {
    style: s.style,
    ...referencesOptions(doc),
    snippet: { text: passage.content, as: s.snippetAs },
  });
  if (!result.ok) {
    void vscode.window.showWarningMessage(insertErrorMessage(result.error));
    return undefined;
  }
  if (!(await citations.safeToInsert(text, result.edits))) return undefined;
  const others = result.edits.filter(
    (e) => !(e.start === result.offset && e.end === result.offset && e.newText === result.inserted),
  );
  const edit = new vscode.DocumentDropEdit(new vscode.SnippetString().appendText(result.inserted));
  if (others.length) edit.additionalEdit = toWorkspaceEdit(doc, others);
  void citations.remember(passage);
  return edit;
}
