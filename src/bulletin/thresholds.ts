/**
 * The thresholds of the weather brief's derived farm notes and their defaults, which are also the
 * settings' defaults (`shunong.weather.*`). A file of its own so that reading the settings loads
 * none of the brief's text (the activation bundle reads them).
 */

/** Thresholds of the derived farm notes (settings). */
export interface NoteThresholds {
  frostBelowC: number;
  heatAboveC: number;
  humidPercent: number;
  minRunDays: number;
}

export const DEFAULT_THRESHOLDS: NoteThresholds = { frostBelowC: 2, heatAboveC: 35, humidPercent: 85, minRunDays: 3 };
