/**
 * "New Bulletin": an untitled Markdown bulletin from the template, filled from the tools: a farm
 * bulletin, or a pest forecast (病虫情报) with the fields the 2021 forecast rules ask for and the
 * next issue number of the year among the workspace's bulletins.
 */
import vscode = require('vscode');
import type { CurrentTime } from '../../shunong/index';
import type { DailyValue } from '../../bulletin/daily';
import { calendarLine } from '../../bulletin/render';
import { builtinForecastTemplate, builtinTemplate, fillTemplate, usesValue } from '../../bulletin/template';
import { issueLabel, nextIssueNumber } from '../../bulletin/issue';
import { langTag, referencesHeadingOf, termName, weekdayName, wordsOf, type Lang } from '../../text/words';
import type { CommandRegistry } from '../shared/commands';
import { insertLanguageFor } from '../shared/language';
import { settings } from '../shared/settings';
import { chooseKind, customTemplate, workspaceIssues, type BulletinKind } from './choices';

/** The services New Bulletin uses: the calendar's cache of the day, and the command registry. */
export interface NewBulletinServices {
  calendar: DailyValue<CurrentTime>;
  commands: CommandRegistry;
}

/** Registers "New Bulletin". */
export function activate(_context: vscode.ExtensionContext, services: NewBulletinServices): void {
  services.commands.register({
    id: 'shunong.newBulletin',
    run: (place?: string, kind?: BulletinKind) => newBulletin(services.calendar, place, kind),
  });
}

/**
 * "Shunong: New Bulletin": what kind (asked unless given; a workspace template is a farm
 * bulletin), the place, then the bulletin opens untitled.
 */
async function newBulletin(
  calendar: DailyValue<CurrentTime>,
  givenPlace?: string,
  givenKind?: BulletinKind,
): Promise<vscode.TextDocument | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  const scripted = typeof givenPlace === 'string';
  const kind = givenKind ?? (scripted ? 'bulletin' : await chooseKind());
  if (!kind) return undefined;
  const place = scripted
    ? givenPlace
    : await vscode.window.showInputBox({
        title: vscode.l10n.t('Shunong: New Bulletin'),
        prompt: vscode.l10n.t('Place of the bulletin (optional)'),
        value: settings.weather(folder?.uri).defaultLocation,
      });
  if (place === undefined) return undefined;
  // a failure (no key, offline) is the registry's to tell
  const t = await calendar.get();
  const template = kind === 'bulletin' ? await customTemplate(folder) : undefined;
  // The bulletin's language: the custom template's lang:, else the setting, else its prose, else the UI language.
  const lang = insertLanguageFor(undefined, folder?.uri, template);
  const chosen = template ?? (kind === 'forecast' ? builtinForecastTemplate : builtinTemplate)(lang);
  // The workspace's bulletins are read for their issues only when the template writes one.
  const year = Number(t.date.slice(0, 4));
  const issue = usesValue(chosen, 'issue')
    ? issueLabel(year, nextIssueNumber(await workspaceIssues(), year), lang)
    : '';
  const content = fillTemplate(chosen, {
    title: titleOf(kind, place, t.date, lang),
    lang: langTag(lang),
    date: t.date,
    weekday: weekdayName(t.weekday, lang),
    solarTerm: termName(t.solar_term, lang),
    nextSolarTerm: termName(t.next_solar_term, lang),
    daysToNextSolarTerm: String(t.days_to_next_solar_term),
    calendarLine: calendarLine(t, lang, settings.calendar(folder?.uri).format),
    place,
    referencesHeading: settings.citations(folder?.uri).referencesHeading || referencesHeadingOf(lang),
    issue,
  });
  const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content });
  await vscode.window.showTextDocument(doc);
  return doc;
}

/** The title of a new bulletin of `kind`, in the bulletin's language. */
function titleOf(kind: BulletinKind, place: string, date: string, lang: Lang): string {
  const words = wordsOf(lang);
  if (kind === 'forecast')
    return place ? words.t('{0} pest forecast {1}', place, date) : words.t('Pest forecast {0}', date);
  return place ? words.t('{0} farm bulletin {1}', place, date) : words.t('Farm bulletin {0}', date);
}
