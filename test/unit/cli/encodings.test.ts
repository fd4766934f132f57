/**
 * `shunong check` and `shunong export` on bulletins saved the way Chinese Windows saves them: the
 * same bulletin in UTF-8, UTF-8 with a BOM, GB18030, UTF-16 LE and BE gives the same findings and
 * the same Word and HTML files; bytes that are none of these are refused (exit 2), never checked or
 * exported. The bytes are written by iconv-lite, independent of the reader's `TextDecoder`.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { main } from '../../../src/cli/main';

/** A bulletin that recommends 氧化乐果 on maize, with a citation problem beside it. */
const BULLETIN = `---
title: 玉米螟防治意见
date: 2026-07-10
---

# 玉米螟防治意见

大喇叭口期亩用40%氧化乐果乳油50毫升兑水30公斤喷雾[^1]。

亦可选用20%氯虫苯甲酰胺悬浮剂〔玉米病虫害防治.docx#abc〕。

[^1]: 玉米病虫害防治.docx#4
`;

const SAVED: { name: string; encoding: string; bom: boolean; note: string }[] = [
  { name: 'utf-8', encoding: 'utf8', bom: false, note: '' },
  { name: 'utf-8 with BOM', encoding: 'utf8', bom: true, note: '' },
  { name: 'gb18030', encoding: 'gb18030', bom: false, note: 'read as GB18030' },
  { name: 'utf-16le', encoding: 'utf16le', bom: true, note: 'read as UTF-16 LE' },
  { name: 'utf-16be', encoding: 'utf16be', bom: true, note: 'read as UTF-16 BE' },
];

/** Beijing noon of the bulletin's day: the CLI's clock, so the Word file's dates are the same each run. */
const NOW = (): number => Date.parse('2026-07-10T12:00:00+08:00');

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (s) => (out += s), stderr: (s) => (err += s) }, {}, NOW);
  return { code, out, err };
}

describe('cli: bulletins saved as GB18030 and UTF-16', () => {
  let dir: string;
  let cwd: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'shunong-encodings-'));
    cwd = process.cwd();
    process.chdir(dir);
  });
  afterEach(() => {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
  });

  /** The bulletin saved as `s` under one name, so every line of output names the same file. */
  const save = (s: (typeof SAVED)[number], text = BULLETIN): string => {
    writeFileSync(join(dir, '玉米.md'), iconv.encode(text, s.encoding, { addBOM: s.bom }));
    return '玉米.md';
  };

  it('check gives the same findings and exit code in every encoding, and says once which one it read', async () => {
    const utf8 = await run(['check', save(SAVED[0]!)]);
    assert.equal(utf8.code, 1);
    assert.match(utf8.out, /玉米\.md:8:\d+ error \[omethoate-\d+\]/, 'the ban is found in the UTF-8 file');
    assert.match(utf8.out, /玉米\.md:10:\d+ Malformed inline citation/);
    for (const s of SAVED.slice(1)) {
      const r = await run(['check', save(s)]);
      assert.equal(r.code, utf8.code, s.name);
      assert.equal(r.out, utf8.out, s.name);
      const note = s.note ? `玉米.md: ${s.note}\n` : '';
      assert.equal(r.err, `${note}${utf8.err}`, s.name);
    }
  });

  it('export writes the same HTML page and Word file in every encoding (in UTF-8)', async () => {
    const outputs = new Map<string, { html: Buffer; docx: Buffer }>();
    for (const s of SAVED) {
      save(s);
      const html = await run(['export', '玉米.md', '--to', 'html', '-o', `${s.name}.html`]);
      const docx = await run(['export', '玉米.md', '--to', 'docx', '-o', `${s.name}.docx`]);
      assert.equal(html.code, 0, html.err);
      assert.equal(docx.code, 0, docx.err);
      if (s.note) assert.equal(html.err.split('\n').filter((l) => l.includes('read as')).length, 1, 'said once');
      assert.ok(html.err.includes(s.note), s.name);
      outputs.set(s.name, { html: readFileSync(`${s.name}.html`), docx: readFileSync(`${s.name}.docx`) });
    }
    const first = outputs.get('utf-8')!;
    assert.match(first.html.toString('utf8'), /<h1[^>]*>玉米螟防治意见<\/h1>/, 'the page is UTF-8, not mojibake');
    for (const [name, o] of outputs) {
      assert.deepEqual(o.html, first.html, name);
      assert.deepEqual(o.docx, first.docx, name);
    }
  });

  it('refuses bytes that are neither UTF-8, UTF-16 with its mark nor GB18030: exit 2, naming the file, nothing written', async () => {
    // GB18030 lead bytes with no valid trail, and UTF-16 without its byte order mark
    const broken: [string, Buffer][] = [
      ['坏.md', Buffer.concat([iconv.encode('# 玉米\n', 'gb18030'), Buffer.from([0x81, 0x20, 0xff, 0x0a])])],
      ['无标记.md', iconv.encode(BULLETIN, 'utf16le')],
    ];
    for (const [name, bytes] of broken) {
      writeFileSync(join(dir, name), bytes);
      const c = await run(['check', name]);
      assert.equal(c.code, 2, name);
      assert.equal(c.out, '', 'nothing checked');
      assert.match(
        c.err,
        new RegExp(
          `^shunong check: cannot read ${name}: its bytes are not UTF-8, UTF-16 with a byte order mark or GB18030 text; save it as UTF-8`,
        ),
      );
      const e = await run(['export', name, '--to', 'html', '-o', 'out.html']);
      assert.equal(e.code, 2, name);
      assert.match(e.err, new RegExp(`^shunong export: cannot read ${name}: its bytes are not UTF-8`));
      assert.ok(!existsSync(join(dir, 'out.html')), 'nothing exported');
    }
  });

  it('check --rules reads a station rules file saved as GB18030 or UTF-16, and says so', async () => {
    const rules = JSON.stringify({
      version: 1,
      rules: [
        {
          id: 'station-test-1',
          substance: '测试磷',
          names: ['测试磷'],
          kind: 'banned',
          effective: '2020-01-01',
          announcement: '本站规定',
        },
      ],
    });
    const text = '---\ndate: 2026-07-10\n---\n\n玉米亩用测试磷乳油50毫升喷雾。\n';
    writeFileSync(join(dir, 'b.md'), text);
    for (const s of SAVED) {
      writeFileSync(join(dir, 'rules.json'), iconv.encode(rules, s.encoding, { addBOM: s.bom }));
      const r = await run(['check', 'b.md', '--rules', 'rules.json']);
      assert.equal(r.code, 1, `${s.name}: ${r.err}`);
      assert.match(r.out, /b\.md:5:\d+ error \[station-test-1\]/, s.name);
      assert.equal(r.err.includes(`rules.json: ${s.note}`), s.note !== '', s.name);
    }
  });
});
