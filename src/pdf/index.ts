/**
 * PDF through the browser already on the machine: where it is (`browsers.ts`, pure), how it is run
 * (`args.ts`, pure) and one print (`print.ts`). Part of the `dist/publish.js` bundle and of the CLI.
 */
export { candidates, findBrowser, packagingOf, workRoot } from './browsers';
export type { Browser, Packaging, SearchInput, SearchResult } from './browsers';
export { printArgs } from './args';
export { findBrowserHere, printToPdf } from './print';
export type { PrintFailure, PrintOptions, PrintResult } from './print';
