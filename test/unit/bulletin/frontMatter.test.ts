/** A bulletin's front matter: where it is and its top-level scalar fields (src/bulletin/frontMatter.ts). */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { FRONT_MATTER, frontMatter, MAX_DEPTH } from '../../../src/bulletin/frontMatter';

const fields = (text: string): Record<string, string> => frontMatter(text).fields;

describe('bulletin/frontMatter: where the front matter is', () => {
  it('is only at the very top (after an optional BOM), closed by --- or ...', () => {
    assert.deepEqual(fields('---\ntitle: 茶园\n---\n# 茶园\n'), { title: '茶园' });
    assert.deepEqual(fields('\uFEFF---\ntitle: 茶园\n---\n'), { title: '茶园' }, 'after a BOM');
    assert.deepEqual(fields('---\ntitle: 茶园\n...\n正文'), { title: '茶园' }, 'closed by ...');
    assert.deepEqual(fields('---  \ntitle: 茶园\n---\t\n'), { title: '茶园' }, 'spaces after the fences');
    assert.deepEqual(fields('---\r\ntitle: 茶园\r\nlang: zh-CN\r\n---\r\n'), { title: '茶园', lang: 'zh-CN' }, 'CRLF');
    assert.deepEqual(fields('---\ntitle: 茶园\n---'), { title: '茶园' }, 'closed on the last line, no final newline');
    for (const text of [
      '# 茶园\n---\ntitle: x\n---\n',
      ' ---\ntitle: x\n---\n',
      '\n---\ntitle: x\n---\n',
      '---\ntitle: x\n',
      '---\ntitle: x\n--- y\n',
      '---\ntitle: x\n----\n',
      '--- x\ntitle: y\n---\n',
    ])
      assert.deepEqual(fields(text), {}, JSON.stringify(text));
  });

  it('closes at the first closing fence; an empty one closes on the second line', () => {
    assert.deepEqual(fields('---\n---\ntitle: x\n---\n'), {}, 'empty: what follows is the body');
    assert.equal(FRONT_MATTER.exec('---\n---\ntitle: x\n---\n')?.[0], '---\n---\n');
    assert.equal(FRONT_MATTER.exec('---\n---\ntitle: x\n---\n')?.[1], undefined);
    assert.deepEqual(fields('---\na: 1\n---\nb: 2\n---\n'), { a: '1' });
  });

  it('blanks the front matter to spaces, keeping every line and the length', () => {
    const text = '---\r\ntitle: "茶园"\r\n---\r\n# 茶园\n';
    const { blanked } = frontMatter(text);
    assert.equal(blanked.length, text.length);
    assert.equal(blanked, `   \r\n${' '.repeat('title: "茶园"'.length)}\r\n   \r\n# 茶园\n`);
    assert.equal(frontMatter('# 茶园\n').blanked, '# 茶园\n', 'no front matter: the text as it is');
  });

  it('blanking keeps lines, length and the body, whatever the front matter holds', () => {
    const line = fc.string({
      unit: fc.constantFrom('a', ':', ' ', '"', "'", '#', '茶', '-', '\r', '.'),
      maxLength: 12,
    });
    fc.assert(
      fc.property(fc.array(line, { maxLength: 4 }), fc.constantFrom('\n', '\r\n'), (lines, nl) => {
        const body = `# 正文${nl}段落`;
        const text = ['---', ...lines.map((l) => l.replace(/\r/g, '')), '---', body].join(nl);
        const { blanked } = frontMatter(text);
        assert.equal(blanked.length, text.length);
        assert.deepEqual(blanked.split(/\r?\n/).length, text.split(/\r?\n/).length);
        assert.ok(blanked.endsWith(body));
      }),
    );
  });
});

describe('bulletin/frontMatter: the fields', () => {
  it('reads one key: value per line, trimmed; keys are names, other lines are skipped', () => {
    assert.deepEqual(
      fields(
        '---\ntitle:   茶园冬季管理  \nsolar_term:小雪\nnext-term : 大雪\n  nested: no\n- item\n1x: no\n# comment\n---\n',
      ),
      { title: '茶园冬季管理', solar_term: '小雪', 'next-term': '大雪' },
    );
    assert.deepEqual(fields('---\n_key: v\nK2: w\n---\n'), { _key: 'v', K2: 'w' });
    assert.deepEqual(fields('---\nempty:\n---\n'), { empty: '' });
  });

  it('takes the last value of a key written twice', () => {
    assert.deepEqual(fields('---\nlang: en\nlang: zh-CN\n---\n'), { lang: 'zh-CN' });
  });

  it('unquotes double-quoted values: \\" \\\\ \\/ read as themselves, \\n and \\t as a space', () => {
    assert.deepEqual(fields('---\ntitle: "茶园 \\"冬管\\" \\\\ a\\/b"\n---\n'), { title: '茶园 "冬管" \\ a/b' });
    assert.deepEqual(fields('---\ntitle: "一\\n二\\t三"\n---\n'), { title: '一 二 三' });
    assert.deepEqual(fields('---\ntitle: "茶园 # 不是注释"\n---\n'), { title: '茶园 # 不是注释' });
    assert.deepEqual(fields('---\ntitle: ""\n---\n'), { title: '' });
    assert.deepEqual(fields('---\ntitle: "\n---\n'), { title: '"' }, 'one quote is not a quoted value');
    assert.deepEqual(fields('---\ntitle: 茶园"\n---\n'), { title: '茶园"' }, 'a closing quote alone is plain text');
  });

  it("unquotes single-quoted values: '' reads as one quote, nothing else is an escape", () => {
    assert.deepEqual(fields("---\ntitle: '农户''s 茶园 \\n'\n---\n"), { title: "农户's 茶园 \\n" });
    assert.deepEqual(fields("---\ntitle: ''\n---\n"), { title: '' });
    assert.deepEqual(fields("---\ntitle: '\n---\n"), { title: "'" });
    assert.deepEqual(fields("---\ntitle: 农户'\n---\n"), { title: "农户'" });
    assert.deepEqual(fields('---\ntitle: "a\'\n---\n'), { title: '"a\'' }, 'mismatched quotes stay');
  });

  it('drops the comment of a plain value (a # after a space), not a # inside a word', () => {
    assert.deepEqual(fields('---\ndate: 2026-12-01  # 发布日\n---\n'), { date: '2026-12-01' });
    assert.deepEqual(fields('---\ndate: 2026-12-01\t# 发布日\n---\n'), { date: '2026-12-01' });
    assert.deepEqual(fields('---\ntag: C#7\n---\n'), { tag: 'C#7' });
  });
});

describe('bulletin/frontMatter: read as YAML', () => {
  const read = (lines: string[]) => frontMatter(['---', ...lines, '---', '# 正文'].join('\n'));

  it('keeps every value the text written: dates, numbers and booleans stay strings (the failsafe schema)', () => {
    assert.deepEqual(read(['date: 2026-12-01', 'issue: 012', 'draft: true', 'n: 1e3']).fields, {
      date: '2026-12-01',
      issue: '012',
      draft: 'true',
      n: '1e3',
    });
  });

  it('reads a list written as - items or in brackets; a list is not a field', () => {
    const fm = read(['cc:', '  - 市农业农村局', '  - "各区县植保站"', 'attachments: [防治技术要点, 施药记录表]']);
    assert.deepEqual(fm.lists, { cc: ['市农业农村局', '各区县植保站'], attachments: ['防治技术要点', '施药记录表'] });
    assert.deepEqual(fm.fields, {});
    assert.deepEqual(fm.problems, []);
  });

  it('reads a quoted or folded value as one line; a nested mapping is neither a field nor a list', () => {
    const fm = read(['title: "稻飞虱: 第12期"', 'note: >', '  两行', '  合一', 'fonts:', '  body: 仿宋']);
    assert.deepEqual(fm.fields, { title: '稻飞虱: 第12期', note: '两行 合一' });
    assert.deepEqual(fm.lists, {});
  });

  it('knows where each value is written (0-based line and column in the whole text)', () => {
    const fm = frontMatter('---\ntitle:   茶园\ncc:\n  - 甲\ndate: x\n---\n');
    assert.deepEqual(fm.positions, {
      title: { line: 1, character: 9 },
      cc: { line: 3, character: 2 },
      date: { line: 4, character: 6 },
    });
  });

  it('a front matter YAML rejects is reported on its line, with the reason, and read line by line', () => {
    const fm = read(['title: 2026年第12期: 稻飞虱', 'date: 2026-08-01', 'cc:', '  - 市农业农村局', '  - 各区县植保站']);
    assert.deepEqual(fm.fields, { title: '2026年第12期: 稻飞虱', date: '2026-08-01', cc: '' });
    assert.deepEqual(fm.lists, { cc: ['市农业农村局', '各区县植保站'] });
    assert.equal(fm.problems.length, 1);
    assert.equal(fm.problems[0]!.kind, 'yaml');
    assert.equal(fm.problems[0]!.line, 1, 'the title line');
    assert.match(fm.problems[0]!.reason!, /mapping/i);
    assert.deepEqual(fm.positions['date'], { line: 2, character: 6 });
    const twice = read(['lang: en', 'lang: zh-CN']);
    assert.deepEqual(
      twice.problems.map((p) => [p.kind, p.line]),
      [['yaml', 2]],
      'a key written twice',
    );
    assert.equal(twice.fields['lang'], 'zh-CN', 'the last one is read');
  });

  it('refuses an alias bomb on its line and reads the other fields', () => {
    const fm = read([
      'title: 稻飞虱',
      'a: &a [x, x, x, x, x, x, x, x, x]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
      'd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]',
    ]);
    assert.equal(fm.fields['title'], '稻飞虱');
    assert.deepEqual(fm.lists['a'], Array(9).fill('x'));
    assert.ok(!('c' in fm.lists) && !('d' in fm.lists), 'c and d (81 and 729 expansions) are not read');
    assert.deepEqual(
      fm.problems.filter((p) => p.kind === 'aliases').map((p) => p.line),
      [4, 5],
    );
    const one = read(['a: &a 稻飞虱', 'title: *a']);
    assert.deepEqual(one.fields, { a: '稻飞虱', title: '稻飞虱' }, 'an alias within the limit is read');
  });

  it('refuses lines nested deeper than MAX_DEPTH, by brackets or indentation, and reads the rest', () => {
    const brackets = read(['title: 稻飞虱', `x: ${'['.repeat(100_000)}${']'.repeat(100_000)}`, 'date: 2026-08-01']);
    assert.deepEqual(brackets.fields, { title: '稻飞虱', date: '2026-08-01' });
    assert.deepEqual(
      brackets.problems.map((p) => [p.kind, p.line]),
      [['depth', 2]],
    );
    const at = (depth: number) =>
      read(['y:', ...Array.from({ length: depth }, (_, i) => `${'  '.repeat(i + 1)}k${i}:`)]);
    assert.deepEqual(at(MAX_DEPTH - 1).problems, [], 'as deep as allowed: MAX_DEPTH levels');
    assert.deepEqual(
      at(MAX_DEPTH + 1).problems.map((p) => p.kind),
      ['depth', 'depth'],
      'the two lines past the limit',
    );
    const shallow = read([`x: ${'['.repeat(MAX_DEPTH - 1)}${']'.repeat(MAX_DEPTH - 1)}`, 'y: "[[[[[[[[[["']);
    assert.deepEqual(shallow.problems, [], 'brackets within the limit, and inside quotes, are not nesting');
  });

  it('never throws, and keeps lines and length, whatever the front matter holds (property)', () => {
    const line = fc.string({
      unit: fc.constantFrom('a', ':', ' ', '"', "'", '#', '茶', '-', '[', ']', '{', '}', '&', '*', '!', '|', '>', ','),
      maxLength: 16,
    });
    fc.assert(
      fc.property(fc.array(line, { maxLength: 6 }), (lines) => {
        const text = ['---', ...lines, '---', '正文'].join('\n');
        const fm = frontMatter(text);
        assert.equal(fm.blanked.length, text.length);
        for (const p of fm.problems) assert.ok(p.line >= 1 && p.line <= lines.length, JSON.stringify(p));
        for (const v of Object.values(fm.fields)) assert.equal(typeof v, 'string');
      }),
    );
  });
});
