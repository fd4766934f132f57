/** "New Bulletin": an untitled Markdown bulletin from the template, filled from the tools. */
import vscode = require('vscode');
import { readWorkspaceText } from '../shared/decoding';
import type { CurrentTime } from '../../shunong/index';
import type { DailyValue } from '../../bulletin/daily';
import { calendarLine } from '../../bulletin/render';
import { builtinTemplate, fillTemplate } from '../../bulletin/template';
import { langTag, referencesHeadingOf, termName, weekdayName, wordsOf } from '../../text/words';
import type { CommandRegistry } from '../shared/commands';
import { insertLanguageFor } from '../shared/language';
import { settings } from '../shared/settings';

/** The services New Bulletin uses: the calendar's cache of the day, and the command registry. */
export interface NewBulletinServices {
  calendar: DailyValue<CurrentTime>;
  commands: CommandRegistry;
}

/** Registers "New Bulletin". */
export function activate(_context: vscode.ExtensionContext, services: NewBulletinServices): void {
  services.commands.register({
    id: 'shunong.newBulletin',
    run: (place?: string) => newBulletin(services.calendar, place),
  });
}

/** "Shunong: New Bulletin": an untitled Markdown bulletin from the template, filled from the tools. */
async function newBulletin(
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
  // a failure (no key, offline) is the registry's to tell
  const t = await calendar.get();
  let template: string | undefined;
  const templatePath = settings.bulletin(folder?.uri).template;
  if (templatePath) {
    const uri = folder ? vscode.Uri.joinPath(folder.uri, templatePath) : vscode.Uri.file(templatePath);
    const read = await readWorkspaceText(uri);
    if ('text' in read) template = read.text;
    else
      void vscode.window.showWarningMessage(
        read.error === 'undecodable'
          ? vscode.l10n.t(
              'The bulletin template {0} is not UTF-8, UTF-16 or GB18030 text; the built-in template is used. Save it as UTF-8.',
              templatePath,
            )
          : vscode.l10n.t('The bulletin template {0} could not be read; the built-in template is used.', templatePath),
      );
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
