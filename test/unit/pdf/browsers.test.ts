/**
 * Finding the browser that prints PDF, for machines this one is not: Windows, macOS and Linux, Snap
 * and Flatpak builds, the setting's path; where each may keep its temporary files; the command line
 * it is run with.
 */
import * as assert from 'node:assert/strict';
import { candidates, findBrowser, packagingOf, printArgs, workRoot } from '../../../src/pdf/index';

const WIN_ENV = {
  'ProgramFiles(x86)': 'C:\\Program Files (x86)',
  ProgramFiles: 'C:\\Program Files',
  LOCALAPPDATA: 'C:\\Users\\li\\AppData\\Local',
};

const only =
  (...paths: string[]) =>
  (p: string): boolean =>
    paths.includes(p);

describe('finding a browser to print PDF', () => {
  it('Windows: Edge first (every Windows has it), then Chrome, then Chromium, in both Program Files and the user folder', () => {
    const edge = 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe';
    const chrome = 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe';
    const userChrome = 'C:\\Users\\li\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe';
    assert.deepEqual(findBrowser({ platform: 'win32', env: WIN_ENV, exists: only(edge, chrome) }).found, {
      path: edge,
      name: 'edge',
      packaging: { kind: 'native' },
    });
    assert.equal(findBrowser({ platform: 'win32', env: WIN_ENV, exists: only(chrome) }).found?.path, chrome);
    assert.equal(findBrowser({ platform: 'win32', env: WIN_ENV, exists: only(userChrome) }).found?.name, 'chrome');
    const chromium = 'C:\\Users\\li\\AppData\\Local\\Chromium\\Application\\chrome.exe';
    assert.equal(findBrowser({ platform: 'win32', env: WIN_ENV, exists: only(chromium) }).found?.name, 'chromium');
  });

  it("Windows: the environment's names are read whatever their case", () => {
    const env = { PROGRAMFILES: 'D:\\Apps\\' };
    assert.ok(candidates('win32', env).some((c) => c.path === 'D:\\Apps\\Google\\Chrome\\Application\\chrome.exe'));
  });

  it('macOS: the applications folder, then the user one', () => {
    const env = { HOME: '/Users/li' };
    const edge = '/Users/li/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge';
    assert.equal(findBrowser({ platform: 'darwin', env, exists: only(edge) }).found?.path, edge);
    const chrome = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    assert.equal(findBrowser({ platform: 'darwin', env, exists: only(chrome, edge) }).found?.name, 'chrome');
    const chromium = '/Applications/Chromium.app/Contents/MacOS/Chromium';
    assert.equal(findBrowser({ platform: 'darwin', env, exists: only(chromium) }).found?.name, 'chromium');
  });

  it('Linux: on PATH, Chrome before Edge before Chromium; /opt installs', () => {
    const env = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/home/li' };
    const found = (...paths: string[]) => findBrowser({ platform: 'linux', env, exists: only(...paths) }).found;
    assert.equal(found('/usr/bin/chromium', '/usr/bin/google-chrome-stable')?.path, '/usr/bin/google-chrome-stable');
    assert.equal(found('/usr/bin/chromium', '/usr/bin/microsoft-edge')?.name, 'edge');
    assert.deepEqual(found('/usr/bin/chromium'), {
      path: '/usr/bin/chromium',
      name: 'chromium',
      packaging: { kind: 'native' },
    });
    assert.equal(found('/usr/local/bin/chromium')?.path, '/usr/local/bin/chromium');
    assert.equal(found('/opt/google/chrome/chrome')?.name, 'chrome');
    assert.equal(found('/opt/microsoft/msedge/msedge')?.name, 'edge');
    // /usr/bin is looked at even when PATH leaves it out (a service's bare environment)
    assert.equal(
      findBrowser({ platform: 'linux', env: {}, exists: only('/usr/bin/chromium') }).found?.name,
      'chromium',
    );
  });

  it('Linux: the Snap build (and Ubuntu’s chromium-browser, which starts it) and the Flatpak builds', () => {
    const env = { PATH: '/usr/bin:/snap/bin', HOME: '/home/li' };
    const found = (...paths: string[]) => findBrowser({ platform: 'linux', env, exists: only(...paths) }).found;
    assert.deepEqual(found('/snap/bin/chromium', '/usr/bin/chromium-browser'), {
      path: '/snap/bin/chromium',
      name: 'chromium',
      packaging: { kind: 'snap', name: 'chromium' },
    });
    assert.equal(found('/usr/bin/chromium-browser')?.path, '/usr/bin/chromium-browser');
    assert.deepEqual(found('/var/lib/flatpak/exports/bin/com.google.Chrome')?.packaging, {
      kind: 'flatpak',
      id: 'com.google.Chrome',
    });
    const userEdge = '/home/li/.local/share/flatpak/exports/bin/com.microsoft.Edge';
    assert.equal(found(userEdge)?.name, 'edge');
    assert.equal(found('/var/lib/flatpak/exports/bin/org.chromium.Chromium')?.name, 'chromium');
    // a native install wins over the sandboxed ones
    assert.equal(found('/snap/bin/chromium', '/usr/bin/chromium')?.path, '/usr/bin/chromium');
  });

  it('none found: every place looked at, once each', () => {
    const r = findBrowser({ platform: 'linux', env: { PATH: '/usr/bin:/usr/bin' }, exists: () => false });
    assert.equal(r.found, undefined);
    assert.ok(!r.found && r.looked.includes('/usr/bin/chromium') && r.looked.includes('/snap/bin/chromium'));
    assert.ok(!r.found && new Set(r.looked).size === r.looked.length);
    assert.ok(!r.found && r.setting === undefined);
  });

  it("the setting's path wins, whatever is installed; one that is not there is said so, and nothing else is looked for", () => {
    const mine = '/home/li/bin/my-chrome';
    const r = findBrowser({ platform: 'linux', env: {}, exists: () => true, setting: ` ${mine} ` });
    assert.deepEqual(r.found, { path: mine, name: 'custom', packaging: { kind: 'native' } });
    const missing = findBrowser({ platform: 'linux', env: {}, exists: only('/usr/bin/chromium'), setting: mine });
    assert.deepEqual(missing, { found: undefined, setting: mine, looked: [mine] });
    // blank: searched as usual
    const blank = findBrowser({ platform: 'linux', env: {}, exists: only('/usr/bin/chromium'), setting: '  ' });
    assert.equal(blank.found?.path, '/usr/bin/chromium');
  });

  it('a Snap or Flatpak named by the setting is known by where it is', () => {
    assert.deepEqual(packagingOf('/snap/bin/chromium'), { kind: 'snap', name: 'chromium' });
    assert.deepEqual(packagingOf('/snap/bin/chromium.chromedriver'), { kind: 'snap', name: 'chromium' });
    assert.deepEqual(packagingOf('/var/lib/flatpak/exports/bin/com.google.Chrome'), {
      kind: 'flatpak',
      id: 'com.google.Chrome',
    });
    assert.deepEqual(packagingOf('/usr/bin/chromium'), { kind: 'native' });
    assert.deepEqual(packagingOf('C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe'), { kind: 'native' });
  });

  it("temporary files go where the browser's sandbox lets it read: a Snap's and a Flatpak's own folders", () => {
    const env = { HOME: '/home/li/' };
    assert.equal(workRoot({ kind: 'native' }, env, '/tmp'), '/tmp');
    assert.equal(workRoot({ kind: 'snap', name: 'chromium' }, env, '/tmp'), '/home/li/snap/chromium/common');
    assert.equal(
      workRoot({ kind: 'flatpak', id: 'com.google.Chrome' }, env, '/tmp'),
      '/home/li/.var/app/com.google.Chrome/cache',
    );
    assert.equal(workRoot({ kind: 'snap', name: 'chromium' }, {}, '/tmp'), '/tmp', 'no home: the system folder');
  });
});

describe("the browser's command line", () => {
  const args = printArgs({ profile: '/t/p', page: 'file:///t/page.html', output: '/t/page.pdf', root: false });

  it('prints headless from a fresh profile, with an outline and no header or footer of its own, the page last', () => {
    assert.equal(args[0], '--headless');
    assert.ok(args.includes('--user-data-dir=/t/p'));
    assert.ok(args.includes('--print-to-pdf=/t/page.pdf'));
    assert.ok(args.includes('--no-pdf-header-footer'));
    assert.ok(args.includes('--generate-pdf-document-outline'));
    assert.equal(args.at(-1), 'file:///t/page.html');
  });

  it('reaches no network: every host resolves to nothing, everything else goes to a closed proxy; nothing in the background', () => {
    assert.ok(args.includes('--host-resolver-rules=MAP * ~NOTFOUND'));
    assert.ok(args.some((a) => a.startsWith('--proxy-server=127.0.0.1:')));
    for (const flag of [
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-extensions',
    ])
      assert.ok(args.includes(flag), flag);
  });

  it('keeps its sandbox unless it runs as root, where Chromium cannot start one', () => {
    assert.ok(!args.includes('--no-sandbox'));
    assert.ok(printArgs({ profile: 'p', page: 'u', output: 'o', root: true }).includes('--no-sandbox'));
  });
});
