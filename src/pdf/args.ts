/**
 * The command line that has a Chromium-family browser print one page to PDF with its own headless
 * print (the page numbers are the page's CSS margin boxes), and nothing else: a fresh profile, no
 * network, no extensions, nothing in the background. Pure.
 */

/** What one print needs. */
export interface PrintArgs {
  /** The fresh profile folder, removed afterwards. */
  profile: string;
  /** The page to print, as a `file:` URL. */
  page: string;
  /** Where the PDF goes. */
  output: string;
  /**
   * Whether the browser runs as root (Linux containers, CI): Chromium refuses to start its sandbox
   * then, so it runs without it; the page it prints is ours, scripts cannot run in it, and it
   * reaches no network.
   */
  root: boolean;
}

/** Every host name resolved to nothing: no request leaves, whatever a page could ask for. */
export const NO_NETWORK = [
  '--host-resolver-rules=MAP * ~NOTFOUND',
  '--proxy-server=127.0.0.1:9',
  '--proxy-bypass-list=<-loopback>',
];

/**
 * The arguments, the page last. Scripts are kept off by the page's own policy, not by a flag:
 * with `--blink-settings=scriptEnabled=false` Chromium's headless print writes no PDF at all
 * (measured with Chromium 156).
 */
export function printArgs(a: PrintArgs): string[] {
  return [
    '--headless',
    `--user-data-dir=${a.profile}`,
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-extensions',
    '--disable-component-extensions-with-background-pages',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-default-apps',
    '--disable-sync',
    '--disable-features=Translate,MediaRouter,OptimizationHints,AutofillServerCommunication',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--mute-audio',
    ...NO_NETWORK,
    ...(a.root ? ['--no-sandbox'] : []),
    '--no-pdf-header-footer',
    '--generate-pdf-document-outline',
    `--print-to-pdf=${a.output}`,
    a.page,
  ];
}
