/**
 * Which module may be in which of the extension's bundles. A feature may import a pure module
 * directly, which copies it into its own bundle as well as the others that import it: harmless
 * for a pure module, wrong for one that holds state, since each copy holds its own (a second class,
 * for which `instanceof` fails; a second cache or registry, which the first never sees). So a
 * module that holds state is in one of the extension's bundles at most, and a module that several
 * need is required from the bundle that holds it (esbuild.config.mjs: REQUIRED, SHARED).
 *
 * The test builds the extension's bundles for itself, in memory, with the build's own options
 * (they run before the build does), and reads esbuild's metafile: which source is in which bundle,
 * with its bytes there. dist/cli.js is one file by design and is left out. Every other module
 * copied into more than one bundle is printed, with its bytes, and the bytes duplicated in all.
 */
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { modulesWithState } from './moduleState';

const ROOT = join(__dirname, '..', '..', '..');

/**
 * Every module of src/ that holds state, and why (each is found by ./moduleState from its text;
 * this list says what the state is for, and is checked against what is found).
 */
const STATEFUL: Record<string, string> = {
  'src/shunong/errors.ts':
    "the platform's error classes, thrown in one bundle and matched with instanceof in another: the one copy is dist/errors.js, which every other bundle requires",
  'src/shunong/failures.ts': 'SessionExpired and Retryable, thrown and caught inside the MCP client (dist/platform.js)',
  'src/shunong/sessions.ts': 'DISARMED, the symbol a timeout is stopped with and recognised by',
  'src/recognition/image.ts':
    'ImageRefusedError, thrown by the image checks and matched with instanceof by the recognition and chat features',
  'src/recognition/download.ts':
    'DownloadError, thrown by the picture download and matched with instanceof by the recognition feature',
  'src/knowledge/latestOnly.ts': 'SupersededError, the reason an older search is aborted with, matched by its class',
  'src/knowledge/search.ts': 'the counter that makes search ids unique',
  'src/knowledge/vocabulary.ts': 'the built-in vocabulary, parsed once and kept',
  'src/citations/parser.ts': 'the two markdown-it parsers, made once and kept',
  'src/citations/citationsPlugin.ts': 'WRAPPED, the symbol that marks a renderer rule the plugin has wrapped already',
  'src/publish/read.ts': "the export's markdown-it, made once and kept",
  'src/publish/html.ts': "the HTML page's markdown-it, made once and kept",
  'src/publish/docxStyles.ts': 'TemplateError, thrown by the Word template reader and matched by its class',
  'src/publish/xmlRead.ts': 'XmlSyntaxError, thrown by the XML reader and matched by its class',
  'src/safety/lint.ts': 'the rules compiled per rule set and the exception patterns per rule (WeakMaps)',
  'src/safety/message.ts': 'the crop hierarchy per rule set (a WeakMap)',
  'src/text/simplified.ts': 'the traditional-to-simplified fold, built once and kept',
  'src/features/recognition/panel.ts': 'the open recognition panels, by picture (a registry)',
  'src/features/search/input.ts': 'FlowAction and its two instances, compared by identity',
  'src/features/shared/search/vocabulary.ts': 'the vocabulary problems already shown',
  'src/features/shared/decoding.ts': 'the documents whose author has been told of a misdecoding',
  'src/cli/args.ts': 'UsageError, thrown and matched by the command line (dist/cli.js, left out here)',
};

/** Where each source is, among the extension's bundles: bundle file name → its bytes there (those with any). */
type Placement = Map<string, Map<string, number>>;

/** Builds the extension's bundles (esbuild.config.mjs, `extensionBundles`) in memory; their metafiles merged. */
async function buildExtension(): Promise<Metafile> {
  const config = pathToFileURL(join(ROOT, 'esbuild.config.mjs')).href;
  const { extensionBundles, mergedMetafile } = (await import(config)) as {
    extensionBundles: BuildOptions[];
    mergedMetafile: (m: Metafile[]) => Metafile;
  };
  const built = await Promise.all(
    extensionBundles.map((b) => build({ ...b, write: false, metafile: true, logLevel: 'silent' })),
  );
  return mergedMetafile(built.map((r) => r.metafile));
}

/** Each source file (a file of the repository or of node_modules) with the bundles that hold some of it. */
function placement(meta: Metafile): Placement {
  const at: Placement = new Map();
  for (const [output, o] of Object.entries(meta.outputs)) {
    const bundle = output.replace(/^dist\//, '');
    for (const [input, { bytesInOutput }] of Object.entries(o.inputs)) {
      // A plugin's module of one line that requires a shared bundle is not a copy of anything.
      if (bytesInOutput === 0 || !existsSync(join(ROOT, input))) continue;
      if (!at.has(input)) at.set(input, new Map());
      at.get(input)!.set(bundle, bytesInOutput);
    }
  }
  return at;
}

/** An npm package's name from a path under node_modules (the last one), or undefined for our sources. */
function packageOf(input: string): string | undefined {
  return /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];
}

const bytes = (n: number): string => n.toLocaleString('en');

describe('bundle rules: which module may be in which bundle', function () {
  this.timeout(120_000);
  let at: Placement;
  before(async () => {
    at = placement(await buildExtension());
  });

  it('every module that holds state is found and has its reason written in this test', () => {
    const found = modulesWithState(ROOT);
    assert.deepEqual(
      found.map((m) => m.file),
      Object.keys(STATEFUL).sort(),
      `found: ${found.map((m) => `${m.file} (${m.found.join(', ')})`).join('; ')}`,
    );
    for (const file of Object.keys(STATEFUL)) assert.ok(existsSync(join(ROOT, file)), file);
  });

  it('reads the bundles it means: the error classes in dist/errors.js alone, markdown-it in dist/citations.js alone', () => {
    assert.deepEqual([...(at.get('src/shunong/errors.ts')?.keys() ?? [])], ['errors.js']);
    const markdownIt = [...at]
      .filter(([input]) => packageOf(input) === 'markdown-it')
      .flatMap(([, b]) => [...b.keys()]);
    assert.deepEqual([...new Set(markdownIt)], ['citations.js']);
  });

  it('no module that holds state is in two of the extension’s bundles', () => {
    const twice = Object.keys(STATEFUL)
      .map((file) => [file, [...(at.get(file)?.keys() ?? [])]] as const)
      .filter(([, bundles]) => bundles.length > 1)
      .map(([file, bundles]) => `${file} in ${bundles.join(', ')}: ${STATEFUL[file]}`);
    assert.deepEqual(twice, []);
  });

  it('lists every other module copied into more than one bundle, with its bytes', () => {
    // Grouped by npm package (the sum of its files), our sources by file.
    const groups = new Map<string, Map<string, number>>();
    for (const [input, bundles] of at) {
      if (bundles.size < 2) continue;
      const key = packageOf(input) ?? input;
      const group = groups.get(key) ?? new Map<string, number>();
      for (const [bundle, n] of bundles) group.set(bundle, (group.get(bundle) ?? 0) + n);
      groups.set(key, group);
    }
    const rows = [...groups]
      .map(([key, bundles]) => {
        const sizes = [...bundles.values()];
        // What a bundle could require instead of holding: every copy but the largest.
        const extra = sizes.reduce((a, b) => a + b, 0) - Math.max(...sizes);
        return { key, bundles, extra };
      })
      .sort((a, b) => b.extra - a.extra || (a.key < b.key ? -1 : 1));
    const total = rows.reduce((a, r) => a + r.extra, 0);
    const lines = rows.map(
      (r) =>
        `  ${r.key}: ${bytes(r.extra)} B more than one copy (${[...r.bundles].map(([b, n]) => `${b} ${bytes(n)}`).join(', ')})`,
    );
    console.log(
      [
        `      Modules copied into more than one of the extension's bundles (pure: each copy holds nothing of its own):`,
        ...lines.map((l) => `      ${l}`),
        `      Duplicated in all: ${bytes(total)} B in ${rows.length} modules.`,
      ].join('\n'),
    );
    assert.ok(
      rows.every((r) => !(r.key in STATEFUL)),
      'modules that hold state are checked above, not listed',
    );
  });
});
