/**
 * Lazy access to the heavy bundles, required on first use and never at activation, so
 * `dist/extension.js` stays small:
 * - `dist/platform.js`: src/shunong (MCP SDK; zod, from `dist/zod.js`);
 * - `dist/citations.js`: src/citations (markdown-it);
 * - `dist/knowledge.js`: src/knowledge (vocabulary, query composition, misses; zod);
 * - `dist/publish.js`: src/publish (Word, WeChat and HTML exports; the citation layer from
 *   `dist/citations.js`);
 * - `dist/safety.js`: src/safety (the pesticide rules and their lint; zod only once a station's
 *   rules file is read).
 * Each bundle requires the modules it shares with others (esbuild.config.mjs: REQUIRED, SHARED).
 */
import * as path from 'node:path';

export type Platform = typeof import('./shunong/index');
export type CitationsLib = typeof import('./citations/index');
export type KnowledgeLib = typeof import('./knowledge/index');
export type PublishLib = typeof import('./publish/index');
export type SafetyLib = typeof import('./safety/index');

/**
 * The bundle `file` beside this one. Node's module cache holds each bundle once, so this module
 * keeps no state of its own (it is copied into both the activation and the features bundle).
 */
function load<T>(file: string): T {
  // A computed path keeps esbuild from inlining the module into the activation bundle.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(path.join(__dirname, file)) as T;
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
