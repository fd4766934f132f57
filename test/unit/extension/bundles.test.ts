/**
 * What the bundles loaded at activation hold: the heavy libraries live in the lazily loaded
 * bundles (src/bundles.ts), so a stray runtime import (a type would do) cannot pull them into
 * `dist/extension.js` or `dist/features.js` unseen — as the chat's tool texts once pulled the
 * knowledge layer and zod into the features (205 KB → 618 KB).
 */
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { build } from 'esbuild';

const ROOT = join(__dirname, '..', '..', '..');

/** The npm packages and our layers a bundle of `entry` holds. */
async function contents(entry: string): Promise<Set<string>> {
  const r = await build({
    entryPoints: [join(ROOT, entry)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    external: ['vscode'],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const out = new Set<string>(Object.keys(r.metafile.inputs)); // and every input file itself
  for (const input of Object.keys(r.metafile.inputs)) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1];
    out.add(pkg ?? input.replace(/^src\/([^/]+).*$/, 'src/$1'));
  }
  return out;
}

/** Lives in a lazy bundle: the MCP SDK and zod (platform, knowledge), markdown-it (citations), jimp and the decoders (imaging), jszip and sax (publish), jsonc-parser (safety). */
const LAZY = [
  '@modelcontextprotocol/sdk',
  'zod',
  'markdown-it',
  'markdown-it-footnote',
  'jimp',
  'jszip',
  'sax',
  'jsonc-parser',
];

describe('bundles loaded at activation', () => {
  it('the activation entry holds none of the heavy libraries, nor the features (only their stand-ins)', async () => {
    const inside = await contents('src/extension.ts');
    assert.deepEqual(
      LAZY.filter((p) => inside.has(p)),
      [],
    );
    assert.ok(!inside.has('src/features/index.ts'), 'the features load after activation');
  });

  it('the features bundle holds none of them either: they come from the lazy bundles', async () => {
    const inside = await contents('src/features/index.ts');
    assert.deepEqual(
      LAZY.filter((p) => inside.has(p)),
      [],
    );
    assert.ok(inside.has('src/features/index.ts'), 'the check reads the bundle it means');
  });
});
