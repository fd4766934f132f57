// Builds the extension's bundles.
//   dist/extension.js  - activation entry: tiny; the stand-ins of every command and of the chat
//                        contributions, the open bulletins' citation Problems, then dist/features.js.
//   dist/features.js   - the features (status bar, views, Markdown providers, commands).
//   dist/errors.js     - src/shunong/errors.ts, the platform's error classes, required by every
//                        bundle below that throws or catches them, so there is one copy of each
//                        class and `instanceof` holds across bundles.
//   dist/platform.js   - src/shunong (MCP SDK + zod), loaded on first use.
//   dist/citations.js  - src/citations (markdown-it), loaded on first use.
//   dist/lintWorker.js - the citation lint's worker thread (src/lintWorker/main.ts), started at
//                        activation; it requires dist/citations.js in its own thread.
//   dist/imaging.js    - jimp with mozjpeg's and libwebp's decoders, to shrink photos over 4 MB
//                        (and convert WebP) before upload, loaded on first use; the decoders'
//                        compiled modules are dist/mozjpeg_dec.wasm and dist/webp_dec.wasm.
//   dist/knowledge.js  - src/knowledge (vocabulary, query, misses; zod), loaded on first search.
//   dist/publish.js    - src/publish (Word from our own WordprocessingML writer, zipped with
//                        node:zlib, a template .docx read with jszip and sax; the WeChat article;
//                        the HTML page), loaded on first export.
//   dist/safety.js     - src/safety (the pesticide rules and their lint), loaded on first use.
//   dist/safetySchema.js - the rules file's schema (zod, jsonc-parser), required by dist/safety.js
//                        only when a station's rules file is read.
//   media/recognition/main.js - the recognition preview's webview script (src/webview/recognition,
//                        TypeScript against src/recognition/protocol.ts), one browser IIFE beside
//                        its style sheet, where the panel loads it from.
//   media/wechat/main.js - the "Copy for WeChat" webview's script (src/webview/wechat).
//   dist/cli.js        - the `shunong` command line.
//   out/test/...       - the integration suite, compiled for the extension host.
import * as esbuild from 'esbuild';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve as resolvePath, sep } from 'node:path';

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
  // Node reads the bundles as UTF-8: Chinese text (the l10n catalogue the inserters read, the
  // vocabulary) stays 3 bytes a character instead of a 6-byte \uXXXX escape.
  charset: 'utf8',
  // jsonc-parser's "main" is a UMD build whose require('./impl/…') calls esbuild cannot follow
  // (the bundle would fail to load); its ES module build bundles whole.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
};

/** A webview's script: src/webview/<name>/main.ts as one browser IIFE in media/<name>/main.js. */
function webview(name) {
  return {
    ...common,
    platform: 'browser',
    format: 'iife',
    charset: 'ascii',
    target: 'es2022',
    keepNames: false,
    // Inline in development: media/** ships as a whole, so no .map file may sit beside the script.
    sourcemap: production ? false : 'inline',
    entryPoints: { main: `src/webview/${name}/main.ts` },
    outdir: `media/${name}`,
  };
}

const ERRORS = resolvePath('src/shunong/errors.ts');
const SAFETY_SCHEMA = resolvePath('src/safety/schema.ts');
const L10N_ZH = resolvePath('l10n/bundle.l10n.zh-cn.json');

/** Imports of `file` (a path in the repository) become `require(target)`, a module beside the bundle. */
function requiredAt(file, target) {
  return {
    name: `required-at ${target}`,
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        const at = resolvePath(args.resolveDir, args.path);
        return at === file || `${at}.ts` === file ? { path: target, external: true } : undefined;
      });
    },
  };
}

/**
 * A bundle of the extension host in dist/. Each requires, instead of holding a copy:
 * - dist/errors.js, the one copy of the error classes (`instanceof` holds across bundles);
 * - l10n/bundle.l10n.zh-cn.json, the Chinese catalogue the document words read, parsed once by
 *   Node's JSON loader for every bundle (a copy in each cost its parse and compile again);
 * - dist/safetySchema.js, the station rules file's schema (zod), only where a station file is read.
 */
function hostBundle(name, entry, options = {}) {
  return {
    ...common,
    entryPoints: { [name]: entry },
    outdir: 'dist',
    external: ['vscode'],
    plugins: [
      requiredAt(ERRORS, './errors.js'),
      requiredAt(L10N_ZH, '../l10n/bundle.l10n.zh-cn.json'),
      requiredAt(SAFETY_SCHEMA, './safetySchema.js'),
    ],
    ...options,
  };
}

const builds = [
  // keepNames is not needed in these two (no error classes are matched by name) and costs ~10 KB.
  hostBundle('extension', 'src/extension.ts', { keepNames: false }),
  hostBundle('features', 'src/features/index.ts', { keepNames: false }),
  { ...common, entryPoints: { errors: ERRORS }, outdir: 'dist' },
  hostBundle('platform', 'src/shunong/index.ts'),
  hostBundle('citations', 'src/citations/index.ts'),
  hostBundle('lintWorker', 'src/lintWorker/main.ts', { keepNames: false }),
  hostBundle('knowledge', 'src/knowledge/index.ts'),
  hostBundle('publish', 'src/publish/index.ts'),
  hostBundle('safety', 'src/safety/index.ts'),
  { ...hostBundle('safetySchema', 'src/safety/schema.ts'), plugins: [] },
  // The WebP decoder's Emscripten glue reads import.meta.url only to locate its .wasm, which we
  // hand it ourselves (src/recognition/codecs.ts): empty there is expected.
  hostBundle('imaging', 'src/recognition/imaging.ts', { logOverride: { 'empty-import-meta': 'silent' } }),
  webview('recognition'),
  webview('wechat'),
  {
    ...common,
    entryPoints: { cli: 'src/cli/main.ts' },
    outdir: 'dist',
    external: ['vscode'],
    banner: { js: '#!/usr/bin/env node' },
  },
];
if (existsSync('test/integration/suite/index.ts')) {
  // Each suite's index plus every `*.test.ts` under its folder as its own entry, so a new test
  // file is picked up without editing anything: index.js finds the compiled *.test.js. The suites:
  // suite/ (the main one), restricted/ (run in an untrusted folder), chatbench/ (bench/chat.bench.ts)
  // and production/ (run against the installed .vsix, `--production`).
  const entryPoints = {};
  for (const dir of ['suite', 'restricted', 'chatbench', 'production']) {
    if (!existsSync(`test/integration/${dir}/index.ts`)) continue;
    entryPoints[`${dir}/index`] = `test/integration/${dir}/index.ts`;
    for (const f of listTs(`test/integration/${dir}`)) {
      if (f.endsWith('.test.ts')) entryPoints[f.slice('test/integration/'.length, -'.ts'.length)] = f;
    }
  }
  rmSync('out/test/integration', { recursive: true, force: true }); // no stale compiled tests
  builds.push({
    ...common,
    minify: false,
    sourcemap: 'inline',
    entryPoints,
    outdir: 'out/test/integration',
    external: ['vscode', 'mocha'],
    // The tests build some of our objects themselves around the extension's (a search session on
    // its connection): they share the development extension's error classes, by absolute path.
    plugins: [requiredAt(ERRORS, resolvePath('dist/errors.js'))],
  });
}

/** Every .ts file under a folder (sorted; forward slashes). */
function listTs(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) =>
      join(e.parentPath ?? e.path, e.name)
        .split(sep)
        .join('/'),
    )
    .sort();
}

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
} else {
  await Promise.all(
    builds.filter((b) => Object.values(b.entryPoints).every((e) => existsSync(e))).map((b) => esbuild.build(b)),
  );
  if (existsSync('dist/cli.js')) chmodSync('dist/cli.js', 0o755);
}
// The decoders' compiled modules, read by dist/imaging.js from beside it (src/recognition/codecs.ts).
mkdirSync('dist', { recursive: true });
const resolve = createRequire(import.meta.url).resolve;
copyFileSync(resolve('@jsquash/webp/codec/dec/webp_dec.wasm'), 'dist/webp_dec.wasm');
copyFileSync(resolve('@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm'), 'dist/mozjpeg_dec.wasm');
