/** What a draft is asked: the question and the options, from the command's arguments or from the author. */
import vscode = require('vscode');
import type { DraftArgs } from './types';
import { askQuestion, defaultOptions, pickOptions, type DraftOptions } from './options';

/** The question and options of a draft; undefined when the author closed a prompt. */
export async function askDraft(
  editor: vscode.TextEditor,
  args: DraftArgs | undefined,
): Promise<{ question: string; options: DraftOptions; scripted: boolean } | undefined> {
  const scripted = args !== undefined && typeof args === 'object' && typeof args.question === 'string';
  const question = scripted ? args.question!.trim() : await askQuestion(editor);
  if (!question) return undefined;
  const defaults = defaultOptions(editor.document.uri);
  const options: DraftOptions | undefined = scripted
    ? {
        kbCode: args.kbCode ?? defaults.kbCode,
        topK: args.topK ?? defaults.topK,
        minScore: args.minScore ?? defaults.minScore,
        useRerank: args.useRerank ?? defaults.useRerank,
        weather: args.weather ?? '',
        weatherDate: args.weatherDate ?? 'forecast',
      }
    : await pickOptions(defaults);
  if (!options) return undefined;

  return { question, options, scripted };
}
