/** A bulletin's front matter: where it is and its top-level scalar fields (src/bulletin/frontMatter.ts). */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { FRONT_MATTER, frontMatter } from '../../../src/bulletin/frontMatter';

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
