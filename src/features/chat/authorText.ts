/**
 * What `@shunong` shows the author when no model writes the answer, in VS Code's display
 * language: `/today` as the calendar line the bulletin would get, `/weather` as the weather brief
 * (current conditions, seven days, source line), a miss as the knowledge layer explains it, and
 * the passages of a search as their citation, knowledge base, score read by its type and text.
 * The tools' texts (src/chat/toolText.ts) stay the model's, in English.
 */
import vscode = require('vscode');
import type { ReturnedPassage } from '../../chat/toolText';
import type { MissInfo } from '../../knowledge/miss';
import { calendarLine, renderWeatherBrief } from '../../bulletin/render';
import { loadKnowledge } from '../../bundles';
import { withSignal } from '../shared/signal';
import { isPlatformError } from '../../shunong/errors';
import type { Connection } from '../shared/connection';
import { describeError } from '../shared/errors';
import { uiLanguage } from '../shared/language';
import { localise, scoreLine } from '../shared/passageText';

/** The failure of a call as the author reads it (a cancellation is passed on). */
export function failureText(err: unknown, connection: Connection): string {
  if (isPlatformError(err, 'cancelled')) throw new vscode.CancellationError();
  return describeError(err, connection.endpoint);
}

/** `/today`: the date, weekday and solar term (`get_current_time`), as the calendar line. */
export async function todayText(connection: Connection, token: vscode.CancellationToken): Promise<string> {
  try {
    const t = await withSignal(token, (signal) =>
      connection.run((c) => c.currentTime({ withSolarTerms: true }, { signal }), { offerSetKey: false }),
    );
    return calendarLine(t, uiLanguage());
  } catch (err) {
    return failureText(err, connection);
  }
}

/** `/weather <place>`: the weather brief (Markdown, server text escaped), or why there is none. */
export async function weatherText(
  connection: Connection,
  place: string,
  token: vscode.CancellationToken,
): Promise<{ markdown: string } | { text: string }> {
  if (!place) return { text: vscode.l10n.t('Name a place after /weather, or set shunong.weather.defaultLocation.') };
  try {
    const { now, forecast } = await withSignal(token, (signal) =>
      connection.run((c) => c.weather(place, { signal }), {
        offerSetKey: false,
      }),
    );
    const markdown = renderWeatherBrief({
      place,
      now,
      forecast,
      retrievedOn: forecast.forecast[0]?.date ?? '',
      lang: uiLanguage(),
    });
    return { markdown };
  } catch (err) {
    if (isPlatformError(err, 'tool-failure', 'input-validation'))
      return { text: vscode.l10n.t('No weather for "{0}": {1}', place, err.reason) };
    return { text: failureText(err, connection) };
  }
}

/** A search every knowledge base missed, as the author reads it: the platform's words (when one base answered) and why. */
export function noHitText(reason: string | undefined, miss: MissInfo): string {
  return [...(reason ? [reason] : []), ...loadKnowledge().describeMiss(miss).map(localise)].join('\n');
}

/** The passages of a search, each with its citation, knowledge base, score and text. */
export function passagesText(passages: readonly ReturnedPassage[]): string {
  return passages
    .map((p) => [`〔${p.key}〕 · ${p.kbName} (${p.kbCode})`, scoreLine(p), p.content].join('\n'))
    .join('\n\n');
}
