/** `shunong export`: files written, never overwritten without --force, exit codes, warnings on stderr. */
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../src/cli/main';
import { PHOTO, readDocx, SAMPLE } from '../publish/helpers';
import { blankStyles, template } from '../publish/template';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (s: string) => out.push(s), stderr: (s: string) => err.push(s) } };
}

describe('cli: shunong export', () => {
  let dir: string;
  let cwd: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'shunong-export-'));
    mkdirSync(join(dir, 'bulletins'));
    mkdirSync(join(dir, 'images', 'recognition'), { recursive: true });
    writeFileSync(join(dir, 'images', 'recognition', 'tea-buds.jpg'), PHOTO);
    // the bulletin sits in a subfolder: its picture link is found from the workspace root
    writeFileSync(join(dir, 'bulletins', '周报.md'), SAMPLE);
    cwd = process.cwd();
    process.chdir(dir);
  });
  afterEach(() => {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes a Word file beside the bulletin (exit 0), and refuses to overwrite it without --force (exit 1)', async () => {
    const a = io();
    assert.equal(await main(['export', 'bulletins/周报.md', '--to', 'docx'], a.io, {}), 0, a.err.join(''));
    const out = join(dir, 'bulletins', '周报.docx');
    assert.deepEqual(a.out, [`${out}\n`]);
    assert.equal(a.err.join(''), '', 'no warning: the picture was found from the workspace root');
    const docx = await readDocx(new Uint8Array(readFileSync(out)));
    assert.equal(docx.footnotes.length, 7);
    assert.ok(docx.files.some((f) => f.startsWith('word/media/')));

    const before = readFileSync(out);
    const b = io();
    assert.equal(await main(['export', 'bulletins/周报.md', '--to', 'docx'], b.io, {}), 1);
    assert.match(b.err.join(''), /exists; give --force to overwrite it/);
    assert.deepEqual(readFileSync(out), before, 'the file is untouched');
    const f = io();
    assert.equal(await main(['export', 'bulletins/周报.md', '--to', 'docx', '--force=false'], f.io, {}), 2);
    assert.match(f.err.join(''), /--force takes no value/);
    assert.deepEqual(readFileSync(out), before, '--force=false does not overwrite');
    const c = io();
    assert.equal(await main(['export', '--force', 'bulletins/周报.md', '--to=docx'], c.io, {}), 0);
    assert.equal(readFileSync(join(dir, 'bulletins', '周报.md'), 'utf8'), SAMPLE, 'the bulletin never changes');
  });

  it('writes the official layout with --layout official; the flag wins over the front matter, a bad value is a usage error', async () => {
    const official = SAMPLE.replace('lang: zh-CN', 'lang: zh-CN\nlayout: official');
    writeFileSync(join(dir, 'bulletins', '周报.md'), official);
    const out = join(dir, 'bulletins', '周报.docx');
    const a = io();
    assert.equal(await main(['export', 'bulletins/周报.md', '--to', 'docx'], a.io, {}), 0, a.err.join(''));
    assert.ok((await readDocx(new Uint8Array(readFileSync(out)))).files.includes('word/footer1.xml'), 'front matter');
    const b = io();
    assert.equal(
      await main(['export', 'bulletins/周报.md', '--to', 'docx', '--force', '--layout', 'standard'], b.io, {}),
      0,
    );
    assert.ok(!(await readDocx(new Uint8Array(readFileSync(out)))).files.includes('word/footer1.xml'), 'the flag wins');
    writeFileSync(join(dir, 'bulletins', '周报.md'), SAMPLE);
    const c = io();
    assert.equal(
      await main(['export', 'bulletins/周报.md', '--to', 'docx', '--force', '--layout=official'], c.io, {}),
      0,
    );
    assert.match((await readDocx(new Uint8Array(readFileSync(out)))).document, /<w:pgMar w:top="2098"/);
    const d = io();
    assert.equal(await main(['export', 'bulletins/周报.md', '--to', 'docx', '--layout', 'gb'], d.io, {}), 2);
    assert.match(d.err.join(''), /--layout must be standard or official, not "gb"/);
  });

  it('says what is wrong with a template it cannot use (exit 1), and writes nothing', async () => {
    writeFileSync(
      join(dir, 'zip-only.docx'),
      await template({ 'word/document.xml': null, 'word/styles.xml': blankStyles() }),
    );
    writeFileSync(join(dir, 'broken.docx'), await template({ 'word/styles.xml': '<w:styles xmlns:w="x"><w:style>' }));
    const a = io();
    assert.equal(
      await main(['export', 'bulletins/周报.md', '--to', 'docx', '--template', 'zip-only.docx'], a.io, {}),
      1,
    );
    assert.match(a.err.join(''), /template zip-only\.docx cannot be used: .*no word\/document\.xml/);
    const b = io();
    assert.equal(await main(['export', 'bulletins/周报.md', '--to', 'docx', '--template', 'broken.docx'], b.io, {}), 1);
    assert.match(
      b.err.join(''),
      /template broken\.docx cannot be used: its word\/styles\.xml is not well-formed .*line \d+, column \d+/,
    );
    assert.ok(!existsSync(join(dir, 'bulletins', '周报.docx')), 'no export was written');
  });

  it('writes the WeChat article and the page where -o says, and reports a missing picture on stderr', async () => {
    rmSync(join(dir, 'images'), { recursive: true });
    const a = io();
    assert.equal(await main(['export', 'bulletins/周报.md', '--to', 'wechat', '-o', 'out/wechat.html'], a.io, {}), 0);
    assert.ok(existsSync(join(dir, 'out', 'wechat.html')));
    assert.equal(
      a.err.join(''),
      'bulletins/周报.md: Line 24: picture not found, left out: images/recognition/tea-buds.jpg\n',
    );
    const b = io();
    assert.equal(await main(['export', 'bulletins/周报.md', '--to', 'html'], b.io, {}), 0);
    assert.match(readFileSync(join(dir, 'bulletins', '周报.html'), 'utf8'), /class="footnote-item"/);
  });

  it("writes a WeChat article's pictures beside it, in order, named as the article names them (as the editor does)", async () => {
    const a = io();
    assert.equal(await main(['export', 'bulletins/周报.md', '--to', 'wechat'], a.io, {}), 0);
    const article = join(dir, 'bulletins', '周报.wechat.html');
    const picture = join(dir, 'bulletins', '周报.wechat-1.jpeg');
    assert.deepEqual(a.out.join('').split('\n').filter(Boolean), [article, picture]);
    assert.ok(readFileSync(picture).equals(Buffer.from(PHOTO)), 'the picture is the one the bulletin shows');
    // With the station's host, the article points there; the file beside it is what to upload.
    const b = io();
    assert.equal(
      await main(
        ['export', 'bulletins/周报.md', '--to', 'wechat', '--force', '--image-base-url', 'https://example.org/pics/'],
        b.io,
        {},
      ),
      0,
    );
    assert.match(
      readFileSync(article, 'utf8'),
      /src="https:\/\/example\.org\/pics\/%E5%91%A8%E6%8A%A5\.wechat-1\.jpeg"/,
    );
    // An existing picture is not overwritten without --force: the export says so and fails.
    const c = io();
    rmSync(article);
    assert.equal(await main(['export', 'bulletins/周报.md', '--to', 'wechat'], c.io, {}), 1);
    assert.match(c.err.join(''), /周报\.wechat-1\.jpeg exists; give --force to overwrite it/);
    assert.ok(!existsSync(article), 'nothing is written: no article without its pictures');
  });

  it('refuses broken citations with --refuse-broken (exit 1), else exports with a warning listing them', async () => {
    writeFileSync(join(dir, 'broken.md'), '# T\n\n甲[^9]，乙〔a.docx#x〕。\n');
    const a = io();
    assert.equal(await main(['export', 'broken.md', '--to', 'docx', '--refuse-broken'], a.io, {}), 1);
    assert.match(a.err.join(''), /broken\.md:3:2 \[\^9\] Footnote \[\^9\] has no definition\./);
    assert.match(a.err.join(''), /refused: 2 broken citation/);
    assert.ok(!existsSync(join(dir, 'broken.docx')), 'nothing written');
    const b = io();
    assert.equal(await main(['export', 'broken.md', '--to', 'docx'], b.io, {}), 0);
    assert.match(b.err.join(''), /broken\.md: Line 3: broken citation: Footnote \[\^9\] has no definition\./);
  });

  it('refuses a bulletin recommending a banned pesticide with --refuse-unsafe (exit 1), else exports it listing the mention', async () => {
    writeFileSync(join(dir, '玉米.md'), '# 地下害虫防治\n\n玉米播种时可用3%克百威颗粒剂沟施，防治蛴螬。\n');
    const today = (): number => Date.parse('2026-12-02T12:00:00+08:00');
    const line =
      '玉米.md:3:10 error [carbofuran-736] 克百威 (carbofuran) is banned: its sale and use are prohibited from 2026-06-01 (Announcement No. 736).\n';
    const a = io();
    assert.equal(await main(['export', '玉米.md', '--to', 'html', '--refuse-unsafe'], a.io, {}, today), 1);
    assert.deepEqual(a.err, [line, 'shunong export: refused: 1 banned pesticide mention(s) (--refuse-unsafe)\n']);
    assert.ok(!existsSync(join(dir, '玉米.html')), 'nothing written');
    const b = io();
    assert.equal(await main(['export', '玉米.md', '--to', 'html'], b.io, {}, today), 0);
    assert.deepEqual(b.err, [line]);
    assert.ok(existsSync(join(dir, '玉米.html')));
    // the rules in force on the day: before the ban there is nothing to refuse
    const c = io();
    const before = (): number => Date.parse('2026-05-31T12:00:00+08:00');
    assert.equal(await main(['export', '玉米.md', '--to', 'html', '--refuse-unsafe', '--force'], c.io, {}, before), 0);
    assert.deepEqual(c.err, []);
    // a prohibition is no recommendation
    writeFileSync(join(dir, '茶园.md'), '# 茶园\n\n严禁在茶园使用克百威、氧乐果等高毒农药。\n');
    const d = io();
    assert.equal(await main(['export', '茶园.md', '--to', 'html', '--refuse-unsafe'], d.io, {}, today), 0);
    assert.deepEqual(d.err, []);
  });

  it('answers usage errors with exit 2 and the usage', async () => {
    for (const argv of [
      ['export'],
      ['export', 'bulletins/周报.md'],
      ['export', 'bulletins/周报.md', '--to', 'odt'],
      ['export', 'a.md', 'b.md', '--to', 'docx'],
      ['export', 'bulletins/周报.md', '--to', 'docx', '--bogus'],
    ]) {
      const a = io();
      assert.equal(await main(argv, a.io, {}), 2, argv.join(' '));
      assert.match(a.err.join(''), /usage: shunong export/);
    }
    const h = io();
    assert.equal(await main(['export', '--help'], h.io, {}), 0);
    assert.match(h.out.join(''), /--to <format>/);
    assert.match(h.out.join(''), /--refuse-unsafe/);
    const missing = io();
    assert.equal(await main(['export', 'nope.md', '--to', 'docx'], missing.io, {}), 1);
    assert.match(missing.err.join(''), /cannot read nope\.md: ENOENT/);
  });
});
