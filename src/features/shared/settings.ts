/**
 * The one place that reads `shunong.*` settings from VS Code (nothing else calls
 * `getConfiguration('shunong')`). Each group is read for a scope (a document or folder URI;
 * application-scoped settings ignore it) and validated by src/settings; change events fire per group.
 */
import vscode = require('vscode');
import { GROUP_SECTIONS, READERS, type SettingGroup, type SettingGroups } from '../../settings/index';

export type * from '../../settings/index';

/** Reads one group of settings for `scope` (none: the workspace, or the application for application settings). */
function readSettings<G extends SettingGroup>(group: G, scope?: vscode.Uri | null): SettingGroups[G] {
  const c = vscode.workspace.getConfiguration('shunong', scope ?? null);
  return READERS[group]((key) => c.get<unknown>(key));
}

/** The typed readers, one per group. */
export const settings = {
  /** Endpoint, insecure http, timeout (application scope). */
  connection: (): SettingGroups['connection'] => readSettings('connection'),
  /** `shunong.knowledge.*` for a document. */
  knowledge: (scope?: vscode.Uri | null): SettingGroups['knowledge'] => readSettings('knowledge', scope),
  /** `shunong.citations.*` for a document. */
  citations: (scope?: vscode.Uri | null): SettingGroups['citations'] => readSettings('citations', scope),
  /** `shunong.recognition.*` for a document or folder. */
  recognition: (scope?: vscode.Uri | null): SettingGroups['recognition'] => readSettings('recognition', scope),
  /** `shunong.weather.*` for a document or folder. */
  weather: (scope?: vscode.Uri | null): SettingGroups['weather'] => readSettings('weather', scope),
  /** `shunong.calendar.*` (the status bar is application scope). */
  calendar: (scope?: vscode.Uri | null): SettingGroups['calendar'] => readSettings('calendar', scope),
  /** `shunong.bulletin.*` for a folder. */
  bulletin: (scope?: vscode.Uri | null): SettingGroups['bulletin'] => readSettings('bulletin', scope),
  /** `shunong.insertLanguage` for a document or folder. */
  language: (scope?: vscode.Uri | null): SettingGroups['language'] => readSettings('language', scope),
  /** `shunong.export.*` for a document. */
  export: (scope?: vscode.Uri | null): SettingGroups['export'] => readSettings('export', scope),
  /** `shunong.chat.*` (application scope). */
  chat: (): SettingGroups['chat'] => readSettings('chat'),
  /** `shunong.safety.*` for a document or folder. */
  safety: (scope?: vscode.Uri | null): SettingGroups['safety'] => readSettings('safety', scope),
  /** `shunong.dose.*` for a document or folder. */
  dose: (scope?: vscode.Uri | null): SettingGroups['dose'] => readSettings('dose', scope),
} as const;

/** True when `e` changes a setting of `group`. */
function affects(e: vscode.ConfigurationChangeEvent, group: SettingGroup): boolean {
  return GROUP_SECTIONS[group].some((s) => e.affectsConfiguration(`shunong.${s}`));
}

/** Calls `listener` whenever a setting of `group` changes (in any scope). Dispose to stop. */
export function onDidChangeSettings(
  group: SettingGroup,
  listener: (e: vscode.ConfigurationChangeEvent) => void,
): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (affects(e, group)) listener(e);
  });
}
