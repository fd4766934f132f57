/**
 * What the bundles loaded at activation hold: the heavy libraries live in the lazily loaded
 * bundles (src/bundles.ts), so a stray runtime import (a type would do) cannot pull them into
 * `dist/extension.js` or `dist/features.js` unseen — as the chat's tool texts once pulled the
 * knowledge layer and zod into the features (205 KB → 618 KB).
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

  it('the safety bundle lints an open bulletin without evaluating zod: only a station file needs its schema', async () => {
    // zod marks the process when it is evaluated (globalThis.__zod_globalConfig), so a fresh Node
    // running the built bundle tells whether the first lint paid for it.
    const r = await build({
      entryPoints: [join(ROOT, 'src/safety/index.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      mainFields: ['module', 'main'],
      write: false,
      logLevel: 'silent',
    });
    const dir = mkdtempSync(join(tmpdir(), 'shunong-safety-bundle-'));
    try {
      const file = join(dir, 'safety.js');
      writeFileSync(file, r.outputFiles[0]!.contents);
      const script = `
        const s = require(${JSON.stringify(file)});
        const zod = () => globalThis.__zod_globalConfig !== undefined;
        const found = s.lintSafety('白菜可用克百威防治蛴螬。', s.shippedRules(), { today: '2026-12-02' }).length;
        const before = zod();
        s.withStationRules(s.shippedRules(), '{"version": 2}', 'station.json');
        console.log(JSON.stringify({ found, before, after: zod() }));`;
      const out = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
      assert.equal(out.status, 0, out.stderr);
      assert.deepEqual(JSON.parse(out.stdout), { found: 1, before: false, after: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
