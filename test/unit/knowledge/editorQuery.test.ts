import assert from 'node:assert/strict';
import fc from 'fast-check';
import { cleanMarkdown, queryFromContext } from '../../../src/knowledge/editorQuery';

const DOC = [
  '---',
  'title: 茶园周报',
  '---',
  '',
  '# 茶园管理要点 #',
  '',
  '7月底驻芽期时，提示对**茶树**进行浅修[^1]，同步施基肥或者复合肥。另外注意[病虫害](https://example.org/x)防治〔茶树农事操作.docx#2〕。',
  '',
  '- [ ] 检查 `灌溉` 设备',
  '> 小麦拔节期应*适时*追肥，',
  '> 防止倒伏。',
  '',
  '| 作物 | 要点 |',
  '| --- | --- |',
  '| 水稻 | 分蘖期浅水勤灌 |',
  '',
  '[^1]: 茶树农事操作.docx#1 — 茶树管理 (TEA_MANAGER_001)',
].join('\n');

const at = (needle: string, delta = 0): number => {
  const i = DOC.indexOf(needle);
  assert.ok(i >= 0, needle);
  return i + delta;
};

describe('knowledge/context', () => {
  it('takes the sentence around the cursor, without Markdown, footnote refs or citations', () => {
    assert.deepEqual(queryFromContext(DOC, at('浅修')), {
      query: '7月底驻芽期时，提示对茶树进行浅修，同步施基肥或者复合肥',
      source: 'cursor',
    });
    assert.equal(queryFromContext(DOC, at('病虫害', 1)).query, '另外注意病虫害防治');
  });

  it('after a sentence end, takes the sentence just written', () => {
    assert.equal(
      queryFromContext(DOC, at('复合肥。', 4)).query,
      '7月底驻芽期时，提示对茶树进行浅修，同步施基肥或者复合肥',
    );
    assert.equal(queryFromContext('茶树修剪。', 5).query, '茶树修剪');
  });

  it('strips block syntax: headings, task lists, code ticks, quotes, tables, footnote labels', () => {
    assert.equal(queryFromContext(DOC, at('茶园管理')).query, '茶园管理要点');
    assert.equal(queryFromContext(DOC, at('灌溉')).query, '检查 灌溉 设备');
    assert.equal(queryFromContext(DOC, at('追肥')).query, '小麦拔节期应适时追肥，防止倒伏');
    assert.equal(queryFromContext(DOC, at('浅水')).query, '分蘖期浅水勤灌');
    assert.equal(
      queryFromContext(DOC, at('TEA_MANAGER_001')).query,
      '茶树农事操作.docx#1 — 茶树管理 (TEA_MANAGER_001)',
    );
  });

  it('keeps only the clause, then a window around the cursor, when the sentence is too long', () => {
    assert.equal(queryFromContext(DOC, at('浅修'), { maxLength: 12 }).query, '提示对茶树进行浅修');
    const long = '甲'.repeat(100) + '乙' + '丙'.repeat(100);
    const q = queryFromContext(long, 100, { maxLength: 20 }).query;
    assert.equal(q.length, 20);
    assert.ok(q.includes('乙'));
  });

  it('uses the selection when there is one (either direction), cleaned and capped', () => {
    const from = at('7月底');
    const to = at('，同步');
    assert.deepEqual(queryFromContext(DOC, from, { selectionEnd: to }), {
      query: '7月底驻芽期时，提示对茶树进行浅修',
      source: 'selection',
    });
    assert.deepEqual(queryFromContext(DOC, to, { selectionEnd: from }).query, '7月底驻芽期时，提示对茶树进行浅修');
    const english = 'Pruning tea bushes after the spring flush keeps the plucking table level';
    assert.equal(
      queryFromContext(english, 0, { selectionEnd: english.length, maxLength: 30 }).query,
      'Pruning tea bushes after the',
    );
  });

  it('returns source none for an empty document, a blank line or a selection of syntax only', () => {
    assert.deepEqual(queryFromContext('', 0), { query: '', source: 'none' });
    assert.equal(queryFromContext(DOC, at('\n\n# 茶园', 1)).source, 'none');
    assert.equal(queryFromContext('**[^1]**', 0, { selectionEnd: 8 }).source, 'none');
    assert.deepEqual(queryFromContext(DOC, at('茶园周报')), { query: '', source: 'none' }, 'front matter');
  });

  it('joins soft-wrapped lines (no space between Chinese, a space between Latin words)', () => {
    assert.equal(queryFromContext('茶树修剪\n技术要点。', 2).query, '茶树修剪技术要点');
    assert.equal(queryFromContext('tea pruning\nafter flush', 2).query, 'tea pruning after flush');
  });

  it('cleanMarkdown maps every kept character to its offset in the source', () => {
    const { text, origins } = cleanMarkdown(DOC);
    assert.equal(text.length, origins.length);
    for (let i = 0; i < text.length; i++) {
      const ch = text[i];
      if (ch !== '\n' && ch !== ' ') assert.equal(DOC[origins[i] ?? -1], ch, `char ${i}`);
    }
    assert.ok(!/\[\^|\*\*|〔|https?:/.test(text));
  });

  it('property: never throws, stays within maxLength, offsets out of range are clamped', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(
            '茶',
            '树',
            '。',
            '，',
            '\n',
            ' ',
            '*',
            '#',
            '[',
            ']',
            '^',
            '1',
            '(',
            ')',
            '`',
            '|',
            '>',
            '-',
            'a',
          ),
        }),
        fc.integer({ min: -5, max: 200 }),
        fc.option(fc.integer({ min: -5, max: 200 }), { nil: undefined }),
        fc.integer({ min: 1, max: 40 }),
        (text, offset, selectionEnd, maxLength) => {
          const r = queryFromContext(text, offset, {
            maxLength,
            ...(selectionEnd !== undefined ? { selectionEnd } : {}),
          });
          assert.ok(r.query.length <= maxLength);
          assert.equal(r.query, r.query.trim());
          assert.equal(r.source === 'none', r.query === '');
        },
      ),
    );
  });
});
