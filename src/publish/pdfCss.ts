/**
 * The style sheets of the page a PDF is printed from (`pdfPage.ts`): CSS page rules for A4, the
 * margins and the page numbers (margin boxes, which Chromium prints from version 131), tables whose
 * rows do not split across pages, pictures fitted to the text block. The official layout's numbers
 * are GB/T 9704-2012's, as `layout.ts` and the Word export use them. Pure.
 */
import { PREVIEW_CLASSES } from '../citations/index';
import type { FontKey, LayoutFonts } from './layout';

/** What any machine may have in place of the standard's fonts, by part, before the generic family. */
const FALLBACKS: Readonly<Record<FontKey, readonly string[]>> = {
  fangsong: ['FangSong', 'STFangsong', 'Noto Serif CJK SC', 'Source Han Serif SC', 'Noto Serif SC', 'AR PL UMing CN'],
  xiaobiaosong: ['STZhongsong', 'Noto Serif CJK SC', 'Source Han Serif SC', 'SimSun', 'Songti SC'],
  heiti: ['SimHei', 'Heiti SC', 'STHeiti', 'Noto Sans CJK SC', 'Source Han Sans SC', 'WenQuanYi Micro Hei'],
  kaiti: ['KaiTi', 'STKaiti', 'Kaiti SC', 'AR PL UKai CN', 'Noto Serif CJK SC'],
  songti: ['SimSun', 'Songti SC', 'STSong', 'Noto Serif CJK SC', 'Source Han Serif SC'],
};

const GENERIC: Readonly<Record<FontKey, string>> = {
  fangsong: 'serif',
  xiaobiaosong: 'serif',
  heiti: 'sans-serif',
  kaiti: 'serif',
  songti: 'serif',
};

/** A font name as a CSS string: quotes and backslashes escaped, no line break, no `<` that could end the style element. */
export function cssString(name: string): string {
  return `"${name
    .replace(/[\\"]/g, '\\$&')
    .replace(/[\r\n\f]/g, ' ')
    .replace(/</g, '\\3c ')}"`;
}

/** The font stack of a part: the layout's font, what stands in for it, then what machines have. */
export function fontStack(fonts: LayoutFonts, part: FontKey): string {
  const f = fonts[part];
  const names = [...new Set([f.name, ...(f.altName ? [f.altName] : []), ...FALLBACKS[part]])];
  return [...names.map(cssString), GENERIC[part]].join(', ');
}

/** Chinese and Latin faces of the standard layout, as the HTML export's page. */
const SANS =
  '-apple-system, "Segoe UI", "PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Micro Hei", sans-serif';

/** What both layouts share. */
const COMMON = `
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 0; }
img { display: block; max-width: 100%; max-height: 220mm; object-fit: contain; margin: .5em auto; break-inside: avoid; }
table { border-collapse: collapse; margin: .6em 0; max-width: 100%; }
thead { display: table-header-group; }
tr, img, pre { break-inside: avoid; }
h1, h2, h3, h4, h5, h6 { break-after: avoid; break-inside: avoid; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; }
code { font-family: Menlo, Consolas, "DejaVu Sans Mono", "Courier New", monospace; }
a { color: inherit; text-decoration: none; }
sup.ref { line-height: 0; font-size: .7em; }
.glued { white-space: nowrap; }
sup.ref a { color: #1b5e20; }
.notes ol { list-style: none; padding: 0; margin: 0; }
.notes li { margin: .2em 0; overflow-wrap: anywhere; }
.notes a.back { color: #1b5e20; }
.remote-picture { display: block; margin: .5em 0; padding: .4em .8em; border: 1px dashed #999; color: #555; overflow-wrap: anywhere; }
.${PREVIEW_CLASSES.undefined}, .${PREVIEW_CLASSES.malformed} { color: #c62828; }
`;

/** The standard layout: A4 with margins of 20 mm and more, our colours, a centred page number. */
export function standardCss(): string {
  return `
@page { size: A4; margin: 20mm 20mm 22mm;
  @bottom-center { content: counter(page); font: 10pt ${SANS}; color: #555; } }
${COMMON}
body { color: #222; font: 11pt/1.7 ${SANS}; }
h1, h2, h3, h4 { line-height: 1.35; color: #1b5e20; }
.doc-title { font-size: 20pt; margin: 0 0 .2em; }
.doc-date { color: #616161; margin: 0 0 1.2em; }
th, td { border: 1px solid #ccc; padding: .3em .6em; }
th { background: #e8f5e9; }
pre { background: #f6f8fa; padding: .8em; font-size: 9pt; }
blockquote { margin: 1em 0; padding: .3em 1em; border-left: 4px solid #a5d6a7; background: #f1f8e9; color: #555; }
.notes { margin-top: 2em; border-top: 1px solid #ddd; font-size: 9.5pt; color: #444; }
.notes-heading { font-size: 12pt; }
`;
}

/** The text block of GB/T 9704-2012 (5.2.2): 156 × 225 mm, 22 lines of 28 characters. */
const LINE = 'calc(225mm / 22)';

/**
 * The official layout (GB/T 9704-2012): its margins, fonts and sizes, `— 1 —` right on odd pages,
 * left on even. The closing block is alone on the last page (the named page `closing`, without a
 * number), at the foot of a box the text block's height. `break-before: left` asks for an even page;
 * Chromium (156) takes it as a plain page break and leaves no page blank, so the closing page is the
 * one after the body's last, odd or even.
 */
export function officialCss(fonts: LayoutFonts): string {
  const stack = (part: FontKey): string => fontStack(fonts, part);
  // 4号 (14 pt) 宋体, 7 mm below the text block, one character in from the outer edge (7.5)
  const pageNumber = `content: "— " counter(page) " —"; font: 14pt/1 ${stack('songti')}; vertical-align: top; padding-top: 2mm;`;
  return `
@page { size: A4; margin: 37mm 26mm 35mm 28mm; }
@page :right { @bottom-right { ${pageNumber} margin-right: 14pt; } }
@page :left { @bottom-left { ${pageNumber} margin-left: 14pt; } }
@page closing { @bottom-left { content: none; } @bottom-right { content: none; } }
${COMMON}
body { color: #000; font-family: ${stack('fangsong')}; font-size: 16pt; line-height: ${LINE};
  letter-spacing: calc(156mm / 28 - 16pt); text-align: justify; }
p { margin: 0; text-indent: 2em; }
h1, h2, h3, h4, h5, h6 { margin: 0; font-size: 16pt; font-weight: normal; text-indent: 2em; line-height: ${LINE}; }
.f-heiti, h1 { font-family: ${stack('heiti')}; }
.f-kaiti { font-family: ${stack('kaiti')}; }
.f-fangsong { font-family: ${stack('fangsong')}; }
.f-xiaobiaosong { font-family: ${stack('xiaobiaosong')}; }
.masthead { border-bottom: 1.5pt solid #f00; padding-bottom: 4mm; }
.mh-name { color: #f00; font-size: 36pt; line-height: 1.2; text-align: center; margin-top: 35mm; letter-spacing: 0; }
.mh-issue { text-align: center; margin-top: calc(2 * ${LINE}); }
.mh-line { display: flex; justify-content: space-between; }
h1.doc-title { font-size: 22pt; line-height: 1.5; text-align: center; text-indent: 0; letter-spacing: 0; margin: ${LINE} 0 0; }
h1.doc-title.below-masthead { margin-top: calc(2 * ${LINE}); }
.recipient { text-indent: 0; }
blockquote { margin: 0; padding-left: 2em; }
ul, ol { margin: 0; padding-left: 4em; }
li p { text-indent: 0; }
th, td { border: .5pt solid #000; padding: 0 .3em; text-indent: 0; }
pre { font-size: 12pt; line-height: 1.4; letter-spacing: 0; }
.attachments { margin-top: ${LINE}; }
.attachments .more { padding-left: 5em; text-indent: 0; }
.signature { margin-top: calc(2 * ${LINE}); text-align: right; padding-right: 4em; }
.signature p { text-indent: 0; }
.notes { margin-top: ${LINE}; font-size: 12pt; line-height: 1.5; letter-spacing: 0; }
.notes-heading { text-indent: 0; font-family: ${stack('heiti')}; }
.closing-page { page: closing; break-before: left; height: 225mm; display: flex; flex-direction: column; justify-content: flex-end; }
.closing { font-size: 14pt; border-top: .35mm solid #000; border-bottom: .35mm solid #000; break-inside: avoid; }
.closing p { text-indent: 0; padding: 0 1em; }
.closing p + p { border-top: .25mm solid #000; }
.closing .printed { display: flex; justify-content: space-between; }
`;
}
