/**
 * The words that tell a forecast states one of the parts the 2021 forecast rules require
 * (农业农村部令2021年第6号《农作物病虫害监测与预报管理办法》): the pest or disease, the time, the
 * area, the severity, and the lines that name the issuing body. The text read here is already
 * folded to simplified script and Latin lower case (dictionary.ts `fold`). Pure.
 */
import { escapeRegExp } from '../text/regExp';
import { DISEASES, PESTS } from './pests';

/** The front matter `type:` values of a forecast (folded): the rules' 预报, 病虫情报 and 警报. */
export const FORECAST_TYPES: readonly string[] = ['forecast', '预报', '病虫情报', '警报'];

/** A pest or disease of the vocabulary (pests.ts), longest name first. */
export const PEST = new RegExp(
  [...PESTS, ...DISEASES]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join('|'),
);

const DIGIT = '[0-9０-９]';
const RANGE = '(?:至|到|—|–|-|~|～)';

/**
 * A date with its year (`2026年8月5日`, `2026-08-05`) is the issue's or a survey's, not the time a
 * forecast gives; it is taken out before {@link TIME} is read. One that opens a range
 * (`2026年8月10日至15日`) is the forecast's time and stays.
 */
export const DATED = new RegExp(
  `${DIGIT}{4}\\s*(?:年\\s*${DIGIT}{1,2}\\s*月\\s*${DIGIT}{1,2}\\s*[日号]|[-/.]\\s*${DIGIT}{1,2}\\s*[-/.]\\s*${DIGIT}{1,2})(?!\\s*${RANGE})`,
  'g',
);

/**
 * The time a forecast gives: a month (`8月`, `八月`, and with it `8月中旬`, `8月10日`, `7—8月`), a
 * part of one (`中下旬`), a day with its span (`10日至15日`, `10-15日`, `10日前后`), or the days
 * ahead (`未来10天`, `未来一周`).
 */
export const TIME = new RegExp(
  [
    `(?:${DIGIT}{1,2}|十[一二]?|[一二三四五六七八九])\\s*月`,
    '[上中下]旬',
    `${DIGIT}{1,2}\\s*[日号]?\\s*${RANGE}\\s*${DIGIT}{1,2}\\s*[日号]`,
    `${DIGIT}{1,2}\\s*[日号]\\s*(?:前后|左右|以前|以后|之前|之后)`,
    `未来\\s*(?:${DIGIT}+|[一二三四五六七八九十两]+)\\s*(?:天|日|周|旬|个月)`,
  ].join('|'),
);

/** Two characters ending in a place's suffix that are ordinary words (城市, 上市, 节省, 城乡, 小区). */
const NOT_PLACES = new Set([
  '城市',
  '超市',
  '上市',
  '菜市',
  '集市',
  '门市',
  '都市',
  '股市',
  '夜市',
  '开市',
  '闹市',
  '黑市',
  '小区',
  '误区',
  '禁区',
  '城乡',
  '家乡',
  '下乡',
  '老乡',
  '故乡',
  '节省',
  '反省',
  '工省',
  '力省',
  '时省',
]);

/**
 * The area a forecast covers: the whole of an administrative area (`全市`, `全县`, `全省`), each of
 * them (`各县`, `各乡镇`), a region (`单季稻区`, `沿江稻区`, `山区`, `流域`), or a named place: a
 * character before a place's suffix (省, 市, 县, 区, 乡, 镇, 街道) that is not an ordinary word
 * ({@link NOT_PLACES}) nor followed by one (市场, 区别, 县级, 省工).
 */
export const AREA_WORD = new RegExp(
  [
    '全(?:国|省|市|县|区|镇|乡|州|盟|旗)',
    '各(?:省|市|县|区|乡镇|乡|镇|地)',
    '稻区|麦区|棉区|茶区|果区|菜区|产区|种植区|发生区|地区|区域|山区|丘陵|平原|沿江|沿海|沿淮|沿湖|流域|盆地|库区',
  ].join('|'),
);
const PLACE = /(\p{Script=Han})(省|市|县|区|乡|镇|街道)(?![场民值面别分间级压定土工时力钱事心])/gu;

/** Whether `text` names an area ({@link AREA_WORD}, or a place's name). */
export function namesArea(text: string): boolean {
  if (AREA_WORD.test(text)) return true;
  PLACE.lastIndex = 0;
  for (let m = PLACE.exec(text); m; m = PLACE.exec(text)) if (!NOT_PLACES.has(m[1]! + m[2]!)) return true;
  return false;
}

/**
 * The severity a forecast gives: a level (`3级`, `2—3级`; not a wind's, `风力3～4级`, `5级以上大风`, nor
 * a part of a larger number, `13级`) or
 * the words for one, 轻发生 (1), 偏轻 (2), 中等 (3), 偏重 (4), 大发生 (5), often with 局部 before
 * them (`中等发生，局部偏重`); a disease's 大流行 and 轻度流行 as well.
 */
export const SEVERITY = new RegExp(
  [
    `(?<!风力?\\s*)(?<!${DIGIT}\\s*${RANGE}?\\s*)[1-5１-５]\\s*(?:${RANGE}\\s*[1-5１-５]\\s*)?级(?!\\s*(?:以上|以下)?\\s*(?:大风|阵风|风))`,
    '轻发生|偏轻|中等|偏重|大发生|大流行|轻度流行',
  ].join('|'),
);

/** A Markdown line's own text: list, quote, heading and table marks and emphasis taken away. */
export function lineText(line: string): string {
  return line.replace(/[*_`]/g, '').replace(/^[\s>#|+-]*/, '');
}

/** A line that names the issuing body: `发布单位：…` (or 发布机构), with something after it. */
export const ISSUER_LINE = /^发布(?:单位|机构)\s*[：:|]\s*[^\s|]/;

/**
 * A line of the masthead or the closing block (发布单位, 发布日期, 签发, 印发, 抄送, 主送): its dates and
 * places are the issue's and its readers', not the forecast's time and area.
 */
export const CLOSING_LINE = /^(?:发布(?:单位|机构|日期|时间)|签发|印发|抄送|主送)/;
