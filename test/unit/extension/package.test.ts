/**
 * The .vsix ships every bundle the code loads at run time. Bundles are required by computed paths
 * (`path.join(__dirname, 'x.js')`) so that esbuild keeps them apart; nothing else would notice if
 * .vscodeignore left one out, until a user ran the command that needs it.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BuildOptions } from 'esbuild';

const ROOT = join(__dirname, '..', '..', '..');

/** Every `'<name>.js'` / `'<name>.wasm'` literal the extension's sources load from next to themselves. */
function bundlesLoaded(): string[] {
  const found = new Set<string>();
  const files = readdirSync(join(ROOT, 'src'), { recursive: true, withFileTypes: true }).filter(
    (e) => e.isFile() && e.name.endsWith('.ts'),
  );
  for (const f of files) {
    const text = readFileSync(join(f.parentPath, f.name), 'utf8');
    if (!text.includes('__dirname')) continue;
    for (const m of text.matchAll(/'([a-z_]+\.(?:js|wasm))'/g)) found.add(m[1]!);
  }
  return [...found].sort();
}

/** The files the build writes for the extension host (esbuild.config.mjs, `extensionBundles`). */
async function extensionBundleFiles(): Promise<string[]> {
  const config = pathToFileURL(join(ROOT, 'esbuild.config.mjs')).href;
  const { extensionBundles } = (await import(config)) as { extensionBundles: BuildOptions[] };
  return extensionBundles.flatMap((b) =>
    b.outfile !== undefined
      ? [b.outfile]
      : Object.keys(b.entryPoints as Record<string, string>).map((n) => `${b.outdir}/${n}.js`),
  );
}

describe('package: the .vsix contents', () => {
  const ignore = readFileSync(join(ROOT, '.vscodeignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim());

  it('finds the lazily loaded bundles in the sources', () => {
    assert.deepEqual(bundlesLoaded(), [
      'citations.js',
      'features.js',
      'imaging.js',
      'knowledge.js',
      'mozjpeg_dec.wasm',
      'platform.js',
      'publish.js',
      'safety.js',
      'webp_dec.wasm',
    ]);
  });

  it('ships every bundle loaded at run time, and the activation entry named in package.json', async () => {
    const main = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { main: string }).main.replace(
      /^\.\//,
      '',
    );
    // Required by the bundles themselves (esbuild.config.mjs, REQUIRED and SHARED): every bundle the
    // build makes for the extension host (dist/errors.js, dist/zod.js…), and the l10n catalogue.
    const required = await extensionBundleFiles();
    assert.ok(required.includes('dist/errors.js') && required.includes('dist/zod.js'), 'the build is read');
    for (const file of [main, ...required, ...bundlesLoaded().map((b) => `dist/${b}`)]) {
      assert.ok(ignore.includes(`!${file}`), `.vscodeignore must keep ${file}`);
    }
    assert.ok(ignore.includes('!l10n/**'), 'the bundles require l10n/bundle.l10n.zh-cn.json at run time');
  });

  it('ships no sources, tests or source maps', () => {
    assert.equal(ignore[0], '**', 'everything is excluded unless listed');
    assert.ok(!ignore.some((l) => /^!(src|test)\b/.test(l)));
    assert.ok(ignore.includes('**/*.map'));
  });

  it('is packaged from a copy of the top-level entries its `!` patterns name, so nothing it ships is left behind', async () => {
    const harness = pathToFileURL(join(ROOT, 'test', 'harness', 'code-server.mjs')).href;
    const { stageExtension } = (await import(harness)) as { stageExtension: () => string };
    const staged = stageExtension();
    try {
      const tops = new Set(ignore.filter((l) => l.startsWith('!')).map((l) => l.slice(1).split('/')[0]!));
      assert.deepEqual(
        readdirSync(staged).sort(),
        [...tops, '.vscodeignore'].filter((t) => existsSync(join(ROOT, t))).sort(),
      );
      for (const file of ignore.filter((l) => l.startsWith('!') && !/[*?]/.test(l)).map((l) => l.slice(1)))
        if (existsSync(join(ROOT, file)))
          assert.equal(readFileSync(join(staged, file), 'utf8'), readFileSync(join(ROOT, file), 'utf8'), file);
    } finally {
      rmSync(staged, { recursive: true, force: true });
    }
  });
});

/** The manifest fields read below. */
interface Manifest {
  icon?: string;
  categories?: string[];
  repository?: { type: string; url: string };
  bugs?: { url: string };
  homepage?: string;
  capabilities?: {
    untrustedWorkspaces?: { supported: boolean | 'limited'; description?: string; restrictedConfigurations?: string[] };
    virtualWorkspaces?: boolean | { supported: boolean | 'limited'; description?: string };
  };
  contributes: { configuration: { properties: Record<string, { scope?: string; default?: unknown }> } };
}

/**
 * The Marketplace's categories, as VS Code 1.100 and 1.139 list them (the `categories` schema of
 * extensionsRegistry, read from code-server's bundles; vsce does not check them).
 */
const MARKETPLACE_CATEGORIES = [
  'AI',
  'Azure',
  'Chat',
  'Data Science',
  'Debuggers',
  'Extension Packs',
  'Education',
  'Formatters',
  'Keymaps',
  'Language Packs',
  'Linters',
  'Machine Learning',
  'Notebooks',
  'Programming Languages',
  'SCM Providers',
  'Snippets',
  'Testing',
  'Themes',
  'Visualization',
  'Other',
];

describe('package: what the Marketplace and VS Code expect of the manifest', () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;
  const ignore = readFileSync(join(ROOT, '.vscodeignore'), 'utf8').split('\n');
  const nls = (file: string): Record<string, string> =>
    JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Record<string, string>;

  it('an icon: a 128 × 128 PNG that ships', () => {
    assert.ok(manifest.icon, 'no icon');
    const png = readFileSync(join(ROOT, manifest.icon));
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG');
    assert.equal(png.subarray(12, 16).toString('latin1'), 'IHDR');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
    assert.match(manifest.icon, /^media\//);
    assert.ok(ignore.includes('!media/**'), 'media/ ships');
  });

  it('a changelog that ships, with an Unreleased section first', () => {
    assert.ok(ignore.includes('!CHANGELOG.md'));
    const text = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');
    assert.match(text.split('\n## ')[1] ?? '', /^Unreleased\n/);
  });

  it('repository, bugs and homepage on one https repository', () => {
    const repo = manifest.repository?.url ?? '';
    assert.equal(manifest.repository?.type, 'git');
    assert.match(repo, /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/);
    const base = repo.replace(/\.git$/, '');
    assert.equal(manifest.bugs?.url, `${base}/issues`);
    assert.equal(manifest.homepage, `${base}#readme`);
  });

  it('categories from the Marketplace list, not just "Other"', () => {
    const categories = manifest.categories ?? [];
    assert.ok(categories.length > 0);
    for (const c of categories) assert.ok(MARKETPLACE_CATEGORIES.includes(c), `unknown category ${c}`);
    assert.ok(!categories.includes('Other'));
  });

  it('Restricted Mode: limited, restricting resource-scoped settings that name a file or folder, said in both languages', () => {
    const untrusted = manifest.capabilities?.untrustedWorkspaces;
    assert.equal(untrusted?.supported, 'limited');
    const restricted = untrusted?.restrictedConfigurations ?? [];
    assert.deepEqual(restricted, [
      'shunong.bulletin.template',
      'shunong.recognition.saveFolder',
      'shunong.export.docxTemplate',
      'shunong.safety.rulesFile',
    ]);
    const props = manifest.contributes.configuration.properties;
    for (const key of restricted) {
      assert.ok(props[key], `${key} is a setting`);
      assert.equal(props[key].scope, 'resource', `${key}: only a workspace value can be ignored`);
    }
    for (const key of ['shunong.endpoint', 'shunong.allowInsecureHttp', 'shunong.requestTimeoutMs'])
      assert.equal(props[key]?.scope, 'application', `${key} needs no trust: a workspace cannot set it`);
    assert.equal(props['shunong.export.browserPath']?.scope, 'machine', 'a workspace cannot name the program run');
    const m = /^%(.+)%$/.exec(untrusted?.description ?? '');
    assert.ok(m, 'the description is localised');
    for (const file of ['package.nls.json', 'package.nls.zh-cn.json']) {
      const text = nls(file)[m[1]!] ?? '';
      for (const key of restricted) assert.ok(text.includes(key), `${file} names ${key}`);
    }
  });

  it('virtual workspaces: supported (the features read and write through vscode.workspace.fs, never node:fs)', () => {
    assert.equal(manifest.capabilities?.virtualWorkspaces, true);
    const files = readdirSync(join(ROOT, 'src', 'features'), { recursive: true, withFileTypes: true }).filter(
      (e) => e.isFile() && e.name.endsWith('.ts'),
    );
    assert.ok(files.length > 0);
    for (const f of files) {
      const text = readFileSync(join(f.parentPath, f.name), 'utf8');
      assert.doesNotMatch(text, /from 'node:fs(\/promises)?'|require\('(node:)?fs'\)/, `${f.name} uses node:fs`);
    }
  });
});
