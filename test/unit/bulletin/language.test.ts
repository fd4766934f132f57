/** The language of a document, for what is written into it (src/bulletin/language.ts). */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  frontMatterLang,
  insertLanguage,
  langOfTag,
  letterCounts,
  proseLanguage,
  proseOf,
} from '../../../src/bulletin/language';

const ZH = '茶园春季管理要点：及时修剪，浅耕除草，注意倒春寒和病虫害的预防。';
const EN = 'Spring tea garden care: prune on time, weed shallowly, watch for late frost and pests.';

describe('bulletin/language: the document language', () => {
  it("reads the front matter's lang: by its BCP-47 prefix", () => {
    for (const tag of ['zh', 'zh-CN', 'zh-Hans-CN', 'zh_TW', 'ZH-cn', '"zh-CN"', "'zh'"])
      assert.equal(langOfTag(tag), 'zh', tag);
    for (const tag of ['en', 'en-GB', 'EN-us', '"en"']) assert.equal(langOfTag(tag), 'en', tag);
    for (const tag of ['fr', 'de-DE', '', 'zhx', '{{lang}}', 'chinese']) assert.equal(langOfTag(tag), undefined, tag);
    assert.equal(frontMatterLang(`---\ntitle: x\nlang: en-GB\n---\n${ZH}`), 'en-GB');
    assert.equal(frontMatterLang(`---\r\nlanguage: zh-CN\r\n---\r\n${EN}`), 'zh-CN');
    assert.equal(frontMatterLang(`${EN}\n---\nlang: zh\n---\n`), undefined, 'front matter only at the top');
    assert.equal(frontMatterLang(`---\ntitle: x\n---\nlang: zh\n`), undefined, 'not after the front matter');
  });

  it('front matter wins over the prose, the setting and the UI', () => {
    assert.equal(insertLanguage('auto', `---\nlang: en\n---\n\n${ZH}`, 'zh'), 'en');
    assert.equal(insertLanguage('zh-CN', `---\nlang: en\n---\n\n${ZH}`, 'zh'), 'en');
    assert.equal(insertLanguage('en', `---\nlang: zh-CN\n---\n\n${EN}`, 'en'), 'zh');
    // A lang: naming neither language says nothing: the prose decides.
    assert.equal(insertLanguage('auto', `---\nlang: fr\n---\n\n${ZH}`, 'en'), 'zh');
  });

  it('reads Chinese prose as zh and English prose as en, whatever the UI language', () => {
    assert.equal(insertLanguage('auto', `# 简报\n\n${ZH}\n`, 'en'), 'zh');
    assert.equal(insertLanguage('auto', `# Bulletin\n\n${EN}\n`, 'zh'), 'en');
  });

  it('the setting, when it names a language, wins over the prose and the UI', () => {
    assert.equal(insertLanguage('en', ZH, 'zh'), 'en');
    assert.equal(insertLanguage('zh-CN', EN, 'en'), 'zh');
    assert.equal(insertLanguage('zh-CN', undefined, 'en'), 'zh');
  });

  it('falls back to the UI language for an empty, short or absent document', () => {
    for (const text of [undefined, '', '# 简报\n', 'Hi 你好', '---\ntitle: 成都农情简报 2026-12-01\n---\n']) {
      assert.equal(insertLanguage('auto', text, 'en'), 'en', String(text));
      assert.equal(insertLanguage('auto', text, 'zh'), 'zh', String(text));
    }
  });

  it('counts Han ÷ (Han + Latin); 0.5 reads as Chinese; 20 letters at least, a Han character counting as 4', () => {
    assert.deepEqual(letterCounts('水稻 rice 3 株'), { han: 3, latin: 4 });
    assert.equal(proseLanguage('a'.repeat(19)), undefined);
    assert.equal(proseLanguage('a'.repeat(20)), 'en');
    assert.equal(proseLanguage('# 水稻简报'), undefined);
    assert.equal(proseLanguage('# 茶园夏季管理\n\n修剪安排如下。\n'), 'zh');
    assert.equal(proseLanguage('水'.repeat(10) + 'a'.repeat(10)), 'zh');
    assert.equal(proseLanguage('水'.repeat(10) + 'a'.repeat(11)), 'en');
    fc.assert(
      fc.property(fc.nat(200), fc.nat(200), (han, latin) => {
        const got = proseLanguage('水'.repeat(han) + ' ' + 'a'.repeat(latin));
        const want = han * 4 + latin < 20 ? undefined : han >= latin ? 'zh' : 'en';
        assert.equal(got, want);
      }),
    );
  });

  it('reads mixed text by its letters: Chinese with English terms stays Chinese', () => {
    assert.equal(proseLanguage('本周 NDVI 偏低，建议在 7 月中旬喷施 KH2PO4（磷酸二氢钾）叶面肥，每亩 100 g。'), 'zh');
    assert.equal(proseLanguage('The 稻飞虱 (brown planthopper) count rose after the rain; spray before Friday.'), 'en');
  });

  it('leaves out code, front matter, URLs, citations and comments', () => {
    const code = '```js\n' + 'const weatherBriefFromTheForecast = fetchEverything();\n'.repeat(5) + '```\n';
    assert.equal(proseLanguage(`# 简报\n\n${code}\n${ZH}\n`), 'zh');
    const tilde = '~~~~\n' + 'English words inside a tilde fence\n'.repeat(3) + '~~~~\n';
    assert.equal(proseLanguage(`${tilde}${ZH}`), 'zh');
    const indented = '    some indented code with many english letters in it\n';
    assert.equal(proseLanguage(`${ZH}\n\n${indented}`), 'zh');
    const spans =
      '用 `insertWeatherBriefCommandWithLongName` 插入天气，再看 https://example.com/very/long/english/path?query=words 和 <https://another.example.org/path>。';
    assert.equal(letterCounts(proseOf(spans)).latin, 0);
    assert.equal(proseLanguage(`${ZH}\n\n${spans}`), 'zh');
    const refs =
      'Prune the tea garden before the spring flush.[^1] Weed shallowly 〔茶树农事操作大全第一卷.docx#1〕.\n\n' +
      '## 参考资料\n\n[^1]: 茶树农事操作大全第一卷第二章春季管理.docx#1 — 茶树管理知识库 (TEA_MANAGER_001)\n';
    assert.equal(proseLanguage(refs), 'en');
    assert.equal(
      proseLanguage(
        '---\ntitle: "成都农情简报成都农情简报成都农情简报"\n---\n\nShort English note here, enough letters.',
      ),
      'en',
    );
    assert.equal(
      proseLanguage('<!-- Run "Shunong: Insert Weather Brief" to insert the weather here. -->\n简报。'),
      undefined,
    );
    const link = '![作物识别标注图](<images/recognition/tea-annotated-photograph.png>) 茶芽计数。';
    assert.doesNotMatch(proseOf(link), /annotated|photograph/);
  });

  it('an unclosed fence hides the rest, as it does in Markdown', () => {
    assert.equal(proseLanguage(`${ZH}\n\`\`\`\nEnglish text that is all code until the end of the file\n`), 'zh');
  });
});

describe('bulletin/language: what counts as prose, exactly', () => {
  it('a fence closes only with its own character, at least as long, and nothing after it', () => {
    const hidden = (fence: string, close: string): string => proseOf(`${fence}\ncode\n${close}\n茶园\n`);
    assert.equal(hidden('```', '```'), '茶园\n');
    assert.equal(hidden('````', '`````'), '茶园\n', 'a longer closing fence closes');
    assert.equal(hidden('   ```', '```'), '茶园\n', 'up to three spaces before a fence');
    for (const [fence, close] of [
      ['```', '~~~'],
      ['~~~', '```'],
      ['````', '```'],
      ['```', '```js'],
    ])
      assert.equal(hidden(fence!, close!), '', `${fence} is not closed by ${close}`);
    assert.match(proseOf('茶园 ``` 管理\n下一行'), /\n下一行$/, 'backticks inside a line open no fence');
  });

  it('indented code is left out, an indented list item is not', () => {
    assert.equal(proseOf('    code line'), '');
    assert.equal(proseOf('\tcode line'), '');
    assert.equal(proseOf('    -no space: code'), '');
    assert.equal(
      proseOf('    code - with 1. inside'),
      '',
      'a list marker inside the line does not make it a list item',
    );
    for (const item of ['    - 修剪', '    * 修剪', '    + 修剪', '    1. 修剪', '    12) 修剪', '\t- 修剪'])
      assert.equal(proseOf(item), item, item);
    assert.equal(proseOf('茶园    管理'), '茶园    管理', 'four spaces inside a line are prose');
  });

  it('a footnote definition line is left out, wherever its label; a reference inside prose is blanked', () => {
    assert.equal(proseOf('[^1]: 手册.docx#3\n   [^note]: 手册.docx#4\n茶园'), '茶园');
    assert.equal(proseOf('    [^ab]: x'), '', 'indented four: code');
    assert.equal(proseOf('茶园[^1]: 管理'), '茶园 : 管理', 'not at the line start: a reference in prose');
    assert.equal(proseOf('茶园[^ab]管理[^a b]'), '茶园 管理[^a b]', 'a label has no spaces');
  });

  it('each left-out part becomes one space, the rest stays as written', () => {
    const cases: [string, string][] = [
      ['茶<!-- note\nmore -->园', '茶 园'],
      ['茶`a`园``b ` c``树', '茶 园 树'],
      ['茶〔手册.docx#1〕园〔〕树〔a〔b〕', '茶 园 树〔a '],
      ['见[手册](docs/a.md)和[图](b.png "标题")与[c](d "e" f)', '见[手册] 和[图] 与[c](d "e" f)'],
      ['见[图](b.png   "标题")', '见[图] '],
      ['茶<br>园<b>树< c>', '茶 园 树< c>'],
      ['见 http://a.cn/x 与 HTTPS://b.cn(c) ftp://f file:///g mailto:h@i.cn 止', '见   与  (c)       止'],
      ['见 www.a.cn/x 与 WWW.b.cn(c) 止', '见   与  (c) 止'],
      ['第一行\n第二行', '第一行\n第二行'],
    ];
    for (const [text, prose] of cases) assert.equal(proseOf(text), prose, text);
  });

  it('front matter is not prose', () => {
    assert.equal(proseOf('---\ntitle: 茶\n---\n园'), '园');
  });

  it('reads a tag only when it is the whole value', () => {
    for (const tag of ['x-en', 'en!', 'zh?', '1zh', ' e n ']) assert.equal(langOfTag(tag), undefined, tag);
    for (const tag of [' en ', '\tzh-CN\t', ' "en-GB" ']) assert.notEqual(langOfTag(tag), undefined, tag);
  });
});
