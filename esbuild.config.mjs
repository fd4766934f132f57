// Builds the extension's bundles.
//   dist/extension.js  - activation entry: tiny; the stand-ins of every command and of the chat
//                        contributions, the open bulletins' citation Problems, then dist/features.js.
//   dist/features.js   - the features (status bar, views, Markdown providers, commands).
//   dist/errors.js     - src/shunong/errors.ts, the platform's error classes, required by every
//                        bundle below that throws or catches them, so there is one copy of each
//                        class and `instanceof` holds across bundles.
//   dist/platform.js   - src/shunong (MCP SDK), loaded on first use.
//   dist/citations.js  - src/citations (markdown-it), loaded on first use; the export requires it.
//   dist/lintWorker.js - the citation lint's worker thread (src/lintWorker/main.ts), started at
//                        activation; it requires dist/citations.js in its own thread.
//   dist/imaging.js    - jimp with mozjpeg's and libwebp's decoders, to shrink photos over 4 MB
//                        (and convert WebP) before upload, loaded on first use; the decoders'
//                        compiled modules are dist/mozjpeg_dec.wasm and dist/webp_dec.wasm.
//   dist/knowledge.js  - src/knowledge (vocabulary, query, misses), loaded on first search.
//   dist/publish.js    - src/publish (Word from our own WordprocessingML writer, zipped with
//                        node:zlib, a template .docx read with jszip and sax; the WeChat article;
//                        the HTML page), loaded on first export.
//   dist/safety.js     - src/safety (the pesticide rules and their lint), loaded on first use.
//   dist/safetySchema.js - the rules file's schema (jsonc-parser; zod from dist/zod.js), required
//                        by dist/safety.js only when a station's rules file is read.
//   dist/zod.js, dist/pako.js, dist/sax.js, dist/yaml.js - npm modules two or more of the bundles above use, one
//                        copy each, required by them (SHARED below).
//   media/recognition/main.js - the recognition preview's webview script (src/webview/recognition,
//                        TypeScript against src/recognition/protocol.ts), one browser IIFE beside
//                        its style sheet, where the panel loads it from.
//   media/wechat/main.js - the "Copy for WeChat" webview's script (src/webview/wechat).
//   dist/cli.js        - the `shunong` command line.
//   out/test/...       - the integration suite, compiled for the extension host.
//   dist/meta.json     - esbuild's metafile of the bundles in dist/ (which source is in which
//                        bundle, and its bytes there), read by the bundle rules' test; not shipped.
// Imported (not run), it builds nothing and exports the bundles' options (`extensionBundles`,
// `cliBundle`), so a test builds the same bundles for itself. docs/ARCHITECTURE.md, "Bundles", says
// which module may be in which bundle.
import * as esbuild from 'esbuild';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve as resolvePath, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(fileURLToPath(import.meta.url));
/** Whether Node runs this file (`node esbuild.config.mjs`), not a module that imports it; symlinks resolved. */
const run = (() => {
  const real = (file) => (existsSync(file) ? realpathSync(file) : file);
  return process.argv[1] !== undefined && real(resolvePath(process.argv[1])) === real(fileURLToPath(import.meta.url));
})();
const watch = run && process.argv.includes('--watch');
const production = !(run && process.argv.includes('--dev'));
if (run) process.chdir(ROOT); // the paths below are the repository's

/** @type {esbuild.BuildOptions} */
const common = {
  absWorkingDir: ROOT,
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

const ERRORS = resolvePath(ROOT, 'src/shunong/errors.ts');
const CITATIONS = resolvePath(ROOT, 'src/citations/index.ts');
const SAFETY_SCHEMA = resolvePath(ROOT, 'src/safety/schema.ts');
const L10N_ZH = resolvePath(ROOT, 'l10n/bundle.l10n.zh-cn.json');

/**
 * The modules of ours every other bundle requires, beside it, from the one bundle that holds them,
 * instead of a copy of its own:
 * - src/shunong/errors.ts from dist/errors.js, the one copy of the error classes (`instanceof`
 *   holds across bundles);
 * - l10n/bundle.l10n.zh-cn.json, the Chinese catalogue the document words read, parsed once by
 *   Node's JSON loader for every bundle (a copy in each cost its parse and compile again);
 * - src/safety/schema.ts from dist/safetySchema.js, the station rules file's schema, only where a
 *   station file is read;
 * - src/citations/index.ts from dist/citations.js, the citation layer with markdown-it: the export
 *   reads bulletins with the same parser and plugin, and markdown-it's state (the parsers each
 *   module makes once) is one.
 */
const REQUIRED = [
  [ERRORS, './errors.js'],
  [L10N_ZH, '../l10n/bundle.l10n.zh-cn.json'],
  [SAFETY_SCHEMA, './safetySchema.js'],
  [CITATIONS, './citations.js'],
];

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
 * npm modules several bundles use, each in a bundle of its own in dist/ that they require: one copy
 * on disk and one evaluation in the extension host, where each bundle had its own. Per shared
 * bundle, the import specifiers it serves and the name it exports each one's namespace under.
 * - zod: the platform's schemas and the MCP SDK's (classic and mini, one core), the vocabulary
 *   file's (dist/knowledge.js) and the station rules file's (dist/safetySchema.js);
 * - pako: jszip's inflate (the export reads a Word template) and jimp's TIFF decoder (dist/imaging.js);
 * - sax: the export's XML reader and jimp's (xml2js, dist/imaging.js);
 * - yaml: the front matter's reader (src/bulletin/frontMatter.ts), in the features, the knowledge,
 *   the publishing and the safety bundles.
 */
const SHARED = {
  zod: { zod: 'zod', 'zod/v4': 'v4', 'zod/v4-mini': 'v4Mini' },
  pako: { pako: 'pako' },
  sax: { sax: 'sax' },
  yaml: { yaml: 'yaml' },
};

/** What a plugin's own `build.resolve` passes, so that no plugin resolves it again (they would loop). */
const INNER = 'resolved-by-a-plugin';

/** The real path of the project's own copy of an npm package (not a copy nested in another package). */
function packageDir(name) {
  return realpathSync(dirname(createRequire(join(ROOT, 'package.json')).resolve(`${name}/package.json`)));
}

/**
 * The specifiers of SHARED, imported in a bundle other than their own, become a module of one line,
 * `module.exports = require('./<shared>.js')[<name>]`. Only where they resolve to the project's
 * copy of the package: a dependency's own copy of another version (jimp's zod 3) stays inside.
 */
function sharedModules() {
  const served = new Map();
  for (const [bundle, specifiers] of Object.entries(SHARED))
    for (const [specifier, name] of Object.entries(specifiers)) served.set(specifier, { bundle, name });
  const exact = (list) => new RegExp(`^(${list.map((s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})$`);
  const ownDir = new Map();
  const inside = (path, dir) => path.startsWith(dir + sep);
  return {
    name: 'shared-modules',
    setup(build) {
      build.onResolve({ filter: exact([...served.keys()]) }, async (args) => {
        if (args.pluginData === INNER) return undefined;
        const { bundle, name } = served.get(args.path);
        const found = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: INNER,
        });
        if (found.errors.length > 0) return undefined;
        const pkg = args.path.split('/')[0];
        if (!ownDir.has(pkg)) ownDir.set(pkg, packageDir(pkg));
        if (!inside(realpathSync(found.path), ownDir.get(pkg))) return undefined;
        return { path: args.path, namespace: 'shared-modules', pluginData: { bundle, name } };
      });
      build.onLoad({ filter: /.*/, namespace: 'shared-modules' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(`./${args.pluginData.bundle}.js`)})[${JSON.stringify(args.pluginData.name)}];`,
        loader: 'js',
      }));
      build.onResolve({ filter: /^\.\/\w+\.js$/, namespace: 'shared-modules' }, (args) => ({
        path: args.path,
        external: true,
      }));
    },
  };
}

/** The bundle dist/<name>.js of a SHARED entry: each of its specifiers' namespaces, by name. */
function sharedBundle(name) {
  const exported = new Map(Object.entries(SHARED[name]).map(([specifier, as]) => [as, specifier]));
  return {
    ...common,
    stdin: {
      contents: [...exported]
        .map(([as, specifier]) => `export * as ${as} from ${JSON.stringify(specifier)};`)
        .join('\n'),
      resolveDir: ROOT,
      sourcefile: `${name}.shared.js`,
      loader: 'js',
    },
    outfile: `dist/${name}.js`,
  };
}

/**
 * One copy of each version of an npm package in a bundle. npm nests a copy of a package under each
 * dependent that wants another version than the project's own (each of jimp's plugins has its own
 * zod 3, sixteen copies of one version), and esbuild bundles every copy. An import that resolves
 * into such a nested copy resolves to the same file of the first copy (by path) of that version.
 */
function oneCopyPerVersion() {
  const modules = realpathSync(join(ROOT, 'node_modules'));
  const versionOf = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  /** The copies of a package one level down (node_modules/<dependent>/node_modules/<name>), by version. */
  const copies = new Map();
  function firstCopy(name, version) {
    if (!copies.has(name)) {
      const dependents = readdirSync(modules).flatMap((d) =>
        d.startsWith('@') ? readdirSync(join(modules, d)).map((s) => `${d}/${s}`) : [d],
      );
      const found = new Map();
      for (const dir of dependents
        .map((d) => join(modules, d, 'node_modules', name))
        .filter((d) => existsSync(join(d, 'package.json')))
        .sort())
        if (!found.has(versionOf(dir))) found.set(versionOf(dir), dir);
      copies.set(name, found);
    }
    return copies.get(name).get(version);
  }
  const nested = new RegExp(
    `^${modules.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/(?:@[^/]+/)?[^/]+/node_modules/((?:@[^/]+/)?[^/]+)/(.*)$`,
  );
  return {
    name: 'one-copy-per-version',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === INNER || args.path.startsWith('node:')) return undefined;
        const found = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: INNER,
        });
        const m = found.errors.length === 0 && !found.external ? nested.exec(found.path) : null;
        if (!m) return undefined;
        const dir = found.path.slice(0, found.path.length - m[2].length - 1);
        const first = firstCopy(m[1], versionOf(dir));
        return first === undefined || first === dir
          ? undefined
          : { path: join(first, m[2]), sideEffects: found.sideEffects };
      });
    },
  };
}

/** A bundle of the extension host in dist/: it requires the modules of REQUIRED and SHARED. */
function hostBundle(name, entry, options = {}) {
  const own = resolvePath(ROOT, entry);
  return {
    ...common,
    entryPoints: { [name]: entry },
    outdir: 'dist',
    external: ['vscode'],
    plugins: [
      ...REQUIRED.filter(([file]) => file !== own).map(([file, at]) => requiredAt(file, at)),
      sharedModules(),
      oneCopyPerVersion(),
    ],
    ...options,
  };
}

/** The extension host's bundles in dist/: everything the .vsix runs but the webviews' scripts. */
export const extensionBundles = [
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
  hostBundle('safetySchema', 'src/safety/schema.ts'),
  // The WebP decoder's Emscripten glue reads import.meta.url only to locate its .wasm, which we
  // hand it ourselves (src/recognition/codecs.ts): empty there is expected.
  hostBundle('imaging', 'src/recognition/imaging.ts', { logOverride: { 'empty-import-meta': 'silent' } }),
  ...Object.keys(SHARED).map(sharedBundle),
];

/** The command line: one file by design, holding its own copy of everything it runs. */
export const cliBundle = {
  ...common,
  entryPoints: { cli: 'src/cli/main.ts' },
  outdir: 'dist',
  external: ['vscode'],
  banner: { js: '#!/usr/bin/env node' },
};

/** Every bundle in dist/, the ones dist/meta.json describes. */
export const distBundles = [...extensionBundles, cliBundle];

const builds = [...distBundles, webview('recognition'), webview('wechat')];
if (run && existsSync('test/integration/suite/index.ts')) {
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

/** esbuild's metafiles of several builds as one: their inputs and their outputs together. */
export function mergedMetafile(metafiles) {
  const merged = { inputs: {}, outputs: {} };
  for (const m of metafiles) {
    Object.assign(merged.inputs, m.inputs);
    Object.assign(merged.outputs, m.outputs);
  }
  return merged;
}

if (run) await main();

async function main() {
  mkdirSync('dist', { recursive: true });
  if (watch) {
    for (const b of builds) await (await esbuild.context(b)).watch();
  } else {
    const built = await Promise.all(
      builds
        .filter((b) => Object.values(b.entryPoints ?? {}).every((e) => existsSync(e)))
        .map((b) => esbuild.build(distBundles.includes(b) ? { ...b, metafile: true } : b).then((r) => r.metafile)),
    );
    if (existsSync('dist/cli.js')) chmodSync('dist/cli.js', 0o755);
    writeFileSync('dist/meta.json', JSON.stringify(mergedMetafile(built.filter((m) => m !== undefined))));
  }
  // The decoders' compiled modules, read by dist/imaging.js from beside it (src/recognition/codecs.ts).
  const resolve = createRequire(import.meta.url).resolve;
  copyFileSync(resolve('@jsquash/webp/codec/dec/webp_dec.wasm'), 'dist/webp_dec.wasm');
  copyFileSync(resolve('@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm'), 'dist/mozjpeg_dec.wasm');
}
