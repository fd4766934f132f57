/**
 * The language of text written into a document. Messages, quick picks and views follow VS Code's
 * display language (`vscode.l10n.t`); what goes into a document follows the document: its
 * front matter's `lang:`, else `shunong.insertLanguage` when it names a language, else the
 * language of its prose, else the display language (src/bulletin/language.ts). Every inserter
 * takes its words from here.
 */
import vscode = require('vscode');
import { insertLanguage } from '../../bulletin/language';
import { langOf, wordsOf, type Lang, type Words } from '../../text/words';
import type { CitationOptions } from '../../citations/types';
import { settings } from './settings';

/** VS Code's display language, as zh or en. */
export function uiLanguage(): Lang {
  return langOf(vscode.env.language);
}

/**
 * The language of text inserted into `document` (none: a new document, with the settings of
 * `scope`, e.g. the workspace folder). `template` stands in for the text of a document about to be made.
 */
export function insertLanguageFor(
  document: vscode.TextDocument | undefined,
  scope?: vscode.Uri,
  template?: string,
): Lang {
  const setting = settings.language(document?.uri ?? scope).insertLanguage;
  return insertLanguage(setting, document ? document.getText() : template, uiLanguage());
}

/** The words of text inserted into `document`. */
export function insertWordsFor(document: vscode.TextDocument | undefined): Words {
  return wordsOf(insertLanguageFor(document));
}

/**
 * The references-section options of an insertion into `document`: the heading the author set,
 * else the one of the document's language.
 */
export function referencesOptions(document: vscode.TextDocument): CitationOptions {
  return {
    referencesHeading: settings.citations(document.uri).referencesHeading,
    lang: insertLanguageFor(document),
  };
}
