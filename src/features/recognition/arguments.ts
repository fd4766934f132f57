/**
 * What "Recognize Crop Image…" accepts: an explorer URI (or several), an http(s) URL, a data URI or
 * a path pasted as text, or nothing (then it asks: a workspace image, a URL, a path from the
 * clipboard, or a file dialog); and the recognition type (a command option, the setting, or asked).
 */
import vscode = require('vscode');
import * as os from 'node:os';
import * as path from 'node:path';
import { parseDataUri } from '../../recognition/image';
import { RECOGNITION_TYPES, isRecognitionType, type RecognitionType } from '../../recognition/types';
import { uiLanguage } from '../shared/language';
import { settings } from '../shared/settings';
import { typeName } from './strings';
import type { Source } from './state';

export type { Source } from './state';

/** Options a caller (or a test) may pass as the command's second argument. */
export interface RecognizeCommandOptions {
  recognitionType?: RecognitionType;
}

const IMAGE_GLOB = '**/*.{jpg,jpeg,png,webp,JPG,JPEG,PNG,WEBP}';

/** The command's arguments, resolved: the sources to recognise, or why there are none. */
export type CommandArguments =
  | { kind: 'sources'; sources: Source[]; options: RecognizeCommandOptions }
  | { kind: 'refused'; text: string }
  | { kind: 'none'; options: RecognizeCommandOptions };

/** Reads the command's arguments: (uri | url/path string | undefined, uris[] | options). */
export function commandArguments(a: unknown, b: unknown): CommandArguments {
  const options: RecognizeCommandOptions =
    b && !Array.isArray(b) && typeof b === 'object' ? (b as RecognizeCommandOptions) : {};
  const many = Array.isArray(b) ? b.filter((u): u is vscode.Uri => u instanceof vscode.Uri) : [];
  if (many.length > 1) return { kind: 'sources', sources: many.map(fileSource), options };
  if (a instanceof vscode.Uri) return { kind: 'sources', sources: [fileSource(a)], options };
  if (typeof a === 'string' && a.trim()) {
    const s = textSource(a);
    return s ? { kind: 'sources', sources: [s], options } : { kind: 'refused', text: a };
  }
  return { kind: 'none', options };
}

/** The message for text that is neither a URL nor a path. */
export function notASource(text: string): string {
  return vscode.l10n.t('"{0}" is neither an http(s) URL nor a path to an image.', text);
}

/** The type given as an option, else the setting, else asked. */
export async function chooseType(
  options: RecognizeCommandOptions,
  scope: vscode.Uri | undefined,
): Promise<RecognitionType | undefined> {
  return options.recognitionType && isRecognitionType(options.recognitionType)
    ? options.recognitionType
    : await pickType(scope);
}

/** The source of a local (or remote workspace) file. */
function fileSource(uri: vscode.Uri): Source {
  const name = path.posix.basename(uri.path);
  return { key: uri.toString(), title: vscode.workspace.asRelativePath(uri, false), stem: stemOf(name), uri };
}

/** The source of an http(s) URL. */
function urlSource(url: string): Source {
  let name = 'image';
  try {
    name = decodeURIComponent(path.posix.basename(new URL(url).pathname)) || 'image';
  } catch {
    // keep the default
  }
  return { key: url, title: url, stem: stemOf(name), url };
}

/** A pasted URL, data URI or path (absolute, ~, or relative to the first workspace folder). */
function textSource(text: string): Source | undefined {
  const t = text.trim().replace(/^["']|["']$/g, '');
  if (/^https?:\/\//i.test(t)) return urlSource(t);
  if (/^data:/i.test(t)) {
    const d = parseDataUri(t);
    if (!d) return undefined;
    return {
      key: `data:${d.bytes.length}:${t.length}:${t.slice(-24)}`,
      title: vscode.l10n.t('Pasted image'),
      stem: 'pasted',
      data: d.bytes,
    };
  }
  if (/^file:\/\//i.test(t)) return fileSource(vscode.Uri.parse(t));
  let p = t.startsWith('~') ? path.join(os.homedir(), t.slice(1)) : t;
  if (!path.isAbsolute(p)) {
    const root = vscode.workspace.workspaceFolders?.[0];
    if (!root) return undefined;
    return fileSource(vscode.Uri.joinPath(root.uri, p));
  }
  p = path.normalize(p);
  return fileSource(vscode.Uri.file(p));
}

/** A file-name-safe stem of a picture's name (for saved copies). */
function stemOf(name: string): string {
  const stem = name
    .replace(/\.[^.]*$/, '')
    .replace(/[^\p{L}\p{N}._-]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return (stem || 'image').slice(0, 60);
}

/** Asks where the image comes from. */
export async function pickSource(): Promise<Source | undefined> {
  type Item = vscode.QuickPickItem & { action: 'file' | 'url' | 'path' | 'browse'; uri?: vscode.Uri };
  const files = await vscode.workspace.findFiles(IMAGE_GLOB, '**/node_modules/**', 500);
  const items: Item[] = [
    { label: `$(link) ${vscode.l10n.t('Image URL…')}`, action: 'url' },
    { label: `$(clippy) ${vscode.l10n.t('Paste a path…')}`, action: 'path' },
    { label: `$(folder-opened) ${vscode.l10n.t('Browse…')}`, action: 'browse' },
  ];
  if (files.length)
    items.push({
      label: vscode.l10n.t('Images in the workspace'),
      kind: vscode.QuickPickItemKind.Separator,
      action: 'file',
    });
  for (const uri of files.sort((x, y) => x.path.localeCompare(y.path)))
    items.push({
      label: `$(file-media) ${path.posix.basename(uri.path)}`,
      description: vscode.workspace.asRelativePath(uri, true),
      action: 'file',
      uri,
    });
  const pick = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Shunong: Recognize Crop Image'),
    placeHolder: vscode.l10n.t('Choose an image in the workspace, or give a URL or a path'),
    matchOnDescription: true,
  });
  if (!pick) return undefined;
  switch (pick.action) {
    case 'file':
      return pick.uri ? fileSource(pick.uri) : undefined;
    case 'browse':
      return browseSource();
    case 'url':
      return askUrlSource();
    case 'path':
      return askPathSource();
  }
}

/** Asks for an image in a file dialog. */
async function browseSource(): Promise<Source | undefined> {
  const uris = await vscode.window.showOpenDialog({
    canSelectMany: false,
    filters: { [vscode.l10n.t('Images')]: ['jpg', 'jpeg', 'png', 'webp'] },
    ...(vscode.workspace.workspaceFolders?.[0] ? { defaultUri: vscode.workspace.workspaceFolders[0].uri } : {}),
  });
  return uris?.[0] ? fileSource(uris[0]) : undefined;
}

/** Asks for the image's http(s) URL (or a data URI). */
async function askUrlSource(): Promise<Source | undefined> {
  const url = await vscode.window.showInputBox({
    title: vscode.l10n.t('Shunong: Recognize Crop Image'),
    prompt: vscode.l10n.t(
      'The image URL (http or https). If the platform cannot download it, the extension downloads it and sends it as data.',
    ),
    placeHolder: 'https://…/field.jpg',
    ignoreFocusOut: true,
    validateInput: (v) =>
      /^https?:\/\/\S+$/i.test(v.trim()) || /^data:image\//i.test(v.trim())
        ? undefined
        : vscode.l10n.t('Enter an http(s) URL.'),
  });
  return url ? textSource(url) : undefined;
}

/** Asks for the image's path, offering the clipboard's text; says so when the answer is no path. */
async function askPathSource(): Promise<Source | undefined> {
  const clip = (await vscode.env.clipboard.readText()).trim();
  const value = await vscode.window.showInputBox({
    title: vscode.l10n.t('Shunong: Recognize Crop Image'),
    prompt: vscode.l10n.t('The path of an image file (absolute, or relative to the workspace folder).'),
    ...(clip && clip.length < 1000 && !clip.includes('\n') ? { value: clip } : {}),
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Enter a path.')),
  });
  if (!value) return undefined;
  const s = textSource(value);
  if (!s) void vscode.window.showErrorMessage(notASource(value));
  return s;
}

/** The recognition type: the setting, or asked (never left to the server's default). */
async function pickType(scope: vscode.Uri | undefined): Promise<RecognitionType | undefined> {
  const configured = settings.recognition(scope).defaultType;
  if (configured !== 'ask') return configured;
  const zh = uiLanguage() === 'zh';
  const other: Record<RecognitionType, string> = zh
    ? { tea_count: 'Tea bud count', tea_stage: 'Tea growth stage', wheat_stage: 'Wheat growth stage' }
    : { tea_count: '茶芽计数', tea_stage: '茶树生育期', wheat_stage: '小麦生育期' };
  const items = RECOGNITION_TYPES.map((id) => ({ label: typeName(id), description: `${other[id]} · ${id}`, id }));
  const pick = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Recognition type'),
    placeHolder: vscode.l10n.t('What should the platform recognise in this picture?'),
  });
  return pick?.id;
}
