// Builds the extension's bundles.
//   dist/extension.js  - activation entry: small, no MCP SDK or zod inside.
//   dist/platform.js   - src/shunong (MCP SDK + zod), loaded on first use.
//   dist/cli.js        - the `shunong` command line.
//   out/test/...       - the integration suite, compiled for the extension host.
import * as esbuild from 'esbuild';
import { chmodSync, existsSync } from 'node:fs';

const watch = process.argv.includes('--watch');
const production = !process.argv.includes('--dev');

/** @type {esbuild.BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: production ? false : 'linked',
  minify: production,
  keepNames: true,
  logLevel: 'warning',
  legalComments: 'none',
};

const builds = [
  { ...common, entryPoints: { extension: 'src/extension.ts' }, outdir: 'dist', external: ['vscode', './platform.js'] },
  { ...common, entryPoints: { platform: 'src/shunong/index.ts' }, outdir: 'dist', external: ['vscode'] },
  { ...common, entryPoints: { cli: 'src/cli.ts' }, outdir: 'dist', external: ['vscode'], banner: { js: '#!/usr/bin/env node' } },
];
if (existsSync('test/integration/suite/index.ts')) {
  builds.push({
    ...common,
    minify: false,
    sourcemap: 'inline',
    entryPoints: { 'suite/index': 'test/integration/suite/index.ts' },
    outdir: 'out/test/integration',
    external: ['vscode', 'mocha'],
  });
}

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
} else {
  await Promise.all(builds.filter((b) => Object.values(b.entryPoints).every((e) => existsSync(e))).map((b) => esbuild.build(b)));
  if (existsSync('dist/cli.js')) chmodSync('dist/cli.js', 0o755);
}
