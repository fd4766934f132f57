/** "Insert Weather Brief": now and seven days for a place, asked with the recent places first. */
import vscode = require('vscode');
import type { CommandRegistry } from '../shared/commands';
import type { Connection } from '../shared/connection';
import { isPlatformError } from '../shared/errors';
import { settings } from '../shared/settings';
import { renderWeatherBrief } from '../../bulletin/render';
import type { NoteThresholds } from '../../bulletin/thresholds';
import { insertAtCursor } from '../shared/insertAtCursor';
import { insertLanguageFor } from '../shared/language';
import { withCancellableProgress } from '../shared/progress';

const RECENT_KEY = 'shunong.weather.recentPlaces';
const MAX_RECENT = 8;

interface RecentPlace {
  name: string;
  code?: string;
}

/** The services the weather brief uses. */
export interface WeatherServices {
  connection: Connection;
  commands: CommandRegistry;
}

/** Registers "Insert Weather Brief". */
export function activate(context: vscode.ExtensionContext, services: WeatherServices): void {
  services.commands.register({
    id: 'shunong.insertWeatherBrief',
    run: (place?: string) => insertWeatherBrief(context, services.connection, place),
  });
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

/** "Shunong: Insert Weather Brief". Returns the inserted Markdown, or undefined. */
async function insertWeatherBrief(
  context: vscode.ExtensionContext,
  connection: Connection,
  givenPlace?: string,
): Promise<string | undefined> {
  const editor = vscode.window.activeTextEditor;
  let place = typeof givenPlace === 'string' ? givenPlace : await pickPlace(context);
  while (place) {
    const where = place;
    try {
      const { now, forecast } = await withCancellableProgress(
        vscode.l10n.t('Fetching the weather for {0}…', where),
        (signal) =>
          // A failure is shown by showError (with "Set API Key" for a key problem): no second offer.
          connection.run((c) => c.weather(where, { signal }), {
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
      throw err; // the registry tells it, and logs it
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
