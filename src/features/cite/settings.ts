/** The citation settings of a document. */
import * as vscode from 'vscode';

/** Citation settings of a document. */
export function settings(uri?: vscode.Uri): {
  style: 'footnote' | 'inline';
  referencesHeading: string;
  snippetAs: 'blockquote' | 'paragraph';
  diagnostics: boolean;
} {
  const c = vscode.workspace.getConfiguration('shunong', uri);
  return {
    style: c.get<string>('citations.style') === 'inline' ? 'inline' : 'footnote',
    referencesHeading: c.get<string>('citations.referencesHeading') || '参考资料',
    snippetAs: c.get<string>('citations.snippetAs') === 'paragraph' ? 'paragraph' : 'blockquote',
    diagnostics: c.get<boolean>('citations.diagnostics', true),
  };
}
