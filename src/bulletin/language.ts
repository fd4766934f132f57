/**
 * The language of a document, for the text written into it: its front matter's `lang:` (by the
 * BCP-47 prefix), otherwise the language its prose is written in, otherwise the caller's fallback.
 * Pure: no vscode import (src/features/shared/language.ts adds the setting and the UI language).
 */
import { FRONT_MATTER, frontMatter } from './frontMatter';
import { closesFence, fenceOf, indentedAsCode } from '../text/lines';
import type { Lang } from '../text/words';

/**
 * Prose with fewer letters than this says nothing. A Han character counts as {@link HAN_WEIGHT}
 * letters here (a Chinese word is one or two characters, an English one about five), so a short
 * Chinese bulletin — a title and a line, `# 茶园夏季管理` + `修剪安排如下。` — already tells,
 * while `# 简报` or `Hi` does not.
 */
const MIN_LETTERS = 20;
/** What a Han character weighs towards {@link MIN_LETTERS}. */
const HAN_WEIGHT = 4;
/** Han ÷ (Han + Latin) at or above this reads as Chinese. */
const HAN_RATIO = 0.5;

/** The `shunong.insertLanguage` setting's values. */
export type InsertLanguageSetting = 'auto' | 'zh-CN' | 'en';

/** The language a BCP-47 tag names (`zh`, `zh-CN`, `zh-Hans-CN` → zh; `en`, `en-GB` → en), or undefined. */
export function langOfTag(tag: string): Lang | undefined {
  // Stryker disable next-line OptionalChaining: group 1 is always there when the tag matches
  const prefix = /^\s*["']?([A-Za-z]{2,3})(?:[-_][\w-]*)?["']?\s*$/.exec(tag)?.[1]?.toLowerCase();
  return prefix === 'zh' ? 'zh' : prefix === 'en' ? 'en' : undefined;
}

/** The front matter's `lang:` (or `language:`) value as written, or undefined. */
export function frontMatterLang(text: string): string | undefined {
  const { fields } = frontMatter(text);
  return fields.lang ?? fields.language;
}

/**
 * The prose of a Markdown document: without its front matter, fenced and indented code, code
 * spans, HTML comments and tags, URLs and link targets, and citations (footnote references and
 * definitions, inline `〔doc#idx〕`).
 */
export function proseOf(text: string): string {
  const out: string[] = [];
  let fence: string | undefined;
  const body = text.replace(FRONT_MATTER, '');
  for (const line of body.split(/\r?\n/)) {
    if (fence !== undefined) {
      if (closesFence(line, fence)) fence = undefined;
      continue;
    }
    fence = fenceOf(line);
    if (fence !== undefined) continue;
    if (indentedAsCode(line) && !/^\s*(?:[-*+]|\d+[.)])\s/.test(line)) continue; // indented code
    if (/^ {0,3}\[\^[^\]]+\]:/.test(line)) continue; // a footnote definition
    out.push(line);
  }
  return out
    .join('\n')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/(`+)[\s\S]*?\1/g, ' ')
    .replace(/〔[^〔〕\n]*〕/g, ' ')
    .replace(/\[\^[^\]\s]+\]/g, ' ')
    .replace(/\]\([^)\s]*(?:\s+"[^"]*")?\)/g, '] ')
    .replace(/<[^<>\s]+>/g, ' ')
    .replace(/\b(?:https?|ftp|file|mailto):[^\s<>()]*/gi, ' ')
    .replace(/\bwww\.[^\s<>()]*/gi, ' ');
}

/** Han characters and Latin letters in some text. */
export function letterCounts(text: string): { han: number; latin: number } {
  return {
    han: (text.match(/\p{Script=Han}/gu) ?? []).length,
    latin: (text.match(/[A-Za-z\u00C0-\u024F]/g) ?? []).length,
  };
}

/**
 * The language the prose of a document is written in: Han ÷ (Han + Latin letters) ≥ 0.5 reads as
 * Chinese, less as English; undefined when it has too few letters.
 */
export function proseLanguage(text: string): Lang | undefined {
  const { han, latin } = letterCounts(proseOf(text));
  if (han * HAN_WEIGHT + latin < MIN_LETTERS) return undefined;
  // Stryker disable next-line ArithmeticOperator: at a ratio of ½, han ÷ (han − latin) falls on the same side
  return han / (han + latin) >= HAN_RATIO ? 'zh' : 'en';
}

/**
 * The language of text written into a document. What the document declares (`lang:` in its front
 * matter) wins; then the setting when it names a language; then the language of its prose; then
 * the UI language.
 */
export function insertLanguage(setting: InsertLanguageSetting, text: string | undefined, ui: Lang): Lang {
  const tag = text === undefined ? undefined : frontMatterLang(text);
  const declared = tag === undefined ? undefined : langOfTag(tag);
  if (declared) return declared;
  if (setting !== 'auto') return setting === 'zh-CN' ? 'zh' : 'en';
  return (text === undefined ? undefined : proseLanguage(text)) ?? ui;
}
