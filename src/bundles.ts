/**
 * Lazy access to the heavy bundles, required on first use and never at activation, so
 * `dist/extension.js` stays small:
 * - `dist/platform.js`: src/shunong (MCP SDK + zod);
 * - `dist/citations.js`: src/citations (markdown-it);
 * - `dist/knowledge.js`: src/knowledge (vocabulary, query composition, misses; zod);
 * - `dist/publish.js`: src/publish (Word, WeChat and HTML exports);
 * - `dist/safety.js`: src/safety (the pesticide rules and their lint; zod only once a station's
 *   rules file is read).
 */
import * as path from 'node:path';

export type Platform = typeof import('./shunong/index');
export type CitationsLib = typeof import('./citations/index');
export type KnowledgeLib = typeof import('./knowledge/index');
export type PublishLib = typeof import('./publish/index');
export type SafetyLib = typeof import('./safety/index');

const loaded = new Map<string, unknown>();

function load<T>(file: string): T {
  let m = loaded.get(file);
  if (m === undefined) {
    // A computed path keeps esbuild from inlining the module into the activation bundle.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    m = require(path.join(__dirname, file)) as T;
    loaded.set(file, m);
  }
  return m as T;
}

/** The platform bundle (MCP client), loaded once. */
export function loadPlatform(): Platform {
  return load<Platform>('platform.js');
}

/** The citation bundle (Markdown parsing, insertion, renumbering, lint), loaded once. */
export function loadCitations(): CitationsLib {
  return load<CitationsLib>('citations.js');
}

/** The knowledge bundle (vocabulary, query composition, ranking, no-hit offers), loaded once. */
export function loadKnowledge(): KnowledgeLib {
  return load<KnowledgeLib>('knowledge.js');
}

/** The publishing bundle (exports to Word, WeChat, HTML), loaded once, on the first export. */
export function loadPublish(): PublishLib {
  return load<PublishLib>('publish.js');
}

/** The pesticide safety bundle (rules, lint, messages), loaded once, when a bulletin is first linted. */
export function loadSafety(): SafetyLib {
  return load<SafetyLib>('safety.js');
}
