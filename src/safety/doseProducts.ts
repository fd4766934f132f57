/**
 * The products and ingredients a text names, for the dose reader (dose.ts): a product written as
 * concentration, ingredient (or a mixture of them joined by `·`) and formulation (`20%氯虫苯甲酰胺悬浮剂`,
 * `25%氟环唑 SC`, `48%氰烯·戊唑醇悬浮剂`, `3%阿维·氟铃脲`, `200克/升丙环唑乳油`), or an ingredient the
 * rules' dictionary knows written alone (`氯虫苯甲酰胺有效成分2克`). Each gets a key that is the same
 * however it is written: the dictionary's name, abbreviations of mixtures written out (`阿维` is
 * 阿维菌素), the formulation by its Chinese name (`SC` is 悬浮剂). Pure.
 */
import type { Dictionary } from './dictionary';
import { FORMULATIONS } from './product';

/** A product or ingredient named in the text. */
export interface ProductMention {
  start: number;
  end: number;
  /** The ingredient (or mixture) as one key: `氯虫苯甲酰胺`, `阿维菌素·氟铃脲`. */
  ingredient: string;
  /** The concentration in percent (`20%`), or in grams per litre (`200克/升`). */
  concentration?: { value: number; unit: '%' | 'g/L'; start: number; end: number } | undefined;
  /** The formulation by its Chinese name (`悬浮剂` for `SC`). */
  formulation?: string | undefined;
}

/** Abbreviations and other names of one ingredient, as mixtures and advisories write them. */
const ALIASES: Readonly<Record<string, string>> = {
  阿维: '阿维菌素',
  甲维: '甲氨基阿维菌素苯甲酸盐',
  甲维盐: '甲氨基阿维菌素苯甲酸盐',
  甲氨基阿维菌素: '甲氨基阿维菌素苯甲酸盐',
  氰烯: '氰烯菌酯',
  苯甲: '苯醚甲环唑',
  高氯: '高效氯氰菊酯',
  高氯氟: '高效氯氟氰菊酯',
  氯虫: '氯虫苯甲酰胺',
  戊唑: '戊唑醇',
  嘧菌: '嘧菌酯',
  吡唑: '吡唑醚菌酯',
  井冈: '井冈霉素',
  噻呋: '噻呋酰胺',
  吡蚜: '吡蚜酮',
  烯啶: '烯啶虫胺',
  噻虫: '噻虫嗪',
  丙环: '丙环唑',
  己唑: '己唑醇',
  咪鲜: '咪鲜胺',
  多抗: '多抗霉素',
  chlorantraniliprole: '氯虫苯甲酰胺',
  imidacloprid: '吡虫啉',
  pymetrozine: '吡蚜酮',
  abamectin: '阿维菌素',
  tebuconazole: '戊唑醇',
};

/** Formulation abbreviations by their Chinese names. */
const FORMULATION_NAMES: Readonly<Record<string, string>> = {
  wdg: '水分散粒剂',
  wg: '水分散粒剂',
  wp: '可湿性粉剂',
  sc: '悬浮剂',
  ec: '乳油',
  ew: '水乳剂',
  me: '微乳剂',
  sl: '可溶液剂',
  as: '水剂',
  sp: '可溶粉剂',
  fs: '种子处理悬浮剂',
  fsc: '悬浮种衣剂',
  cs: '微囊悬浮剂',
  gr: '颗粒剂',
  g: '颗粒剂',
  od: '可分散油悬浮剂',
  dp: '粉剂',
  胶悬剂: '悬浮剂',
};

/** The formulation's Chinese name, however it is written. */
export function formulationName(written: string): string {
  const w = written.trim().toLowerCase();
  return FORMULATION_NAMES[w] ?? written.trim();
}

/** The key of one ingredient name as written (folded text): its full name where it is an abbreviation. */
export function ingredientKey(name: string): string {
  return name
    .split(/\s*[·・.-]\s*/)
    .filter(Boolean)
    .map((part) => ALIASES[part] ?? part)
    .join('·');
}

const FORMS = [...FORMULATIONS, '种子处理悬浮剂', 'FSC', 'AS']
  .sort((a, b) => b.length - a.length)
  .map((f) => f.toLowerCase());
const CONC = String.raw`(\d+(?:\.\d+)?)\s*(%|(?:克|g)\s*/\s*(?:升|l))`;
const NAME = String.raw`((?:[\u4e00-\u9fff]|[·・.-](?=[\u4e00-\u9fff])){2,24}?)`;
/** What may follow a product named without its formulation. */
const BARE_END = String.raw`(?=\s*(?:\d|[，,。；;、：:()\s+＋\[〔]|或|和|加|兑|对水|亩|每|喷|$))`;
/** A product with its concentration: `20%氯虫苯甲酰胺悬浮剂`, `3%阿维·氟铃脲`, `200克/升丙环唑乳油`. */
const PRODUCT = new RegExp(String.raw`${CONC}\s*${NAME}(?:\s*(${FORMS.join('|')})(?![a-z])|${BARE_END})`, 'g');
const FORMULATION_AFTER = new RegExp(String.raw`^\s*(${FORMS.join('|')})(?![a-z])`);

/**
 * The products and ingredients of `folded` (text folded to simplified script and lower case, with
 * ASCII digits and punctuation: {@link foldForDoses}), in order. `dictionary` recognises the names
 * written without a concentration.
 */
export function productsIn(folded: string, dictionary: Dictionary): ProductMention[] {
  const out: ProductMention[] = [];
  PRODUCT.lastIndex = 0;
  for (let m = PRODUCT.exec(folded); m; m = PRODUCT.exec(folded)) {
    const name = m[3]!;
    if (!knownName(name, m[4] !== undefined, dictionary)) {
      PRODUCT.lastIndex = m.index + 1;
      continue;
    }
    const nameStart = m.index + m[0].indexOf(name, m[1]!.length);
    out.push({
      start: m.index,
      end: m.index + m[0].length,
      ingredient: ingredientKey(name),
      concentration: {
        value: Number(m[1]),
        unit: m[2]!.includes('%') ? '%' : 'g/L',
        start: m.index,
        end: nameStart,
      },
      ...(m[4] ? { formulation: formulationName(m[4]) } : {}),
    });
  }
  // The names written alone, outside the products above.
  let p = 0;
  for (const hit of dictionary.scanFolded(folded)) {
    if (hit.entry.kind !== 'pesticide') continue;
    while (p < out.length && out[p]!.end <= hit.start) p++;
    const inside = out.some((o) => o.start <= hit.start && hit.end <= o.end);
    if (inside) continue;
    const form = FORMULATION_AFTER.exec(folded.slice(hit.end, hit.end + 12));
    out.push({
      start: hit.start,
      end: hit.end + (form ? form[0].length : 0),
      ingredient: ingredientKey(folded.slice(hit.start, hit.end)),
      ...(form ? { formulation: formulationName(form[1]!) } : {}),
    });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Words that end a name: what stands between a percentage and a name is not a product. */
const NOT_IN_NAME = /[用施喷的时上下田块率达为是在有约即每亩或和加兑对]/;

/**
 * Whether a name read between a concentration and a formulation is an ingredient (or a mixture):
 * every part known to the dictionary or as an abbreviation; with a formulation after it, an unknown
 * part may stand if it is short and holds no word of a sentence.
 */
function knownName(name: string, formulation: boolean, dictionary: Dictionary): boolean {
  return name
    .split(/\s*[·・.-]\s*/)
    .filter(Boolean)
    .every((part) => {
      if (ALIASES[part]) return true;
      const hits = dictionary.scanFolded(part).filter((h) => h.entry.kind === 'pesticide');
      if (hits.length === 1 && hits[0]!.start === 0 && hits[0]!.end === part.length) return true;
      return formulation && part.length <= 8 && !NOT_IN_NAME.test(part) && hits.every((h) => h.start === 0);
    });
}

const WIDE = /[０-９％．～／（）：，；＋]/g;
const NARROW: Readonly<Record<string, string>> = {
  '％': '%',
  '．': '.',
  '～': '~',
  '／': '/',
  '（': '(',
  '）': ')',
  '：': ':',
  '，': ',',
  '；': ';',
  '＋': '+',
};

/**
 * The text as the dose reader reads it, offset for offset: simplified script, Latin in lower case
 * (`fold`), full-width digits and signs as ASCII.
 */
export function foldForDoses(folded: string): string {
  return folded.replace(WIDE, (c) => NARROW[c] ?? String.fromCharCode(c.charCodeAt(0) - 0xfee0));
}
