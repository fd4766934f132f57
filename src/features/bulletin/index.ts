/**
 * Weather and the farming calendar in bulletins: "Insert Weather Brief", "Insert Date and Solar
 * Term", "New Bulletin", and the solar-term status bar item (one request per Beijing day).
 */
import * as vscode from 'vscode';
import type { CurrentTime } from '../../shunong/index';
import type { Connection } from '../shared/connection';
import { isPlatformError, showError } from '../shared/errors';
import { onDidChangeSettings, settings } from '../shared/settings';
import { DailyValue } from '../../bulletin/daily';
import { realScheduler } from '../../time/scheduler';
import { calendarLine, renderWeatherBrief, solarTermTable, type NoteThresholds } from '../../bulletin/render';
import { builtinTemplate, fillTemplate } from '../../bulletin/template';
import { langTag, referencesHeadingOf, termName, weekdayName, wordsOf } from '../../bulletin/text';
import { insertLanguageFor, uiLanguage } from '../shared/language';
import { withCancellableProgress } from '../shared/progress';

const RECENT_KEY = 'shunong.weather.recentPlaces';
const MAX_RECENT = 8;

interface RecentPlace {
  name: string;
  code?: string;
}

/** The services the bulletin feature uses. */
export interface BulletinServices {
  connection: Connection;
}

/** Registers the commands and the status bar item. Returns the calendar cache (the solar term of the day). */
export function activate(
  context: vscode.ExtensionContext,
  services: BulletinServices,
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
    vscode.commands.registerCommand('shunong.insertWeatherBrief', (place?: string) =>
      insertWeatherBrief(context, connection, place),
    ),
    vscode.commands.registerCommand('shunong.insertDateAndSolarTerm', () =>
      insertDateAndSolarTerm(connection, calendar),
    ),
    vscode.commands.registerCommand('shunong.newBulletin', (place?: string) =>
      newBulletin(connection, calendar, place),
    ),
  );
  return { calendar };
}

function thresholds(scope?: vscode.Uri): NoteThresholds | false {
  const w = settings.weather(scope);
  if (!w.farmNotes) return false;
  return {
    frostBelowC: w.frostBelowC,
    heatAboveC: w.heatAboveC,
    humidPercent: w.humidPercent,
    minRunDays: w.minRunDays,
  };
}

/** Asks for a place: recent places (with their codes) first, then the default, or anything typed. */
async function pickPlace(
  context: vscode.ExtensionContext,
  initial?: string,
  problem?: string,
): Promise<string | undefined> {
  const recent = context.globalState.get<RecentPlace[]>(RECENT_KEY, []);
  const fallback = settings.weather().defaultLocation;
  const qp = vscode.window.createQuickPick<vscode.QuickPickItem & { place: string }>();
  qp.title = vscode.l10n.t('Shunong: Insert Weather Brief');
  qp.placeholder = vscode.l10n.t('City name or 9-digit city code (the code is more precise), e.g. 成都 or 101270101');
  const base = [
    ...recent.map((r) => ({
      label: r.name,
      description: r.code ?? '',
      detail: vscode.l10n.t('Recent'),
      place: r.code ?? r.name,
    })),
    ...(fallback && !recent.some((r) => r.name === fallback || r.code === fallback)
      ? [{ label: fallback, description: vscode.l10n.t('Default (shunong.weather.defaultLocation)'), place: fallback }]
      : []),
  ];
  const refresh = (): void => {
    const typed = qp.value.trim();
    const typedItem =
      typed && !base.some((b) => b.label === typed || b.place === typed)
        ? [{ label: typed, description: vscode.l10n.t('Use this place'), place: typed, alwaysShow: true }]
        : [];
    qp.items = [...typedItem, ...base];
  };
  if (problem) qp.placeholder = problem;
  qp.value = initial ?? '';
  refresh();
  qp.onDidChangeValue(refresh);
  return new Promise<string | undefined>((resolve) => {
    qp.onDidAccept(() => {
      const chosen = qp.selectedItems[0]?.place ?? qp.value.trim();
      resolve(chosen || undefined);
      qp.hide();
    });
    qp.onDidHide(() => {
      resolve(undefined);
      qp.dispose();
    });
    qp.show();
  });
}

/** Inserts `text` at the cursor of `editor` as one undoable edit; returns false when it could not. */
async function insertAtCursor(editor: vscode.TextEditor | undefined, text: string): Promise<boolean> {
  if (!editor || editor.document.isClosed) {
    const copy = vscode.l10n.t('Copy');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('No open editor to insert into. Copy the text to the clipboard instead?'),
      copy,
    );
    if (choice === copy) await vscode.env.clipboard.writeText(text);
    return false;
  }
  const sel = editor.selection;
  const line = editor.document.lineAt(sel.active.line);
  // A block goes on lines of its own, after a blank line.
  const block = text.includes('\n');
  const prevLine = sel.start.line > 0 ? editor.document.lineAt(sel.start.line - 1) : undefined;
  const before = !block ? '' : sel.start.character > 0 ? '\n\n' : prevLine && !prevLine.isEmptyOrWhitespace ? '\n' : '';
  const after = text.includes('\n') && !line.isEmptyOrWhitespace && sel.end.character < line.text.length ? '\n' : '';
  return editor.edit((b) => b.replace(sel, before + text + after));
}

/** "Shunong: Insert Weather Brief". Returns the inserted Markdown, or undefined. */
export async function insertWeatherBrief(
  context: vscode.ExtensionContext,
  connection: Connection,
  givenPlace?: string,
): Promise<string | undefined> {
  const editor = vscode.window.activeTextEditor;
  let place = typeof givenPlace === 'string' ? givenPlace : await pickPlace(context);
  while (place) {
    const where = place;
    try {
      const [now, forecast] = await withCancellableProgress(
        vscode.l10n.t('Fetching the weather for {0}…', where),
        (signal) =>
          // A failure is shown by showError (with "Set API Key" for a key problem): no second offer.
          connection.run((c) => Promise.all([c.weatherNow(where, { signal }), c.weatherForecast(where, { signal })]), {
            offerSetKey: false,
          }),
      );
      const name = placeName(context, where, forecast.city);
      const text = renderWeatherBrief({
        place: name,
        now,
        forecast,
        retrievedOn: forecast.forecast[0]?.date ?? '',
        lang: insertLanguageFor(editor?.document),
        notes: thresholds(editor?.document.uri),
      });
      await rememberPlace(context, {
        name,
        ...(/^\d{9}$/.test(now.city) ? { code: now.city } : {}),
      });
      return (await insertAtCursor(editor, text)) ? text : undefined;
    } catch (err) {
      if (isPlatformError(err, 'cancelled')) return undefined;
      if (isPlatformError(err, 'tool-failure', 'input-validation')) {
        // An unknown place: show the endpoint's reason and let the user try another.
        const reason = err.reason;
        void vscode.window.showWarningMessage(vscode.l10n.t('No weather for "{0}": {1}', where, reason));
        place =
          typeof givenPlace === 'string'
            ? undefined
            : await pickPlace(
                context,
                where,
                vscode.l10n.t('No weather for "{0}". Try another place or a 9-digit code.', where),
              );
        continue;
      }
      void showError(err, connection.endpoint);
      return undefined;
    }
  }
  return undefined;
}

/**
 * The name a place is shown and remembered by: a recent place picked by its code keeps the name it
 * was remembered with (the platform echoes a code back as the city), else the platform's city name,
 * else what was asked.
 */
function placeName(context: vscode.ExtensionContext, asked: string, city: string): string {
  const known = context.globalState.get<RecentPlace[]>(RECENT_KEY, []).find((r) => r.code === asked)?.name;
  if (known && !/^\d{9}$/.test(known)) return known;
  return city && !/^\d{9}$/.test(city) ? city : asked;
}

async function rememberPlace(context: vscode.ExtensionContext, place: RecentPlace): Promise<void> {
  const recent = context.globalState
    .get<RecentPlace[]>(RECENT_KEY, [])
    .filter((r) => r.name !== place.name && (!place.code || r.code !== place.code));
  await context.globalState.update(RECENT_KEY, [place, ...recent].slice(0, MAX_RECENT));
}

/** "Shunong: Insert Date and Solar Term". Returns the inserted line. */
export async function insertDateAndSolarTerm(
  connection: Connection,
  calendar: DailyValue<CurrentTime>,
): Promise<string | undefined> {
  const editor = vscode.window.activeTextEditor;
  try {
    const t = await calendar.get();
    const lang = insertLanguageFor(editor?.document);
    const line = calendarLine(t, lang, settings.calendar(editor?.document.uri).format);
    return (await insertAtCursor(editor, line)) ? line : undefined;
  } catch (err) {
    void showError(err, connection.endpoint);
    return undefined;
  }
}

/** "Shunong: New Bulletin": an untitled Markdown bulletin from the template, filled from the tools. */
export async function newBulletin(
  connection: Connection,
  calendar: DailyValue<CurrentTime>,
  givenPlace?: string,
): Promise<vscode.TextDocument | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  const place =
    typeof givenPlace === 'string'
      ? givenPlace
      : await vscode.window.showInputBox({
          title: vscode.l10n.t('Shunong: New Bulletin'),
          prompt: vscode.l10n.t('Place of the bulletin (optional)'),
          value: settings.weather(folder?.uri).defaultLocation,
        });
  if (place === undefined) return undefined;
  let t: CurrentTime;
  try {
    t = await calendar.get();
  } catch (err) {
    void showError(err, connection.endpoint);
    return undefined;
  }
  let template: string | undefined;
  const templatePath = settings.bulletin(folder?.uri).template;
  if (templatePath) {
    const uri = folder ? vscode.Uri.joinPath(folder.uri, templatePath) : vscode.Uri.file(templatePath);
    try {
      template = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    } catch {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('The bulletin template {0} could not be read; the built-in template is used.', templatePath),
      );
    }
  }
  // The bulletin's language: the custom template's lang:, else the setting, else its prose, else the UI language.
  const lang = insertLanguageFor(undefined, folder?.uri, template);
  const words = wordsOf(lang);
  const title = place ? words.t('{0} farm bulletin {1}', place, t.date) : words.t('Farm bulletin {0}', t.date);
  const content = fillTemplate(template ?? builtinTemplate(lang), {
    title,
    lang: langTag(lang),
    date: t.date,
    weekday: weekdayName(t.weekday, lang),
    solarTerm: termName(t.solar_term, lang),
    nextSolarTerm: termName(t.next_solar_term, lang),
    daysToNextSolarTerm: String(t.days_to_next_solar_term),
    calendarLine: calendarLine(t, lang, settings.calendar(folder?.uri).format),
    place,
    referencesHeading: settings.citations(folder?.uri).referencesHeading || referencesHeadingOf(lang),
  });
  const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content });
  await vscode.window.showTextDocument(doc);
  return doc;
}
