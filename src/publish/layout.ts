/**
 * The official document layout (GB/T 9704-2012 《党政机关公文格式》) as a model, computed once from a
 * bulletin read for publishing and its front matter's fields: the page, the fonts, the masthead,
 * the title, the recipient line, the heading numbers, the attachments, the signature and the
 * closing block. A writer renders it (`docxOfficial.ts` for Word). A part whose field is absent is
 * left out, never written as a placeholder. Pure.
 */
import { readDate } from '../bulletin/date';
import type { FrontMatter } from '../bulletin/frontMatter';
import { bodyBelowTitle, plainOf, type Block, type PublishDocument } from './model';

/** Twips (1/20 pt) in a millimetre. */
const TWIPS_PER_MM = 1440 / 25.4;
export const mmToTwips = (mm: number): number => Math.round(mm * TWIPS_PER_MM);

/** A4, in twips (GB/T 9704-2012 5.2.1). */
const PAGE = { width: 11906, height: 16838 };
/** Margins in mm (5.2.2): top 37, left 28; a 156 × 225 mm text block leaves right 26, bottom 35. */
const MARGINS_MM = { top: 37, left: 28, right: 26, bottom: 35 };
/** Lines on a page and characters on a line (5.2.2). */
const LINES = 22;
const CHARS = 28;
/** The body's size in points: 3号 (5.2.3). */
const BODY_PT = 16;

/** A font the layout names, and what Word or WPS may put in its place where it is not installed. */
export interface LayoutFont {
  name: string;
  /** `w:altName`: the font of current systems with the same look; absent when it is the font itself. */
  altName?: string;
  /** The font's character set as `w:charset` writes it: "86" is GB2312. */
  charset: '86';
  family: 'roman' | 'swiss' | 'modern';
}

/** The standard's fonts (5.2.3, 7.2.3, 7.3.3, 7.5). */
export const FONTS = {
  /** 仿宋: the body, `1.` and `（1）` headings, the closing block. */
  fangsong: { name: '仿宋_GB2312', altName: '仿宋', charset: '86', family: 'modern' },
  /** 小标宋: the title and the masthead. */
  xiaobiaosong: { name: '方正小标宋简体', altName: '华文中宋', charset: '86', family: 'roman' },
  /** 黑体: `一、` headings. */
  heiti: { name: '黑体', altName: 'SimHei', charset: '86', family: 'modern' },
  /** 楷体: `（一）` headings and the signer's name. */
  kaiti: { name: '楷体_GB2312', altName: '楷体', charset: '86', family: 'modern' },
  /** 宋体: page numbers. */
  songti: { name: '宋体', altName: 'SimSun', charset: '86', family: 'roman' },
} as const satisfies Record<string, LayoutFont>;

export type FontKey = keyof typeof FONTS;

/** The fonts a layout writes, by their part. */
export type LayoutFonts = Readonly<Record<FontKey, LayoutFont>>;

/**
 * A station's own fonts in place of the standard's (`export.officialFonts`): `body` for 仿宋,
 * `title` for 小标宋, `heading` for 黑体, `subheading` for 楷体. An absent or blank key keeps the
 * standard's font.
 */
export interface StationFonts {
  body?: string;
  title?: string;
  heading?: string;
  subheading?: string;
}

/** Which of the standard's fonts each key of {@link StationFonts} replaces. */
const STATION_FONT_KEYS = {
  body: 'fangsong',
  title: 'xiaobiaosong',
  heading: 'heiti',
  subheading: 'kaiti',
} as const satisfies Record<keyof StationFonts, FontKey>;

/**
 * The fonts of the layout: the standard's, each replaced by the station's where it names one. A
 * station's font keeps the standard's stand-in as its `w:altName` (unless it is that font).
 */
export function layoutFonts(station: StationFonts = {}): LayoutFonts {
  const fonts: Record<FontKey, LayoutFont> = { ...FONTS };
  for (const [key, part] of Object.entries(STATION_FONT_KEYS) as [keyof StationFonts, FontKey][]) {
    const name = station[key]?.trim();
    if (!name || name === FONTS[part].name) continue;
    const { altName, ...rest } = FONTS[part];
    fonts[part] = { ...rest, name, ...(altName !== name ? { altName } : {}) };
  }
  return fonts;
}

/** The page setup, in twips. */
export interface PageSetup {
  width: number;
  height: number;
  margins: { top: number; right: number; bottom: number; left: number };
  /** The fixed distance from line to line: the text block's height over 22 lines. */
  linePitch: number;
  /** The width of a character on the document grid: the text block's width over 28 characters. */
  charPitch: number;
  lines: number;
  chars: number;
  /** The body's size in half-points. */
  bodySize: number;
  /** The first-line indent of a paragraph: two characters. */
  firstLineChars: 2;
}

/** The masthead (版头): a bulletin's (name, issue, issuer and date) or an upward report's (name, number, signer). */
export interface Masthead {
  form: 'bulletin' | 'upward';
  /** The issuing body's mark or the bulletin's name (`masthead:`, else `issuer:`), red, centred. */
  name?: string;
  /** The issue or document number (`issue:`): centred in a bulletin, left in an upward report. */
  issue?: string;
  /** Bulletin form: the issuing body (`issuer:`) at the left of the line above the red rule. */
  issuer?: string;
  /** Bulletin form: the date (`date:`) at the right of that line. */
  date?: string;
  /** Upward form: the signer's name (`signer:`), after 签发人：. */
  signer?: string;
}

/** The closing block (版记). */
export interface Closing {
  /** `cc:`, a list or split at commas. */
  cc?: string[];
  /** `printed_by:`: the printing body. */
  printedBy?: string;
  /** `printed_on:`, as 2026年10月12日. */
  printedOn?: string;
}

/** A heading's number in the official layout, and the font of its level. */
export interface HeadingNumber {
  /** What goes before the heading's text: `一、`, `（一）`, `1.`, `（1）`, or '' (it has one already, or none). */
  prefix: string;
  font: FontKey;
}

/** The official layout of one bulletin. */
export interface OfficialLayout {
  page: PageSetup;
  /** The fonts: the standard's, or the station's in their place. */
  fonts: LayoutFonts;
  masthead?: Masthead;
  title?: string;
  /** `to:`, ending with a full-width colon. */
  recipient?: string;
  /** The numbers of the body's headings, by the heading block. */
  headings: ReadonlyMap<Block, HeadingNumber>;
  /** `attachments:`, a list or split at commas or semicolons. */
  attachments?: string[];
  /** The issuer and date at the end of the body. */
  signature?: { issuer?: string; date?: string };
  closing?: Closing;
}

/** What the layout reads besides the document. */
export interface LayoutInput {
  /**
   * The front matter's fields and lists (`frontMatter(text)`). `cc:`, `attachments:` and
   * `unnumbered:` may each be a YAML list or one line of items between commas.
   */
  frontMatter: Pick<FrontMatter, 'fields' | 'lists'>;
  /** The station's fonts in place of the standard's. */
  fonts?: StationFonts;
}

/** The page setup of GB/T 9704-2012, in twips. */
export function officialPage(): PageSetup {
  const margins = {
    top: mmToTwips(MARGINS_MM.top),
    right: mmToTwips(MARGINS_MM.right),
    bottom: mmToTwips(MARGINS_MM.bottom),
    left: mmToTwips(MARGINS_MM.left),
  };
  const textHeight = PAGE.height - margins.top - margins.bottom;
  const textWidth = PAGE.width - margins.left - margins.right;
  return {
    ...PAGE,
    margins,
    linePitch: Math.floor(textHeight / LINES),
    charPitch: Math.floor(textWidth / CHARS),
    lines: LINES,
    chars: CHARS,
    bodySize: BODY_PT * 2,
    firstLineChars: 2,
  };
}

/** A date as the standard writes it: Arabic numerals, no leading zeros (`2026年10月12日`); text that is no date, as written. */
export function officialDate(value: string): string {
  const iso = readDate(value);
  if (!iso) return value.trim();
  const [y, m, d] = iso.split('-').map(Number);
  return `${y}年${m}月${d}日`;
}

/** A field's value, trimmed; undefined when absent or blank. */
function field(fields: Readonly<Record<string, string>>, key: string): string | undefined {
  const v = fields[key]?.trim();
  return v ? v : undefined;
}

/**
 * A list of the front matter: a YAML list, or one line split at full- or half-width commas,
 * enumeration commas or semicolons; undefined when it has no item.
 */
function listOf(fm: LayoutInput['frontMatter'], key: string): string[] | undefined {
  const items = (fm.lists[key] ?? fm.fields[key]?.split(/[，,、；;]/) ?? []).map((s) => s.trim()).filter(Boolean);
  return items.length ? items : undefined;
}

/** Drops the keys whose value is undefined (the model holds only what is there). */
type Present<T> = { [K in keyof T]?: Exclude<T[K], undefined> };
function present<T extends object>(o: T): Present<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Present<T>;
}

/** Computes the official layout of a bulletin. */
export function officialLayout(doc: PublishDocument, input: LayoutInput): OfficialLayout {
  const f = input.frontMatter.fields;
  const date = field(f, 'date') && officialDate(field(f, 'date')!);
  const issuer = field(f, 'issuer');
  const signer = field(f, 'signer');
  const masthead = present({
    form: signer ? ('upward' as const) : ('bulletin' as const),
    name: field(f, 'masthead') ?? issuer,
    issue: field(f, 'issue'),
    issuer: signer ? undefined : issuer,
    date: signer ? undefined : date,
    signer,
  });
  const recipient = field(f, 'to')?.replace(/[:：]$/, '');
  const signature = present({ issuer, date });
  const printedOn = field(f, 'printed_on');
  const closing: Closing = present({
    cc: listOf(input.frontMatter, 'cc'),
    printedBy: field(f, 'printed_by'),
    printedOn: printedOn && officialDate(printedOn),
  });
  const attachments = listOf(input.frontMatter, 'attachments');
  const unnumbered = [
    ...(listOf(input.frontMatter, 'unnumbered') ?? []),
    ...(doc.referencesHeading ? [doc.referencesHeading] : []),
  ];
  return {
    page: officialPage(),
    fonts: layoutFonts(input.fonts),
    // a masthead has a name, an issue or a signer; a date alone is the signature's
    ...(masthead.name || masthead.issue || masthead.signer ? { masthead: masthead as Masthead } : {}),
    ...(doc.title ? { title: doc.title } : {}),
    ...(recipient ? { recipient: `${recipient}：` } : {}),
    headings: headingNumbers(bodyBelowTitle(doc), unnumbered),
    ...(attachments ? { attachments } : {}),
    ...(Object.keys(signature).length ? { signature } : {}),
    ...(Object.keys(closing).length ? { closing } : {}),
  };
}

const CN_DIGITS = '零一二三四五六七八九';

/** 1 → 一, 10 → 十, 12 → 十二, 20 → 二十, 99 → 九十九; larger numbers in Arabic numerals. */
export function chineseNumber(n: number): string {
  if (n < 1 || n > 99) return String(n);
  const tens = Math.floor(n / 10);
  const ones = n % 10;
  return (tens > 1 ? CN_DIGITS[tens] : '') + (tens > 0 ? '十' : '') + (ones ? CN_DIGITS[ones] : '');
}

/** 一 → 1, 十二 → 12, 二十 → 20; NaN for what is no such number. */
function fromChinese(s: string): number {
  if (/^[一二三四五六七八九]$/.test(s)) return CN_DIGITS.indexOf(s);
  const m = /^([二三四五六七八九]?)十([一二三四五六七八九]?)$/.exec(s);
  if (!m) return NaN;
  return (m[1] ? CN_DIGITS.indexOf(m[1]) : 1) * 10 + (m[2] ? CN_DIGITS.indexOf(m[2]) : 0);
}

/** The levels numbered, from `##` (index 0) to `#####`: how a number is written, read back, and in which font. */
const LEVELS: { write(n: number): string; read: RegExp; value(m: string): number; font: FontKey }[] = [
  { write: (n) => `${chineseNumber(n)}、`, read: /^([一二三四五六七八九十]+)、/, value: fromChinese, font: 'heiti' },
  {
    write: (n) => `（${chineseNumber(n)}）`,
    read: /^[（(]([一二三四五六七八九十]+)[）)]/,
    value: fromChinese,
    font: 'kaiti',
  },
  { write: (n) => `${n}.`, read: /^(\d+)[.．]/, value: Number, font: 'fangsong' },
  { write: (n) => `（${n}）`, read: /^[（(](\d+)[）)]/, value: Number, font: 'fangsong' },
];

/**
 * The numbers of the headings `##` to `#####` of the body, in reading order: each level counts from
 * one under the heading above it. A heading that starts with its level's number keeps it, and the
 * count goes on from it; a heading named in `unnumbered` gets none and does not count. A `#`
 * heading, and one deeper than `#####`, is written as it is, in the body's font.
 */
function headingNumbers(blocks: readonly Block[], unnumbered: readonly string[]): Map<Block, HeadingNumber> {
  const out = new Map<Block, HeadingNumber>();
  const counts = [0, 0, 0, 0];
  const skip = new Set(unnumbered.map((h) => h.trim()));
  const visit = (bs: readonly Block[]): void => {
    for (const b of bs) {
      if (b.kind === 'quote') visit(b.blocks);
      if (b.kind !== 'heading') continue;
      const i = b.level - 2;
      const level = LEVELS[i];
      const text = plainOf(b.content).trim();
      if (!level || skip.has(text)) {
        out.set(b, { prefix: '', font: level?.font ?? 'fangsong' });
        continue;
      }
      const own = level.read.exec(text);
      const value = own ? level.value(own[1]!) : NaN;
      counts[i] = Number.isNaN(value) ? counts[i]! + 1 : value;
      counts.fill(0, i + 1);
      out.set(b, { prefix: own ? '' : level.write(counts[i]!), font: level.font });
    }
  };
  visit(blocks);
  return out;
}
