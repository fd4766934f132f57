/**
 * The knowledge layer: guided query vocabulary and composition, score_type-aware display, rank
 * fusion, no-hit offers, counts and warnings, the history and the bases seen (history.ts), search-as-you-type.
 * Pure: never imports `vscode`.
 */
export * from './types';
export * from './messages';
export * from './vocabulary';
export * from './query';
export * from './editorQuery';
export * from './score';
export * from './fusion';
export * from './threshold';
export * from './miss';
export * from './summary';
export * from './latestOnly';
