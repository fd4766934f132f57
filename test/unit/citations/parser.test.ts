import assert from 'node:assert/strict';
import {
  buildParser,
  normalizeForParser,
  original,
  parseBlocks,
  probeInline,
  recordingSpans,
  type ProbeSpan,
  type Token,
} from '../../../src/citations/parser';

// Each test builds its own parser: parseBlocks and probeInline build theirs once and keep it.

/** The block tokens of a document, as type and line map. */
function blocks(text: string): [string, number[] | null][] {
  return buildParser()
    .parse(text, {})
    .map((t) => [t.type, t.map]);
}

/** The inline children of a one-paragraph document. */
function children(text: string): Token[] {
  return buildParser()
    .parse(text, {})
    .find((t) => t.type === 'inline')!.children!;
}

/** The children as type and (for text) content, our tokens as their source span. */
function inline(text: string): string[] {
  return children(text).map((c) =>
    c.type === 'text'
      ? `text ${c.content}`
      : c.type === 'sn_ref' || c.type === 'sn_cite'
        ? `${c.type} ${text.slice((c.meta as { start: number }).start, (c.meta as { end: number }).end)}`
        : c.type,
  );
}

/** The spans the probing parser records in a content string. */
function spans(content: string): ProbeSpan[] {
  const env = { spans: [] as ProbeSpan[] };
  recordingSpans(buildParser()).parseInline(content, env);
  return env.spans;
}

describe('citations/parser', () => {
  it('front matter is a --- or +++ block on the first line, closed by the same fence (YAML also by ...)', () => {
    const fm = (text: string): number[] | null | undefined =>
      blocks(text).find(([type]) => type === 'front_matter')?.[1];
    assert.deepEqual(fm('---\ntitle: x\n---\n\n# 标题\n'), [0, 3]);
    assert.deepEqual(blocks('---\ntitle: x\n---\n# 标题\n')[1], ['heading_open', [3, 4]]);
    assert.deepEqual(fm('+++\ntitle = "x"\n+++\n'), [0, 3]);
    assert.deepEqual(fm('---\ntitle: x\n...\n'), [0, 3]);
    assert.deepEqual(fm('---  \na: 1\n\nb: 2\n---\t\n正文\n'), [0, 5], 'a blank line inside, blanks after the fences');
    assert.equal(buildParser().parse('+++\na\n+++\n', {})[0]!.markup, '+++');
    for (const none of [
      '+++\na = 1\n...\n',
      '---\na: 1\n',
      '\n---\na: 1\n---\n',
      '  ---\na: 1\n---\n',
      '> ---\n> a: 1\n> ---\n',
      '- ---\n  a: 1\n  ---\n',
      '正文\n\n---\na: 1\n---\n',
    ])
      assert.equal(fm(none), undefined, JSON.stringify(none));
  });

  it('raw HTML is HTML: a reference in an HTML block or tag is no reference', () => {
    assert.deepEqual(blocks('<div>\n[^1]\n</div>\n'), [['html_block', [0, 3]]]);
    assert.deepEqual(inline('a <b title="[^1]">x</b>'), ['text a ', 'html_inline', 'text x', 'html_inline']);
  });

  it('a bare URL is text (no linkify), so a reference written right after it is still read', () => {
    assert.deepEqual(inline('见 http://a.cn/x[^1]'), ['text 见 http://a.cn/x', 'sn_ref [^1]']);
  });

  it('text is read as written: no typographic quotes or replacements', () => {
    const text = '"引" \'x\' (c) (tm) a -- b --- c... +-';
    assert.deepEqual(inline(text), [`text ${text}`]);
  });

  it('a footnote definition stays where it is written, with its lines and where its `[^` is', () => {
    const text = '正文[^1]\n\n- [^a]: 注\n\n[^1]: a.docx#1 — k (K)\n';
    const tokens = buildParser().parse(text, {});
    const defs = tokens.filter((t) => t.type === 'footnote_reference_open');
    assert.deepEqual(
      defs.map((t) => [t.map, (t.meta as { label: string }).label, (t.meta as { start: number }).start]),
      [
        // (the list item's blank line after it is the definition's too)
        [[2, 4], 'a', text.indexOf('[^a]:')],
        [[4, 5], '1', text.indexOf('[^1]:')],
      ],
    );
    assert.ok(tokens.indexOf(defs[1]!) < tokens.length - 1, 'not moved into a footnote list at the end');
    assert.ok(!tokens.some((t) => t.type === 'footnote_block_open'));
  });

  it('a footnote definition or a table interrupts a paragraph', () => {
    assert.deepEqual(
      blocks('正文\n[^1]: 注\n').filter(([, map]) => map),
      [
        ['paragraph_open', [0, 1]],
        ['inline', [0, 1]],
        ['footnote_reference_open', [1, 2]],
        ['paragraph_open', [1, 2]],
        ['inline', [1, 2]],
      ],
    );
    assert.deepEqual(blocks('正文\n| a | b |\n| - | - |\n').filter(([, map]) => map)[2], ['table_open', [1, 3]]);
  });

  it('a table row knows where its text starts, after a list or quote marker and indentation', () => {
    const text = '- | a | b |\n  | - | - |\n  | c | d |\n\n> | e |\n>  | - |\n>   | f |\n';
    const rows = buildParser()
      .parse(text, {})
      .filter((t) => t.type === 'tr_open')
      .map((t) =>
        text.slice((t.meta as { start: number }).start, text.indexOf('\n', (t.meta as { start: number }).start)),
      );
    assert.deepEqual(rows, ['| a | b |', '| c | d |', '| e |', '| f |']);
  });

  it('every [^label] is a reference of ours, defined or not, with its span', () => {
    assert.deepEqual(inline('a[^1]b[^x]c\n\n[^1]: 注'), ['text a', 'sn_ref [^1]', 'text b', 'sn_ref [^x]', 'text c']);
    assert.deepEqual(
      children('注[^a]').map((c) => c.meta as unknown),
      [null, { label: 'a', start: 1, end: 5 }],
    );
  });

  it('a reference label is not empty and holds no blank, line break or unescaped [', () => {
    for (const none of ['[^]', '[^a b]', '[^a\tb]', '[^a\nb]', '[^a', '!^1]', 'x^1]', '[^a[b]'])
      assert.ok(!inline(none).some((c) => c.startsWith('sn_ref')), JSON.stringify(none));
    assert.deepEqual(inline('[^a[^1]'), ['text [^a', 'sn_ref [^1]']);
    assert.deepEqual(
      children('[^a\\[b]').map((c) => (c.meta as { label?: string } | null)?.label),
      ['a\\[b'],
    );
  });

  it('an inline citation is 〔…〕 on one line holding a #, and no second 〔', () => {
    assert.deepEqual(inline('见〔a.docx#1〕。'), ['text 见', 'sn_cite 〔a.docx#1〕', 'text 。']);
    assert.deepEqual(inline('〔a#1〕'), ['sn_cite 〔a#1〕']);
    assert.deepEqual(
      children('x〔a〔b.docx#2〕').map((c) => (c.meta as { raw?: string } | null)?.raw ?? c.content),
      ['x〔a', 'b.docx#2'],
    );
    for (const none of ['〔2023〕', '〔a#1', '〔a#\n1〕', '!a#1〕', '(a#1〕'])
      assert.ok(!inline(none).some((c) => c.startsWith('sn_cite')), JSON.stringify(none));
  });

  it('the probe records code spans, and every construct a citation must not split, in reading order', () => {
    const content = '`c` ![i](s) <http://a.cn> <b> &amp; \\* ^[n] [^1] 〔a#1〕 [t](d) e';
    const at = (s: string, from = 0): [number, number] => {
      const i = content.indexOf(s, from);
      return [i, i + s.length];
    };
    const got = spans(content).map((s) => [s.rule, s.kind, s.start, s.end]);
    assert.deepEqual(got, [
      ['backticks', 'code', ...at('`c`')],
      ['image', 'atomic', ...at('![i](s)')],
      ['autolink', 'atomic', ...at('<http://a.cn>')],
      ['html_inline', 'atomic', ...at('<b>')],
      ['entity', 'atomic', ...at('&amp;')],
      ['escape', 'atomic', ...at('\\*')],
      ['footnote_inline', 'atomic', ...at('^[n]')],
      ['footnote_ref', 'atomic', ...at('[^1]')],
      ['sn_cite', 'atomic', ...at('〔a#1〕')],
      // a link's text is text: only from its label's `]` on is it atomic
      ['link', 'atomic', ...at('](d)')],
    ]);
  });

  it('the probe records what a link’s text holds once, as read, and the link after it', () => {
    const content = '[a `b` c](d)e`f`';
    assert.deepEqual(
      spans(content).map((s) => [s.rule, content.slice(s.start, s.end)]),
      [
        ['backticks', '`b`'],
        ['link', '](d)'],
        ['backticks', '`f`'],
      ],
    );
  });

  it('the probing parser is the ordinary one plus its records; the ordinary one records nothing', () => {
    const text = '`c` [t](d) 〔a#1〕 [^1]';
    const env = { spans: [] as ProbeSpan[] };
    const plain = buildParser().parseInline(text, env);
    assert.deepEqual(env.spans, []);
    assert.deepEqual(recordingSpans(buildParser()).parseInline(text, { spans: [] }), plain);
    assert.deepEqual(parseBlocks(text), buildParser().parse(text, {}));
    assert.deepEqual(probeInline(text), spans(text));
  });

  it('asking for a rule markdown-it does not have is an error naming it', () => {
    assert.throws(() => original(buildParser().block.ruler, 'no_such_rule'), /no_such_rule/);
  });

  it('line breaks are made LF for the parser without moving any offset', () => {
    assert.equal(normalizeForParser('a\r\nb\rc\n'), 'a \nb\nc\n');
    assert.equal(normalizeForParser('a\n\nb'), 'a\n\nb');
  });
});
