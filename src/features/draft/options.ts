/** The options of a draft: their defaults, the question asked, and the options loop. */
import vscode = require('vscode');
import { settings } from '../shared/settings';

/** The options of a draft. */
export interface DraftOptions {
  kbCode: string;
  topK: number;
  minScore: number;
  useRerank: boolean;
  weather: string;
  weatherDate: 'now' | 'forecast';
}

/** The defaults of the options (settings, then the REST page's defaults). */
export function defaultOptions(uri?: vscode.Uri): DraftOptions {
  const k = settings.knowledge(uri);
  return {
    kbCode: k.defaultKbCode,
    topK: k.topK,
    minScore: 0.5,
    useRerank: k.useRerank,
    weather: '',
    weatherDate: 'forecast',
  };
}

/** The nearest heading at or above `line` (its text), if any. */
function currentHeading(doc: vscode.TextDocument, line: number): string | undefined {
  for (let l = line; l >= 0; l--) {
    const m = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(doc.lineAt(l).text);
    if (m && m[1]) return m[1];
  }
  return undefined;
}

/** Asks the question the draft answers (from the selection or the current heading). */
export async function askQuestion(editor: vscode.TextEditor): Promise<string | undefined> {
  const selected = editor.document.getText(editor.selection).trim();
  const value = selected || currentHeading(editor.document, editor.selection.active.line) || '';
  const q = await vscode.window.showInputBox({
    title: vscode.l10n.t('Draft with Knowledge'),
    prompt: vscode.l10n.t(
      'The question the draft answers (taken from the selection or the current heading; edit it freely).',
    ),
    value,
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Type a question.')),
  });
  return q?.trim() || undefined;
}

async function askNumber(
  title: string,
  value: number,
  min: number,
  max: number,
  integer: boolean,
): Promise<number | undefined> {
  const v = await vscode.window.showInputBox({
    title,
    value: String(value),
    validateInput: (s) => {
      const n = Number(s);
      return Number.isFinite(n) && n >= min && n <= max && (!integer || Number.isInteger(n))
        ? undefined
        : vscode.l10n.t('Enter a number from {0} to {1}.', min, max);
    },
  });
  return v === undefined ? undefined : Number(v);
}

/** The options loop: pick "Draft now", or an option to change it. */
export async function pickOptions(start: DraftOptions): Promise<DraftOptions | undefined> {
  const o = { ...start };
  for (;;) {
    const on = vscode.l10n.t('on');
    const off = vscode.l10n.t('off');
    const items: (vscode.QuickPickItem & { id: string })[] = [
      { id: 'go', label: `$(sparkle) ${vscode.l10n.t('Draft now')}` },
      { id: 'kb', label: vscode.l10n.t('Knowledge base'), description: o.kbCode || vscode.l10n.t('all') },
      { id: 'topK', label: vscode.l10n.t('Passages to retrieve (top_k)'), description: String(o.topK) },
      { id: 'minScore', label: vscode.l10n.t('Minimum score (min_score)'), description: String(o.minScore) },
      { id: 'rerank', label: vscode.l10n.t('Rerank'), description: o.useRerank ? on : off },
      {
        id: 'weather',
        label: vscode.l10n.t('Include the weather for a place'),
        description: o.weather || vscode.l10n.t('none'),
      },
    ];
    const pick = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Draft with Knowledge: options'),
      placeHolder: vscode.l10n.t('Pick "Draft now", or an option to change it'),
      ignoreFocusOut: true,
    });
    if (!pick) return undefined;
    switch (pick.id) {
      case 'go':
        return o;
      case 'kb': {
        const v = await vscode.window.showInputBox({
          title: vscode.l10n.t('Knowledge base code (empty = all)'),
          value: o.kbCode,
          placeHolder: 'RICE_001',
        });
        if (v !== undefined) o.kbCode = v.trim();
        break;
      }
      case 'topK': {
        const v = await askNumber(vscode.l10n.t('Passages to retrieve (top_k)'), o.topK, 1, 20, true);
        if (v !== undefined) o.topK = v;
        break;
      }
      case 'minScore': {
        const v = await askNumber(vscode.l10n.t('Minimum score (min_score)'), o.minScore, 0, 1, false);
        if (v !== undefined) o.minScore = v;
        break;
      }
      case 'rerank':
        o.useRerank = !o.useRerank;
        break;
      case 'weather': {
        const v = await vscode.window.showInputBox({
          title: vscode.l10n.t('Include the weather for a place (empty = none)'),
          value: o.weather,
          placeHolder: '成都',
        });
        if (v !== undefined) o.weather = v.trim();
        break;
      }
    }
  }
}
