/** The WeChat article and the standalone page: what WeChat keeps, nothing executable, every citation listed. */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { wordsOf } from '../../../src/text/words';
import { warningText } from '../../../src/publish/index';
import { executable, exported, PHOTO, readDocx, ROOT, SAMPLE, tags } from './helpers';

const HOSTILE = `---
title: "<img src=x onerror=alert(1)>"
---

# 周报

引用[^1]，另见〔<b>x</b>.docx#2〕。<script>alert(1)</script> <span onclick="x()">点</span>
[坏链接](javascript:alert(1)) 和 [好链接](https://example.com/a?b=1&c=2)。

<iframe src="https://evil.example"></iframe>

[^1]: <img src=x onerror=alert(1)>.docx#1 — 茶 & "kb" (K)
`;

describe('publish: WeChat article', () => {
  it('has no <style>, no class, no link, no script, no event attribute: styles are inline', async () => {
    for (const text of [SAMPLE, HOSTILE]) {
      const { article } = await exported({ text, format: 'wechat' });
      const html = new TextDecoder().decode((await exported({ text, format: 'wechat' })).bytes);
      for (const s of [article!, html]) {
        const all = tags(s);
        assert.ok(all.length > 10, 'the article has tags');
        assert.deepEqual(
          all.filter((t) => t.name === 'style'),
          [],
          'no <style>',
        );
        assert.deepEqual(
          all.filter((t) => 'class' in t.attributes),
          [],
          'no class',
        );
        assert.deepEqual(
          all.filter((t) => t.name === 'a' || 'href' in t.attributes),
          [],
          'no link at all',
        );
        assert.deepEqual(executable(s), [], 'nothing executable');
      }
      assert.ok(/<p style="[^"]+">/.test(article!), 'paragraphs carry their style');
    }
  });

  it('lists every citation and link once, numbered in reading order, under the bulletin’s references heading', async () => {
    const r = await exported({ text: SAMPLE, format: 'wechat' });
    const notes = [...r.article!.matchAll(/<p style="[^"]*">\[(\d+)\] ([^<]*)<\/p>/g)].map((m) => `${m[1]} ${m[2]}`);
    assert.deepEqual(notes, [
      '1 茶树农事操作.docx#1 — 茶树管理',
      '2 作者注：产量数据来自县茶叶站 2025 年统计。',
      '3 茶园施肥技术.pdf#0 — 茶树管理',
      '4 茶树修剪技术要点.docx#3',
      '5 茶树修剪技术要点.docx#2 — 茶树管理',
      '6 农业农村部: https://www.moa.gov.cn/',
    ]);
    const marks = [...r.article!.matchAll(/<sup style="[^"]*">\[(\d+)\]<\/sup>/g)].map((m) => Number(m[1]));
    assert.deepEqual(marks, [1, 2, 3, 1, 4, 5, 3, 6], 'a source cited twice keeps its number');
    assert.match(r.article!, />文末注释</, 'notes besides sources: the heading says notes');
    assert.match(r.article!, /<img src="data:image\/jpeg;base64,/, 'the picture is embedded');
    assert.match(r.article!, /overflow-x:auto;"><table/, 'tables scroll sideways on a phone');
  });

  it('names the list after the references heading when only sources are cited', async () => {
    const r = await exported({ text: '# T\n\n甲[^1]。\n\n## 参考资料\n\n[^1]: a.docx#1 — 茶 (K)\n', format: 'wechat' });
    assert.match(r.article!, />参考资料<\/p>/);
    const en = await exported({ text: '# T\n\nA[^1].\n\n[^1]: a.docx#1 — tea (K)\n', format: 'wechat', lang: 'en' });
    assert.match(en.article!, />References<\/p>/);
  });

  it('escapes server text and leaves out raw HTML with a warning', async () => {
    const r = await exported({ text: HOSTILE, format: 'wechat' });
    assert.ok(
      r.article!.includes('&#60;img src=x onerror=alert(1)&#62;.docx#1 — 茶 &#38; &#34;kb&#34;'),
      'the doc name as text',
    );
    assert.ok(r.article!.includes('&#60;b&#62;x&#60;/b&#62;.docx#2'), 'an inline citation as text');
    assert.ok(r.article!.includes('[坏链接]') || r.article!.includes('坏链接'), 'the bad link keeps its text');
    assert.ok(r.warnings.some((w) => w.code === 'html-left-out'));
  });
});

describe('publish: standalone HTML page', () => {
  it('renders footnotes as the preview does, with the picture embedded and raw HTML left out', async () => {
    const html = new TextDecoder().decode((await exported({ text: SAMPLE, format: 'html' })).bytes);
    assert.match(html, /<html lang="zh-CN">/);
    assert.match(html, /<title>茶园冬季管理技术要点<\/title>/);
    assert.equal((html.match(/<li id="fn\d+" class="footnote-item">/g) ?? []).length, 4, 'four footnotes');
    assert.match(html, /<span class="shunong-source">茶树农事操作\.docx#1<\/span> — 茶树管理 \(TEA_MANAGER_001\)/);
    assert.match(html, /<sup class="shunong-cite">茶树修剪技术要点\.docx#3<\/sup>/);
    assert.match(html, /<img src="data:image\/jpeg;base64,[^"]+" alt="识别结果">/);
    assert.ok(!html.includes('提示'), 'comments left out');
    assert.match(
      html,
      /Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'"/,
    );
  });

  const page = async (text: string, readImage?: Parameters<typeof exported>[0]['readImage']): Promise<string> =>
    new TextDecoder().decode((await exported({ text, format: 'html', ...(readImage ? { readImage } : {}) })).bytes);

  it('carries its own styles (a page has no theme) and reads well on a phone and on paper', async () => {
    const html = await page(SAMPLE);
    assert.match(html, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
    const style = /<style>([\s\S]*)<\/style>/.exec(html)?.[1] ?? '';
    assert.match(style, /body \{ max-width: 46em;/);
    assert.match(style, /\.shunong-cite \{/, 'the citation marks are styled');
    assert.match(style, /@media print \{/);
  });

  it('a bulletin saved with a byte order mark: its front matter is read, not shown', async () => {
    const html = await page('\uFEFF---\ntitle: 冬季管理\n---\n\n# 正文标题\n\n内容。\n');
    assert.match(html, /<title>冬季管理<\/title>/);
    assert.doesNotMatch(html, /title: |<hr>|\uFEFF/);
    assert.match(await page('\uFEFF# 正文标题\n'), /<h1>正文标题<\/h1>/, 'nor does it hide a first heading');
  });

  it('without a title the page’s title is empty', async () => {
    assert.match(await page('只有一段话。\n'), /<title><\/title>/);
  });

  it('a line ending inside a paragraph is no line break on the page, as in the preview', async () => {
    assert.match(await page('# T\n\n甲\n乙\n'), /<p>甲\n乙<\/p>/);
  });

  it('keeps line breaks written as <br>, and leaves out every other raw HTML', async () => {
    const html = await page('# T\n\n甲<br/>乙<BR>丙<b>丁</b>戊<br />己\n\n<div>块</div>\n');
    assert.match(html, /甲<br>乙<br>丙丁戊<br>己/);
    assert.doesNotMatch(html, /<b>|<div>|块/);
    // a block of raw HTML is kept only when it is a <br> alone
    const blocks = await page('# T\n\n<br>\n\n段一\n\n<br>\n<div>块一</div>\n\n段二\n\n<div>块二<br>\n\n段三\n');
    assert.match(blocks, /<h1>T<\/h1>\n<br><p>段一<\/p>\n<p>段二<\/p>\n<p>段三<\/p>/);
  });

  it('embeds the pictures it could load and leaves out the others; a second export is the same page', async () => {
    const text = '# T\n\n![有](a.jpg)\n\n![无](gone.jpg)\n';
    const readImage = async (c: { base: string; path: string }) => (c.path === 'a.jpg' ? PHOTO : undefined);
    const first = await page(text, readImage);
    assert.equal((first.match(/<img /g) ?? []).length, 1);
    assert.match(first, /<img src="data:image\/jpeg;base64,[^"]+" alt="有">/);
    assert.doesNotMatch(first, /gone\.jpg/);
    assert.match(first, /<p><\/p>/, 'nothing stands in for the missing one');
    assert.equal(await page(text, readImage), first);
  });

  it('never lets bulletin HTML or a server name run', async () => {
    const html = new TextDecoder().decode((await exported({ text: HOSTILE, format: 'html' })).bytes);
    assert.deepEqual(executable(html), []);
    assert.ok(
      tags(html).some((t) => t.name === 'a' && t.attributes.href === 'https://example.com/a?b=1&amp;c=2'),
      'a web link stays a link',
    );
  });
});

describe('publish: WeChat pictures and deep lists', () => {
  const png = new Uint8Array(readFileSync(join(ROOT, 'test/emulator/images/tea_buds.png')));
  const text = '# T\n\n![甲](a.jpg)\n\n![乙](b.png)\n\n![甲again](a.jpg)\n';
  const readImage = async (c: { base: string; path: string }) =>
    c.base !== 'document' ? undefined : c.path === 'a.jpg' ? PHOTO : c.path === 'b.png' ? png : undefined;

  it('keeps the pictures embedded and gives them, in order, to save beside the article', async () => {
    const r = await exported({ text, format: 'wechat', readImage, picturePrefix: '周报.wechat-' });
    assert.equal((r.article!.match(/<img src="data:image\//g) ?? []).length, 3);
    assert.deepEqual(
      r.pictures!.map((p) => [p.name, p.bytes.length]),
      [
        ['周报.wechat-1.jpeg', PHOTO.length],
        ['周报.wechat-2.png', png.length],
      ],
    );
  });

  it('with a base URL, the article’s pictures are the station’s hosted files, not data: URIs', async () => {
    const r = await exported({
      text,
      format: 'wechat',
      readImage,
      picturePrefix: '周报.wechat-',
      imageBaseUrl: 'https://img.example.cn/tea',
    });
    assert.ok(!r.article!.includes('data:'), 'nothing embedded');
    assert.deepEqual(
      tags(r.article!)
        .filter((t) => t.name === 'img')
        .map((t) => t.attributes.src),
      [
        'https://img.example.cn/tea/%E5%91%A8%E6%8A%A5.wechat-1.jpeg',
        'https://img.example.cn/tea/%E5%91%A8%E6%8A%A5.wechat-2.png',
        'https://img.example.cn/tea/%E5%91%A8%E6%8A%A5.wechat-1.jpeg',
      ],
    );
    assert.equal(r.pictures!.length, 2, 'still saved, to upload there');
  });

  it('flattens lists deeper than two levels to two, keeping every item, and names the line', async () => {
    const list = '- 一\n  - 二\n    - 三\n      - 四\n  - 二乙\n- 一乙\n';
    const r = await exported({ text: `# T\n\n${list}`, format: 'wechat' });
    let depth = 0;
    let deepest = 0;
    for (const m of r.article!.matchAll(/<(\/?)(?:ul|ol)\b/g)) {
      depth += m[1] ? -1 : 1;
      deepest = Math.max(deepest, depth);
    }
    assert.equal(deepest, 2);
    for (const item of ['一', '二', '三', '四', '二乙', '一乙']) assert.ok(r.article!.includes(`>${item}<`), item);
    assert.ok(
      r.article!.indexOf('>三<') < r.article!.indexOf('>四<') &&
        r.article!.indexOf('>四<') < r.article!.indexOf('>二乙<'),
    );
    assert.deepEqual(
      r.warnings.map((w) => warningText(w, wordsOf('en'))),
      [
        'Line 5: a list nested deeper than two levels, which WeChat does not keep; its items are written at the second level.',
        'Line 6: a list nested deeper than two levels, which WeChat does not keep; its items are written at the second level.',
      ],
    );
  });
});

describe('publish: what a reader of the WeChat article sees', () => {
  const article = async (text: string, lang: 'zh' | 'en' = 'zh'): Promise<string> =>
    (await exported({ text, format: 'wechat', lang })).article!;
  /** The style of the first `tag` element whose text is `text`. */
  const styleOf = (html: string, tag: string, text: string): string | undefined =>
    new RegExp(`<${tag} style="([^"]*)">${text}</${tag}>`).exec(html)?.[1];

  it('each heading level its own size, all bold and green, a first heading that is not the title in the body', async () => {
    const html = await article('---\ntitle: 题\n---\n\n# 一\n\n## 二\n\n### 三\n\n#### 四\n\n##### 五\n\n###### 六\n');
    const sizes = ['一', '二', '三', '四', '五', '六'].map((t, i) => {
      const style = styleOf(html, `h${i + 1}`, t)!;
      assert.match(style, /font-weight:bold;color:#1b5e20;/, t);
      return /font-size:(\d+)px/.exec(style)?.[1];
    });
    assert.deepEqual(sizes, ['20', '18', '17', '16', '16', '16']);
  });

  it('every kind of element carries its own look inline: paragraphs justified, lists indented, tables ruled, notes small', async () => {
    const html = await article(
      '---\ntitle: 题\n---\n\n## 节\n\n段[^1]。\n\n- 项\n\n| 头 |\n| --- |\n| 格 |\n\n[^1]: a.docx#1 — 茶 (K)\n',
    );
    const styles = new Map<string, string[]>();
    for (const t of tags(html)) styles.set(t.name, [...(styles.get(t.name) ?? []), t.attributes.style ?? '']);
    const has = (tag: string, declaration: string): boolean => styles.get(tag)!.some((s) => s.includes(declaration));
    for (const [tag, declaration] of [
      ['h2', 'margin:24px 0 12px;'],
      ['p', 'margin:0 0 16px;text-align:justify;'],
      ['ul', 'margin:0 0 16px;padding-left:24px;'],
      ['table', 'border-collapse:collapse;min-width:100%;'],
      ['td', 'border:1px solid #dddddd;padding:6px 8px;'],
      ['p', 'font-size:14px;line-height:1.6;color:#666666;'],
      ['sup', 'font-size:12px;line-height:0;color:#1b5e20;vertical-align:super;'],
      ['section', 'margin:32px 0 0;padding-top:12px;border-top:1px solid #e0e0e0;'],
      [
        'section',
        "font-family:-apple-system,BlinkMacSystemFont,'PingFang SC','Hiragino Sans GB','Microsoft YaHei',sans-serif;",
      ],
    ] as const)
      assert.ok(has(tag, declaration), `${tag}: ${declaration}`);
  });

  it('the title and the date above the body, escaped, neither without them; the page is titled and in the bulletin’s language', async () => {
    const r = await exported({ text: '---\ntitle: 茶<园>\ndate: 1 & 2\n---\n\n正文\n', format: 'wechat', lang: 'en' });
    assert.match(
      r.article!,
      /^<section style="[^"]*font-size:16px;line-height:1\.75;[^"]*"><h1 style="[^"]*font-size:22px;[^"]*">茶&#60;园&#62;<\/h1><p style="[^"]*color:#888888;[^"]*">1 &#38; 2<\/p>\n<p /,
    );
    const page = new TextDecoder().decode(r.bytes);
    assert.match(page, /<html lang="en">/);
    assert.match(page, /<title>茶&#60;园&#62;<\/title>/);
    assert.ok(page.includes(`<body style="margin:0;padding:16px;background:#ffffff;">\n${r.article}\n</body>`));
    const bare = await exported({ text: '正文\n', format: 'wechat' });
    assert.match(
      bare.article!,
      /^<section style="[^"]*">\n<p style="[^"]*">正文<\/p>\n<\/section>$/,
      'no title, no date, no note: the body alone',
    );
    assert.match(new TextDecoder().decode(bare.bytes), /<title><\/title>/, 'no title: the page’s title is empty');
  });

  it('code in a fixed-width font on grey; bold, italic and struck text as such, nested', async () => {
    const html = await article('`a<b` **~~*x*~~**\n');
    assert.match(html, /<code style="font-family:Menlo,Consolas,[^"]*background:#f3f3f3;[^"]*">a&#60;b<\/code>/);
    assert.match(html, /<s><em><strong>x<\/strong><\/em><\/s>/);
  });

  it('a code block keeps its lines, escaped, in a scrolling grey box', async () => {
    const html = await article('```\nif (a < b) {\n  c();\n}\n```\n');
    assert.match(
      html,
      /<pre style="[^"]*background:#f6f8fa;[^"]*white-space:pre;"><code style="font-family:Menlo,[^"]*">if \(a &#60; b\) \{\n {2}c\(\);\n\}<\/code><\/pre>/,
    );
  });

  it('a mail link is listed like a web link; a link whose text is its address, or to a file, is only its text', async () => {
    const r = await exported({
      text: '[写信](mailto:a@b.cn) https://x.cn [说明](a.md?from=https://a.cn) [又写](MAILTO:c@d.cn) [网](http://e.cn)\n',
      format: 'wechat',
    });
    const html = r.article!;
    assert.match(
      html,
      /写信<sup style="[^"]*vertical-align:super;">\[1\]<\/sup> https:\/\/x\.cn 说明 又写<sup [^>]*>\[2\]<\/sup> 网<sup [^>]*>\[3\]<\/sup>/,
    );
    assert.match(html, /\[1\] 写信: mailto:a@b\.cn<\/p><p [^>]*>\[2\] 又写: MAILTO:c@d\.cn<\/p>/);
    assert.match(html, />文末注释</, 'links are notes, not sources');
    assert.equal(r.notes, 3);
  });

  it('a link listed by its words alone, however they are formatted, a picture in it left out of the list', async () => {
    const html = await article('[看 **这里**![图](none.png)](https://a.cn/)\n');
    assert.match(html, /<p style="[^"]*">\[1\] 看 这里: https:\/\/a\.cn\/<\/p>/);
  });

  it('a bulletin of a title alone is its title', async () => {
    assert.match(
      await article('---\ntitle: 题\n---\n'),
      /^<section style="[^"]*"><h1 style="[^"]*">题<\/h1>\n\n<\/section>$/,
    );
  });

  it('a quote: its paragraphs and lists inside its tinted box, without a paragraph’s bottom margin', async () => {
    const html = await article('> 甲\n>\n> - 乙\n');
    assert.match(
      html,
      /<blockquote style="[^"]*border-left:4px solid #a5d6a7;background:#f1f8e9;[^"]*"><p style="margin:0;">甲<\/p><ul style="[^"]*"><li style="margin:4px 0;"><p style="margin:0;">乙<\/p><\/li><\/ul><\/blockquote>/,
    );
  });

  it('a thematic break is a thin rule; a numbered list starts where the bulletin starts it', async () => {
    const html = await article('1. 一\n\n---\n\n5. 五\n6. 六\n\n   续  \n   行\n');
    assert.match(html, /<hr style="border:none;border-top:1px solid #e0e0e0;margin:24px 0;">/);
    assert.match(html, /<ol style="[^"]*"><li [^>]*><p style="margin:0;">一</, 'from 1: no start');
    assert.match(html, /<ol start="5" style="[^"]*"><li [^>]*><p style="margin:0;">五<\/p><\/li><li /);
    assert.match(
      html,
      /<li [^>]*><p style="margin:0;">六<\/p><p style="margin:0;">续<br>行<\/p><\/li>/,
      'an item of two paragraphs, a line break kept',
    );
  });

  it('a table: a bold tinted header, each column aligned as written, a short row filled with empty cells', async () => {
    const html = await article('| a | b | c |\n|:--|:-:|---|\n| 1 |\n| 2 | 3 | 4 |\n');
    const cells = [...html.matchAll(/<(th|td) style="([^"]*)">([^<]*)<\/\1>/g)].map((m) => [m[1], m[3], m[2]]);
    assert.deepEqual(
      cells.map(([tag, text, style]) => `${tag} ${text} ${/text-align:(\w+)/.exec(style!)?.[1] ?? '-'}`),
      ['th a left', 'th b center', 'th c -', 'td 1 left', 'td  center', 'td  -', 'td 2 left', 'td 3 center', 'td 4 -'],
    );
    assert.ok(cells.slice(0, 3).every(([, , s]) => /background:#e8f5e9;font-weight:bold;/.test(s!)));
    assert.ok(cells.slice(3).every(([, , s]) => !/font-weight:bold/.test(s!)));
    assert.equal(
      cells[2]![2],
      cells[0]![2]!.replace('text-align:left;', ''),
      'a column written without alignment: the header’s look, nothing more',
    );
    for (const [, inside] of html.matchAll(/<(?:thead|tbody)>(.*?)<\/(?:thead|tbody)>/g))
      assert.equal(inside!.replace(/<tr>(?:<(t[hd]) [^>]*>[^<]*<\/\1>)*<\/tr>/g, ''), '', 'nothing but rows of cells');
  });

  it('a picture not found is left out; one found keeps its alt text, escaped', async () => {
    const r = await exported({
      text: '![“茶” <芽>](images/recognition/tea-buds.jpg)\n\n![无](none.jpg)\n',
      format: 'wechat',
    });
    const imgs = tags(r.article!).filter((t) => t.name === 'img');
    assert.equal(imgs.length, 1);
    assert.equal(imgs[0]!.attributes.alt, '“茶” &#60;芽&#62;');
    assert.match(imgs[0]!.attributes.style!, /max-width:100%;/);
    assert.deepEqual(
      r.pictures!.map((p) => p.name),
      ['picture-1.jpeg'],
      'named picture-n without a prefix',
    );
  });

  it('the end list is headed References when only sources are cited, and has no heading when nothing is', async () => {
    const en = await article('A[^1] B〔b.docx#2〕.\n\n[^1]: a.docx#1 — tea (K)\n', 'en');
    assert.match(
      en,
      /<section style="margin:32px 0 0;[^"]*"><p style="[^"]*font-weight:bold;[^"]*">References<\/p><p style="[^"]*">\[1\] a\.docx#1 — tea<\/p><p style="[^"]*">\[2\] b\.docx#2<\/p><\/section>/,
      'the heading, then the entries in order, nothing else',
    );
    assert.match(await article('A[^n].\n\n[^n]: mine\n', 'en'), />Notes<\/p>/);
    assert.doesNotMatch(await article('无注。\n'), /margin:32px 0 0|\[1\]/);
  });

  it('each author’s note its own entry, numbered once however often it is referenced, an inline note too', async () => {
    const html = await article('甲[^x]乙^[行内注]丙[^2]丁[^2]\n\n[^x]: 叉注\n[^2]: 二号注\n');
    const marks = [...html.matchAll(/<sup style="[^"]*">\[(\d+)\]<\/sup>/g)].map((m) => Number(m[1]));
    assert.deepEqual(marks, [1, 2, 3, 3]);
    const entries = [...html.matchAll(/<p style="[^"]*">\[(\d+)\] ([^<]*)<\/p>/g)].map((m) => `${m[1]} ${m[2]}`);
    assert.deepEqual(
      entries,
      ['1 叉注', '2 行内注', '3 二号注'],
      'the inline note (the second) is not the note labelled 2',
    );
  });

  it('an author’s note in the end list: its paragraphs, headings and code (in the code font), one after another, a picture not found leaving no gap', async () => {
    const html = await article(
      '甲[^n]。\n\n[^n]: 第一段\n\n    ![无图](none.png)\n\n    ## 小标题\n\n    ```\n    x < 1\n    ```\n',
    );
    assert.match(html, /\[1\] 第一段 小标题 <code style="font-family:Menlo,[^"]*">x &#60; 1<\/code><\/p>/);
  });
});

describe('publish: an author’s note of several blocks in the WeChat article', () => {
  it('keeps every block’s text, as the Word footnote does: its list items, its quote, its table’s rows', async () => {
    const text =
      '甲[^n]。\n\n[^n]: 第一段\n\n    - 项一\n    - 项二\n\n    > 引文\n\n    | 列一 | 列二 |\n    | --- | --- |\n    | x | y |\n';
    const r = await exported({ text, format: 'wechat' });
    const entry = /<p style="[^"]*">\[1\] (.*?)<\/p>/.exec(r.article!)?.[1];
    assert.equal(entry, '第一段 项一 项二 引文 列一 | 列二 x | y');
    const word = await exported({ text, format: 'docx' });
    const { footnotes } = await readDocx(word.bytes);
    assert.equal(
      footnotes[0],
      '第一段项一项二引文列一 | 列二x | y',
      'the same lines as the Word footnote’s paragraphs',
    );
  });
});
