/** Shared generators and helpers for the citation tests (the alphabets they draw from: ../hostile.ts). */
import fc from 'fast-check';
import { analyzeDocument, type DocumentModel } from '../../../src/citations';
import { textOf } from '../../support/renderers';
import { ending, fencedCode, frontMatter, hostileLine, hostilePiece, withEnding } from '../hostile';

/** Text made of characters that matter to Markdown, HTML and our format. */
export const trickyChar = fc.constantFrom(
  'a',
  'b',
  '茶',
  '树',
  ' ',
  ' ',
  '#',
  '[',
  ']',
  '^',
  '\\',
  '`',
  '*',
  '_',
  '<',
  '>',
  '&',
  '|',
  '(',
  ')',
  '!',
  '-',
  '+',
  '=',
  '~',
  ':',
  '.',
  '1',
  '7',
  '〔',
  '〕',
  '—',
  '\t',
  '\u3000',
  '"',
);
export const trickyText = fc
  .array(fc.oneof({ weight: 3, arbitrary: trickyChar }, { weight: 1, arbitrary: hostilePiece }), { maxLength: 24 })
  .map((a) => a.join(''));
/** Any string, newlines included. */
export const anyText = fc.oneof(
  trickyText,
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.array(fc.oneof(trickyChar, fc.constantFrom('\n', '\r\n', '\r')), { maxLength: 30 }).map((a) => a.join('')),
);

/** Building blocks of generated bulletins (each is one or more whole lines, without final line break). */
export const fragment = fc.oneof(
  fc.constantFrom(
    '# 茶园管理周报',
    '茶园春季管理要点。',
    '作者的注释[^note]。',
    '[^note]: 作者自己的注释，不要动。',
    '[^7]: 作者自己的第七条。\n    续行。',
    'Use `[^1]` in code, and `〔a.docx#1〕` too.',
    '    [^3] indented code',
    '<div>\n[^4] html block\n</div>',
    '| 作物 | 建议 |\n| --- | --- |\n| 茶 | 修剪 |',
    '- | 作物 | 建议 |\n  | --- | --- |\n  | 茶 | 修剪 |',
    '> 引用一段话。',
    '- 列表项一\n- 列表项二',
    '1. 第一步\n2. 第二步',
    '[link](http://example.com/a_b) and <http://x.y/z>',
    'Some *emphasis* and **strong** &amp; entity.',
    '---',
    'Setext\n===',
    '',
    '详见 https://www.agri.gov.cn/notice 和 www.agri.gov.cn/x，或写信 a@b.cn。',
    '「引号」《书名》【注】（括号）：\u202e反转\u202c \u2067隔离\u2069。',
  ),
  fencedCode,
  trickyText,
  hostileLine,
);

/**
 * A bulletin: front matter sometimes, fragments separated by blank lines (sometimes not), LF or
 * CRLF, with or without a final line break.
 */
export const bulletin = fc
  .tuple(
    fc.option(frontMatter, { nil: undefined }),
    fc.array(fragment, { maxLength: 12 }),
    fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
    ending,
  )
  .map(([fm, parts, tight, e]) => {
    let s = fm !== undefined ? `${fm}\n` : '';
    parts.forEach((p, i) => {
      s += p + (tight[i] ? '\n' : '\n\n');
    });
    return withEnding(s, e);
  });

/** A source to cite. */
export const source = fc.record({
  docName: anyText.filter((s) => s.trim() !== ''),
  chunkIndex: fc.nat({ max: 100000 }),
  kbName: anyText,
  kbCode: anyText,
});

/** What a doc name / kb text reads as after formatting (line breaks and tabs become spaces). */
export function flat(s: string): string {
  return s.replace(/\r\n|[\r\n\t\v\f\u2028\u2029]/g, ' ');
}

/** The document with our citations cut out: our references read `[^#]`, our definition lines are dropped. */
export function skeleton(text: string, model: DocumentModel = analyzeDocument(text)): string {
  const cuts: { start: number; end: number; newText: string }[] = [];
  for (const r of model.references) if (r.ours) cuts.push({ start: r.range.start, end: r.range.end, newText: '[^#]' });
  for (const d of model.definitions) cuts.push({ start: d.range.start, end: d.range.end, newText: '' });
  cuts.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const c of cuts) {
    out += text.slice(at, c.start) + c.newText;
    at = c.end;
  }
  return out + text.slice(at);
}

/** The links in rendered HTML other than footnote references and back links, as `attributes text`. */
export function outsideLinks(html: string): string[] {
  return [...html.matchAll(/<a ([^>]*)>([\s\S]*?)<\/a>/g)]
    .filter((m) => !/href="#(?:user-content-)?fn/.test(m[1]!))
    .map((m) => `${m[1]} ${textOf(m[2]!)}`);
}
