/**
 * The .vsix ships every bundle the code loads at run time. Bundles are required by computed paths
 * (`path.join(__dirname, 'x.js')`) so that esbuild keeps them apart; nothing else would notice if
 * .vscodeignore left one out, until a user ran the command that needs it.
 */
import * as assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

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
      'webp_dec.wasm',
    ]);
  });

  it('ships every bundle loaded at run time, and the activation entry named in package.json', () => {
    const main = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { main: string }).main.replace(
      /^\.\//,
      '',
    );
    for (const file of [main, ...bundlesLoaded().map((b) => `dist/${b}`)]) {
      assert.ok(ignore.includes(`!${file}`), `.vscodeignore must keep ${file}`);
    }
  });

  it('ships no sources, tests or source maps', () => {
    assert.equal(ignore[0], '**', 'everything is excluded unless listed');
    assert.ok(!ignore.some((l) => /^!(src|test)\b/.test(l)));
    assert.ok(ignore.includes('**/*.map'));
  });
});
