/**
 * Where a browser that prints PDF is installed (Microsoft Edge, Google Chrome, Chromium), on
 * Windows, macOS and Linux, Snap and Flatpak builds included; or the one the user named
 * (`export.browserPath`). The platform, the environment and the file test are the caller's, so the
 * search runs anywhere, for any machine. Pure.
 */

/** The three path styles the search knows. */
export type BrowserPlatform = 'win32' | 'darwin' | 'linux';

/** How a browser was installed, which decides where it may read and write. */
export type Packaging =
  | { kind: 'native' }
  /** A Snap: it sees its own folder under `~/snap/<name>`, not the system's temporary folder. */
  | { kind: 'snap'; name: string }
  /** A Flatpak: it sees its own folder under `~/.var/app/<id>`. */
  | { kind: 'flatpak'; id: string };

/** A browser found. */
export interface Browser {
  /** The program to run. */
  path: string;
  /** Which browser, for messages (`custom`: the setting's). */
  name: 'edge' | 'chrome' | 'chromium' | 'custom';
  packaging: Packaging;
}

/** What the search needs of the machine. */
export interface SearchInput {
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  /** Whether a file is there (and, for a program, may be run). */
  exists(path: string): boolean;
  /** `export.browserPath`: '' or absent to search. */
  setting?: string;
}

/** What the search gives: the browser, or the places looked at. */
export type SearchResult =
  | { found: Browser }
  | {
      found: undefined;
      /** The setting's path, when it was set and is not there. */
      setting?: string;
      /** Every path looked at, in order. */
      looked: string[];
    };

/** The Flatpak application ids, by browser. */
const FLATPAKS: readonly (readonly [Browser['name'], string])[] = [
  ['chrome', 'com.google.Chrome'],
  ['edge', 'com.microsoft.Edge'],
  ['chromium', 'org.chromium.Chromium'],
];

/** The program names looked up on PATH on Linux, by browser, before the Snap and Flatpak builds. */
const LINUX_NAMES: readonly (readonly [Browser['name'], string])[] = [
  ['chrome', 'google-chrome-stable'],
  ['chrome', 'google-chrome'],
  ['edge', 'microsoft-edge-stable'],
  ['edge', 'microsoft-edge'],
  ['chromium', 'chromium'],
];

/** One place to look. */
interface Candidate {
  path: string;
  name: Browser['name'];
  packaging: Packaging;
}

const native: Packaging = { kind: 'native' };

/** The places to look on a platform, in the order of preference. */
export function candidates(platform: NodeJS.Platform, env: SearchInput['env']): Candidate[] {
  if (platform === 'win32') return windows(env);
  if (platform === 'darwin') return mac(env);
  return linux(env);
}

/** A variable of Windows' environment, whose names are read without regard to case. */
function envOf(env: SearchInput['env'], name: string): string | undefined {
  const key = Object.keys(env).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : env[key];
}

function windows(env: SearchInput['env']): Candidate[] {
  const bases = ['ProgramFiles(x86)', 'ProgramFiles', 'LocalAppData']
    .map((k) => envOf(env, k))
    .filter((b): b is string => !!b)
    .map((b) => b.replace(/[\\/]+$/, ''));
  const apps: readonly (readonly [Browser['name'], string])[] = [
    ['edge', 'Microsoft\\Edge\\Application\\msedge.exe'],
    ['chrome', 'Google\\Chrome\\Application\\chrome.exe'],
    ['chromium', 'Chromium\\Application\\chrome.exe'],
  ];
  return apps.flatMap(([name, rel]) => bases.map((b) => ({ path: `${b}\\${rel}`, name, packaging: native })));
}

function mac(env: SearchInput['env']): Candidate[] {
  const roots = ['/Applications', ...(env.HOME ? [`${env.HOME.replace(/\/+$/, '')}/Applications`] : [])];
  const apps: readonly (readonly [Browser['name'], string])[] = [
    ['chrome', 'Google Chrome.app/Contents/MacOS/Google Chrome'],
    ['edge', 'Microsoft Edge.app/Contents/MacOS/Microsoft Edge'],
    ['chromium', 'Chromium.app/Contents/MacOS/Chromium'],
  ];
  return apps.flatMap(([name, rel]) => roots.map((r) => ({ path: `${r}/${rel}`, name, packaging: native })));
}

function linux(env: SearchInput['env']): Candidate[] {
  const dirs = [...new Set([...(env.PATH ?? '').split(':').filter((d) => d.startsWith('/')), '/usr/bin'])].map((d) =>
    d.replace(/\/+$/, ''),
  );
  const onPath = (names: typeof LINUX_NAMES): Candidate[] =>
    names.flatMap(([name, file]) =>
      dirs.filter((d) => d !== '/snap/bin').map((d) => ({ path: `${d}/${file}`, name, packaging: native })),
    );
  const home = env.HOME?.replace(/\/+$/, '');
  const flatpakRoots = ['/var/lib/flatpak/exports/bin', ...(home ? [`${home}/.local/share/flatpak/exports/bin`] : [])];
  return [
    ...onPath(LINUX_NAMES),
    { path: '/opt/google/chrome/chrome', name: 'chrome', packaging: native },
    { path: '/opt/microsoft/msedge/msedge', name: 'edge', packaging: native },
    { path: '/snap/bin/chromium', name: 'chromium', packaging: { kind: 'snap', name: 'chromium' } },
    // Ubuntu's chromium-browser starts the Snap: after /snap/bin/chromium, so that one is taken when it is there
    ...onPath([['chromium', 'chromium-browser']]),
    ...FLATPAKS.flatMap(([name, id]) =>
      flatpakRoots.map((r) => ({ path: `${r}/${id}`, name, packaging: { kind: 'flatpak', id } as Packaging })),
    ),
  ];
}

/** How a program at `path` was installed, read from where it is (the setting's browser). */
export function packagingOf(path: string): Packaging {
  const snap = /^\/snap\/bin\/([^/.]+)(?:\.[^/]*)?$/.exec(path);
  if (snap) return { kind: 'snap', name: snap[1]! };
  const flatpak = /\/flatpak\/exports\/bin\/([A-Za-z0-9_.-]+)$/.exec(path);
  if (flatpak) return { kind: 'flatpak', id: flatpak[1]! };
  return native;
}

/** Finds the browser: the setting's when it names one, else the first installed. */
export function findBrowser(input: SearchInput): SearchResult {
  const setting = input.setting?.trim();
  if (setting) {
    if (input.exists(setting)) return { found: { path: setting, name: 'custom', packaging: packagingOf(setting) } };
    return { found: undefined, setting, looked: [setting] };
  }
  const all = candidates(input.platform, input.env);
  const hit = all.find((c) => input.exists(c.path));
  if (hit) return { found: { path: hit.path, name: hit.name, packaging: hit.packaging } };
  return { found: undefined, looked: [...new Set(all.map((c) => c.path))] };
}

/**
 * The folder under which a print's temporary folder is made: the system's for a browser installed
 * the usual way; for a Snap or a Flatpak, a folder of its own that its sandbox lets it read and
 * write (its private `/tmp` is not the system's).
 */
export function workRoot(packaging: Packaging, env: SearchInput['env'], tmpdir: string): string {
  const home = env.HOME?.replace(/\/+$/, '');
  if (!home || packaging.kind === 'native') return tmpdir;
  if (packaging.kind === 'snap') return `${home}/snap/${packaging.name}/common`;
  return `${home}/.var/app/${packaging.id}/cache`;
}
