// The extension's strings as the workbench shows them in one display language, read from its own
// catalogues — l10n/bundle.l10n.zh-cn.json (vscode.l10n.t, keyed by the English text),
// package.nls(.zh-cn).json (the manifest's %keys%) and the knowledge layer's English templates
// (src/knowledge/messages.ts, translated in the same bundle) — so that a spec finds a row by what a person sees in that language
// without a second copy of any string, and can check that nothing of ours is left in English.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const REPO = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const readJson = (...p) => JSON.parse(readFileSync(join(REPO, ...p), 'utf8'));

const manifest = readJson('package.json');
const nlsEn = readJson('package.nls.json');
const nlsZh = readJson('package.nls.zh-cn.json');
const bundleZh = readJson('l10n', 'bundle.l10n.zh-cn.json');
const messages = await importTs(join(REPO, 'src', 'knowledge', 'messages.ts'));
/** The one escaper of text for a regular expression (src/text/regExp.ts), for the specs too. */
export const { escapeRegExp } = await importTs(join(REPO, 'src', 'text', 'regExp.ts'));

/** A pure TypeScript module of src/, compiled in memory by esbuild and imported from a data: URL. */
async function importTs(file) {
  const { outputFiles } = buildSync({
    entryPoints: [file],
    bundle: true,
    format: 'esm',
    write: false,
    logLevel: 'error',
  });
  return import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].text).toString('base64')}`);
}

/** Fills `{0}`, `{1}`… as vscode.l10n.t does. */
function fill(template, args) {
  return template.replace(/\{(\d+)\}/g, (whole, n) =>
    args[Number(n)] === undefined ? whole : String(args[Number(n)]),
  );
}

/** What a template looks like on screen: codicons (`$(key)`) are drawn as icons, not text. */
const shown = (template) => template.replace(/\$\([\w~-]+\)/g, '').trim();

/** A RegExp source for a template: its placeholders stand for any text, any run of spaces for any whitespace. */
function templateSource(template) {
  return shown(template)
    .split(/(\{\d+\})/)
    .map((part) => (/^\{\d+\}$/.test(part) ? '[\\s\\S]+?' : escapeRegExp(part).replace(/\s+/g, '\\s+')))
    .join('');
}

/** Resolves a manifest value: `%key%` through the nls catalogue of the locale, anything else as is. */
const resolveNls = (value, nls) =>
  String(value ?? '').replace(/^%(.+)%$/, (whole, key) => nls[key] ?? nlsEn[key] ?? whole);

/**
 * Every English value of ours that the zh-CN catalogues render differently, as [english, zh]:
 * the l10n bundle (the knowledge messages among them) and the manifest's nls strings.
 */
export const TRANSLATED = [...Object.entries(bundleZh), ...Object.keys(nlsEn).map((k) => [nlsEn[k], nlsZh[k]])].filter(
  ([en, zh]) => typeof zh === 'string' && shown(en) !== shown(zh),
);

/**
 * A count and one word (`{0} file`, `{0} problems`: the command line's summary pieces), which would
 * match any text of VS Code's own that ends with that word ("1 problem in this file").
 */
const COUNTED_WORD = /^\{\d+\}\s+[A-Za-z]+$/;

/**
 * English values worth looking for on screen: those with some English words of their own besides
 * the placeholders (a template such as `{0} ({1})` would match anything), but a counted word, each
 * as an anchored RegExp.
 */
const LEAK_PATTERNS = TRANSLATED.filter(
  ([en]) => /[A-Za-z]{2,}/.test(shown(en).replace(/\{\d+\}/g, '')) && !COUNTED_WORD.test(shown(en)),
).map(([en, zh]) => ({ en, zh, re: new RegExp(`^${templateSource(en)}$`) }));

/**
 * The texts among `texts` that are English catalogue values of ours (a whole text equal to one, its
 * placeholders standing for anything) whose zh-CN value differs: what a zh-CN window must not show.
 * Returns [{ text, en, zh }].
 */
export function englishLeaks(texts) {
  const leaks = [];
  for (const raw of new Set(texts)) {
    const text = String(raw).replace(/\s+/g, ' ').trim();
    if (!/[A-Za-z]{2,}/.test(text)) continue;
    const hit = LEAK_PATTERNS.find((p) => p.re.test(text));
    if (hit) leaks.push({ text, en: hit.en, zh: hit.zh });
  }
  return leaks;
}

/** Display languages the strings are known in (as `--locale` names them). */
export const LOCALES = ['en', 'zh-cn'];

/**
 * The extension's strings in `locale` (`en` or `zh-cn`), for specs:
 *  - `t(message, ...args)`: what vscode.l10n.t(message, ...args) shows;
 *  - `nls(key)`: a manifest string (`%key%`);
 *  - `msg(key, ...args)`: a knowledge message (src/knowledge/messages.ts); `msgPattern(key, ...args)`
 *    a RegExp for it, as `pattern` is for `t`;
 *  - `command(id)`: the palette label of a contributed command, "Category: Title";
 *  - `pattern(message, ...args)`: a RegExp for t(message, ...args), any text standing for the
 *    placeholders left without a value;
 *  - `anyLanguage(message)`: a RegExp for the message in either language (text written into a
 *    document follows the document's language, not the display language).
 */
export function strings(locale = 'en') {
  if (!LOCALES.includes(locale)) throw new Error(`no strings for locale ${locale}`);
  const zh = locale === 'zh-cn';
  const t = (message, ...args) => fill(zh ? (bundleZh[message] ?? message) : message, args);
  const nls = (key) => (zh ? (nlsZh[key] ?? nlsEn[key]) : nlsEn[key]) ?? missing(`package.nls key ${key}`);
  const template = (key) => t(messages.messagesEn[key] ?? missing(`knowledge message ${key}`));
  return {
    locale,
    zh,
    t,
    nls,
    msg: (key, ...args) => fill(template(key), args),
    msgPattern: (key, ...args) => new RegExp(templateSource(fill(template(key), args))),
    command(id) {
      const c = manifest.contributes.commands.find((x) => x.command === id) ?? missing(`command ${id}`);
      const n = zh ? nlsZh : nlsEn;
      const title = resolveNls(c.title, n);
      return c.category ? `${resolveNls(c.category, n)}: ${title}` : title;
    },
    pattern: (message, ...args) => new RegExp(templateSource(t(message, ...args))),
    anyLanguage: (message) =>
      new RegExp(`${templateSource(message)}|${templateSource(bundleZh[message] ?? missing(`zh-CN of "${message}"`))}`),
  };
}

function missing(what) {
  throw new Error(`the catalogues have no ${what}`);
}
