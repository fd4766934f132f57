import assert from 'node:assert/strict';
import fc from 'fast-check';
import { runs } from '../fast-check-seed';
import { analyze } from '../../../src/citations/analyze';
import { LineIndex, inlineMapper, isBlankLine } from '../../../src/citations/positions';
import { anyText, bulletin } from './helpers';

/** The lines of a text as a reader counts them: split at CR LF, CR or LF, each with its start and end offsets. */
function linesOf(text: string): { start: number; end: number }[] {
  const lines: { start: number; end: number }[] = [];
  let start = 0;
  for (const m of text.matchAll(/\r\n|\r|\n/g)) {
    lines.push({ start, end: m.index });
    start = m.index + m[0].length;
  }
  lines.push({ start, end: text.length });
  return lines;
}

/** Every character of every inline token's content is the character at its mapped offset (CR LF is read as space LF, a NUL as U+FFFD). */
function assertMapsBack(text: string): void {
  const a = analyze(text);
  for (const b of a.blocks) {
    if (b.kind !== 'inline') continue;
    const content = b.content!;
    const map = inlineMapper(a.lines, content, b.where!);
    for (let p = 0; p < content.length; p++) {
      const c = content[p]!;
      // a line break, or the blanks opening a line (markdown-it may write a tab there as spaces)
      if (c === '\n' || /(?:^|\n)[ \t]*$/.test(content.slice(0, p + 1))) continue;
      const at = map(p);
      const what = `${JSON.stringify(text)}: ${JSON.stringify(content)}[${p}] at ${at}`;
      assert.ok(text[at] === c || (c === ' ' && text[at] === '\r') || (c === '\ufffd' && text[at] === '\0'), what);
      if (p > 0 && content[p - 1] !== '\n') assert.ok(at > map(p - 1), `${what}: after the one before`);
    }
    // the end of the text (where a citation ending it ends) is just after its last character
    if (content !== '' && !content.endsWith('\n'))
      assert.equal(
        map(content.length),
        map(content.length - 1) + 1,
        `${JSON.stringify(text)}: ${JSON.stringify(content)}`,
      );
  }
}

/** The mapper of each inline block of `text` (paragraphs, headings, table cells). */
function inlineMaps(text: string): ((p: number) => number)[] {
  const a = analyze(text);
  return a.blocks.filter((b) => b.kind === 'inline').map((b) => inlineMapper(a.lines, b.content!, b.where!));
}

describe('citations/positions', () => {
  it('a blank line holds nothing but spaces and tabs; an ideographic or no-break space is text', () => {
    for (const s of ['', ' ', '\t', '  \t ', ' \r']) assert.equal(isBlankLine(s), true, JSON.stringify(s));
    for (const s of ['\u3000', '\u00a0', ' a', 'a ', '\u2028', '>'])
      assert.equal(isBlankLine(s), false, JSON.stringify(s));
  });

  it('property: lines end at CR LF, CR or LF, and every offset and position converts both ways', () => {
    const text = fc.oneof(
      anyText,
      fc.array(fc.constantFrom('a', '茶', ' ', '\n', '\r', '\r\n'), { maxLength: 20 }).map((a) => a.join('')),
    );
    fc.assert(
      fc.property(text, (t) => {
        const want = linesOf(t);
        const li = new LineIndex(t);
        assert.equal(li.lineCount, want.length);
        assert.deepEqual(
          li.starts,
          want.map((l) => l.start),
        );
        want.forEach((l, n) => {
          assert.equal(li.lineStart(n), l.start);
          assert.equal(li.lineEnd(n), l.end);
          assert.equal(li.lineText(n), t.slice(l.start, l.end));
          // a character past the line's end stays on it; one before its start is its start
          assert.equal(li.offsetAt({ line: n, character: l.end - l.start + 5 }), l.end);
          assert.equal(li.offsetAt({ line: n, character: -1 }), l.start);
        });
        // a line out of range is the nearest one
        assert.equal(li.lineStart(-1), 0);
        assert.equal(li.lineStart(want.length), want.at(-1)!.start);
        assert.equal(li.lineEnd(want.length), t.length);
        for (let o = 0; o <= t.length; o++) {
          let line = want.length - 1;
          while (want[line]!.start > o) line--;
          assert.equal(li.lineAt(o), line, `${JSON.stringify(t)} at ${o}`);
          const p = li.positionAt(o);
          assert.deepEqual(p, { line, character: o - want[line]!.start });
          if (o <= want[line]!.end) assert.equal(li.offsetAt(p), o);
        }
        const s = Math.floor(t.length / 3);
        const r = li.range(s, t.length);
        const [a, b] = [li.positionAt(s), li.positionAt(t.length)];
        assert.deepEqual(r, {
          start: s,
          end: t.length,
          line: a.line,
          character: a.character,
          endLine: b.line,
          endCharacter: b.character,
        });
      }),
      { numRuns: runs(300) },
    );
  });

  it('maps each character of a paragraph, heading or table cell back to the document, in quotes, lists and CR LF text too', () => {
    for (const text of [
      '甲一\n  乙二  \n丙三   \n',
      '> 甲一\n> 乙二\n>丙三\n',
      '> > 甲\n> > 乙\n',
      '- 甲一\n  乙二\n\n  丙三\n',
      '1. 甲\n   乙\n',
      '[^a]: 甲一\n    乙二\n',
      '甲一\r\n乙二\r\n\r\n丙三\r\n',
      '甲一\r乙二\r',
      '# 标题\n## 标题 ##\n###   #标签#   ###\n# # #\n#\t制表\n',
      '  ## 缩进\r\n',
      '标题\n===\n',
      '| 作物 | 建议 |\n| --- | --- |\n| 茶 | 修剪 |\n',
      '作物 | 建议\n--- | ---\n茶 | 修剪\n',
      '| a \\| b | c\\\\|d |\n| --- | --- |\n| \\|x\\| |  |\n',
      '> | 作物 | 建议 |\n> | --- | --- |\n> | 茶 | 修剪 |\n',
      '|  茶  |修剪|\r\n|---|---|\r\n|  a  |b|\r\n',
      '| a |\n| - |\n| b | c |\n',
      '* a | b\n  --- | ---\n  c | d\n',
      '- | a | b |\n  | - | - |\n  | c | d |\n',
      '> - | a | b |\n>   | - | - |\n',
      // a table in a nested quote, an indented one, one with no blank after its `>`, one with no outer pipes
      '> > | 作物 | 建议 |\n> > | --- | --- |\n> > | 茶 | 修剪 |\n',
      ' > | 作物 | 建议 |\n > | --- | --- |\n > | 茶 | 修剪 |\n',
      '>| 作物 | 建议 |\n>| --- | --- |\n>| 茶 | 修剪 |\n',
      '>作物 | 建议\n>--- | ---\n>茶 | 修剪\n',
      '| a |\n| - |\n|\n',
      ' | 作物 | 建议 |\n | --- | --- |\n | 茶 | 修剪 |\n',
      // rows opened by an ideographic space (no cell text), with empty cells, with fewer cells than the header
      '\u3000| 作物 | 建议 |\n| --- | --- |\n\u3000| 茶 | 修剪 |\n',
      '| 作物 | 建议 | 备注 |\n| --- | --- | --- |\n|| 修剪 ||\n| 茶 |\n',
      // an ideographic space ending a paragraph is content (trimEnd() would take it)
      '甲一\n乙二\u3000\n',
      '> 甲\u3000\n',
      // a NUL (read as U+FFFD), also before blanks or an ideographic space ending a line; a tab in a continuation line's indentation
      '甲\0  \n乙\0\u3000\n',
      '> 甲\0\u3000\n',
      '# 甲\0 #\n',
      '| a\0 | b |\n| - | - |\n| \0 | c\0 |\n',
      '- 甲\n \t乙\u3000\n',
    ])
      assertMapsBack(text);
  });

  it('maps a character to its own place, not to an equal one in the marker before it, whatever the line breaks', () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      const text = `1. 1${eol}   2${eol}`;
      const a = analyze(text);
      const [b] = a.blocks.filter((x) => x.kind === 'inline');
      const map = inlineMapper(a.lines, b!.content!, b!.where!);
      assert.deepEqual(
        [map(0), map(b!.content!.indexOf('2'))],
        [text.indexOf(' 1') + 1, text.indexOf('2')],
        JSON.stringify(text),
      );
    }
  });

  it("maps a heading's text to its place after the # marks, though a list, quote or footnote marker before them holds the same text", () => {
    for (const [text, before] of [
      ['1. # 1\n', '1. # '],
      ['> # >\n', '> # '],
      ['[^1]: # [^1]\r\n', '[^1]: # '],
      ['> 1. ## 1. ##\n', '> 1. ## '],
      // the text before a closing run is the heading's, a `#` too; an ideographic space ends no run
      ['# # #\n', '# '],
      ['> 1. ## 1. ##  \r\n', '> 1. ## '],
      ['# # #\u3000\n', '# '],
      // an empty heading's place is after its opening run
      ['> ##\n', '> ##'],
      ['> ## ##\n', '> ##'],
      ['  ## \n', '  ##'],
    ]) {
      const [map] = inlineMaps(text);
      assert.equal(map!(0), before.length, JSON.stringify(text));
    }
  });

  it('property: maps each character of every paragraph, heading or table cell of a bulletin back to the document', () => {
    fc.assert(fc.property(bulletin, assertMapsBack), { numRuns: runs(300) });
  });
});
