/**
 * The farming calendar: the solar-term status bar item (one request per Beijing day, shared with New
 * Bulletin) and "Insert Date and Solar Term".
 */
import vscode = require('vscode');
import type { CurrentTime } from '../../shunong/index';
import type { CommandRegistry } from '../shared/commands';
import type { Connection } from '../shared/connection';
import { onDidChangeSettings, settings } from '../shared/settings';
import { DailyValue } from '../../bulletin/daily';
import { realScheduler } from '../../time/scheduler';
import { calendarLine, solarTermTable } from '../../bulletin/render';
import { termName } from '../../text/words';
import { insertAtCursor } from '../shared/insertAtCursor';
import { insertLanguageFor, uiLanguage } from '../shared/language';

/** The services the calendar uses. */
export interface CalendarServices {
  connection: Connection;
  commands: CommandRegistry;
}

/** Registers the status bar item and "Insert Date and Solar Term". Returns the calendar cache (the solar term of the day). */
export function activate(
  context: vscode.ExtensionContext,
  services: CalendarServices,
): { calendar: DailyValue<CurrentTime> } {
  const { connection } = services;
  const lang = uiLanguage();

  const item = vscode.window.createStatusBarItem('shunong.calendar', vscode.StatusBarAlignment.Right, 99);
  item.name = vscode.l10n.t('Shunong solar term');
  item.command = 'shunong.insertDateAndSolarTerm';
  const calendar = new DailyValue<CurrentTime>(
    () => connection.run((c) => c.currentTime({ withSolarTerms: true })),
    realScheduler,
    (t) => renderItem(t),
  );
  const renderItem = (t: CurrentTime): void => {
    item.text = `$(calendar) ${termName(t.solar_term, 'zh')} · ${vscode.l10n.t('{0} in {1} d', t.next_solar_term, t.days_to_next_solar_term)}`;
    const tip = new vscode.MarkdownString(undefined, false);
    tip.isTrusted = false;
    tip.supportHtml = false;
    tip.appendText(calendarLine(t, lang, settings.calendar().format) + '\n\n');
    if (t.solar_terms?.length)
      tip.appendMarkdown(solarTermTable(t.solar_term_year ?? Number(t.date.slice(0, 4)), t.solar_terms, lang, t.date));
    item.tooltip = tip;
    item.accessibilityInformation = { label: calendarLine(t, lang) };
    if (statusBarEnabled()) item.show();
  };
  const statusBarEnabled = (): boolean => settings.calendar().statusBar;
  let started = false;
  const maybeStart = (): void => {
    if (!statusBarEnabled()) {
      item.hide();
      return;
    }
    if (started || connection.state === 'no-key' || connection.state === 'insecure') return;
    started = true;
    calendar.start();
  };
  // First use, not activation: the platform bundle loads a moment after start-up.
  const startTimer = setTimeout(maybeStart, 1500);

  context.subscriptions.push(
    item,
    calendar,
    { dispose: () => clearTimeout(startTimer) },
    connection.onDidChangeState((s) => {
      if (s === 'connected') maybeStart();
    }),
    onDidChangeSettings('calendar', () => {
      maybeStart();
      void calendar.get().then(renderItem, () => undefined);
    }),
  );
  services.commands.register({ id: 'shunong.insertDateAndSolarTerm', run: () => insertDateAndSolarTerm(calendar) });
  return { calendar };
}

/** "Shunong: Insert Date and Solar Term". Returns the inserted line. */
async function insertDateAndSolarTerm(calendar: DailyValue<CurrentTime>): Promise<string | undefined> {
  const editor = vscode.window.activeTextEditor;
  const t = await calendar.get();
  const lang = insertLanguageFor(editor?.document);
  const line = calendarLine(t, lang, settings.calendar(editor?.document.uri).format);
  return (await insertAtCursor(editor, line)) ? line : undefined;
}
