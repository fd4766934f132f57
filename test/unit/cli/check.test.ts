import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../src/cli/main';
import { escapeRegExp } from '../../../src/text/regExp';

const fx = (name: string): string => join('test', 'unit', 'citations', 'fixtures', name);

async function run(args: string[]): Promise<{ code: number; out: string[]; err: string }> {
  let out = '';
  let err = '';
  const code = await main(['check', ...args], { stdout: (s) => (out += s), stderr: (s) => (err += s) }, {});
  return { code, out: out.split('\n').filter((l) => l !== ''), err };
}

describe('shunong check (offline)', () => {
  it('exits 0 and prints nothing for a clean bulletin', async () => {
    const r = await run([fx('clean.md')]);
    assert.equal(r.code, 0);
    assert.deepEqual(r.out, []);
    assert.equal(r.err, '');
  });

  it('prints one exact line per problem and exits 1', async () => {
    const f = fx('problems.md');
    const r = await run([fx('clean.md'), f]);
    assert.equal(r.code, 1);
    assert.deepEqual(r.out, [
      `${f}:3:27 Malformed inline citation "茶树.docx#abc": "abc" is not a non-negative integer chunk_index`,
      `${f}:5:13 [^x] Footnote [^x] has no definition.`,
      `${f}:8:1 [^a] Footnote [^a] is defined more than once; only the first definition counts.`,
      `${f}:13:1 [^2] Citation [^2] cites the same source as [^1] (茶树农事操作.docx#1).`,
      `${f}:14:7 [^3] Malformed citation "茶树施肥.docx#-1" in [^3]: "-1" is not a non-negative integer chunk_index`,
      `${f}:15:1 [^4] Citation [^4] (茶树修剪.docx#4) is defined but never used.`,
    ]);
    assert.equal(r.err, 'shunong check: 6 problems in 1 of 2 files\n');
  });

  it('exits 2 on usage errors and unreadable files', async () => {
    const none = await run([]);
    assert.equal(none.code, 2);
    assert.equal(none.err, 'usage: shunong check <files…>\n');
    const opt = await run(['--fix', fx('clean.md')]);
    assert.equal(opt.code, 2);
    const missing = await run([fx('nope.md'), fx('problems.md')]);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /cannot read .*nope\.md: ENOENT/);
    assert.equal(missing.out.length, 6);
  });

  it("--help prints the check's options and exit codes on stdout and exits 0", async () => {
    for (const args of [['--help'], ['-h', fx('clean.md')]]) {
      const r = await run(args);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out.join('\n'), /^usage: shunong check <files…> \[--cache <file>\] \[--online/);
      assert.match(r.out.join('\n'), /--cache <file>/);
      assert.equal(r.err, '');
    }
  });
});

describe('shunong check: pesticide safety', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'shunong-check-safety-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Beijing noon of a day, the CLI's clock. */
  const at = (day: string) => (): number => Date.parse(`${day}T12:00:00+08:00`);
  const file = (name: string, text: string): string => {
    const f = join(dir, name);
    writeFileSync(f, text);
    return f;
  };
  async function check(args: string[], now = at('2026-12-02')): Promise<{ code: number; out: string[]; err: string }> {
    let out = '';
    let err = '';
    const code = await main(['check', ...args], { stdout: (s) => (out += s), stderr: (s) => (err += s) }, {}, now);
    return { code, out: out.split('\n').filter((l) => l !== ''), err };
  }
  const CARBOFURAN = '---\ndate: 2026-12-02\n---\n\n# 地下害虫防治\n\n玉米播种时可用3%克百威颗粒剂沟施，防治蛴螬。\n';

  it('reports a banned pesticide a bulletin recommends as a problem line (exit 1)', async () => {
    const f = file('玉米.md', CARBOFURAN);
    const r = await check([f]);
    assert.equal(r.code, 1);
    assert.deepEqual(r.out, [
      `${f}:7:10 error [carbofuran-736] 克百威 (carbofuran) is banned: its sale and use are prohibited from 2026-06-01 (Announcement No. 736).`,
    ]);
    assert.equal(r.err, 'shunong check: 1 problem in 1 of 1 file\n');
  });

  it('reports a date: that is not a day on its line, says it used today, and applies the rules on today', async () => {
    const f = file(
      '玉米.md',
      '---\ntitle: 玉米\ndate: 2026年6月31日\n---\n\n玉米播种时可用3%克百威颗粒剂沟施，防治蛴螬。\n',
    );
    const r = await check([f], () => Date.parse('2026-12-02T12:00:00+08:00'));
    assert.equal(r.code, 1, 'the ban in force today is a problem');
    assert.deepEqual(r.out, [
      `${f}:3:7 warning [bulletin/date] date: "2026年6月31日" is not a date; the pesticide rules were applied on 2026-12-02 (today) instead. Write it as YYYY-MM-DD.`,
      `${f}:6:10 error [carbofuran-736] 克百威 (carbofuran) is banned: its sale and use are prohibited from 2026-06-01 (Announcement No. 736).`,
    ]);
    assert.match(r.err, /1 problem in 1 of 1 file; 1 note/);
  });

  it('takes today from the injected clock, in Beijing, for a bulletin without a date', async () => {
    const f = file('玉米.md', '玉米播种时可用3%克百威颗粒剂沟施，防治蛴螬。\n');
    // 2026-05-31 16:30 UTC is already 2026-06-01 in Beijing, the ban's first day
    const banned = await check([f], () => Date.parse('2026-05-31T16:30:00Z'));
    assert.equal(banned.code, 1);
    assert.match(banned.out[0] ?? '', /:1:10 error \[carbofuran-736\]/);
    const before = await check([f], () => Date.parse('2026-05-31T15:30:00Z'));
    assert.equal(before.code, 0, 'a ban coming into force is a note');
    assert.match(
      before.out[0] ?? '',
      /:1:10 information \[carbofuran-736\] 克百威 \(carbofuran\) will be banned from 2026-06-01/,
    );
  });

  it('does not report a prohibition of the same pesticides', async () => {
    const f = file('茶园.md', '---\ndate: 2026-12-02\ncrop: 茶树\n---\n\n严禁在茶园使用克百威、氧乐果等高毒农药。\n');
    const r = await check([f]);
    assert.equal(r.code, 0);
    assert.deepEqual(r.out, []);
    assert.equal(r.err, '');
  });

  it('prints a restricted-use pesticide as a note and exits 0', async () => {
    const f = file('水稻.md', '---\ndate: 2026-12-02\ncrop: 水稻\n---\n\n可用毒死蜱防治稻纵卷叶螟。\n');
    const r = await check([f]);
    assert.equal(r.code, 0);
    assert.equal(r.out.length, 1);
    assert.match(
      r.out[0]!,
      new RegExp(
        `^${escapeRegExp(f)}:6:3 information \\[chlorpyrifos-restricted-\\d+\\] 毒死蜱 \\(chlorpyrifos\\) is a restricted-use pesticide`,
      ),
    );
    assert.equal(r.err, 'shunong check: no problems; 1 note\n');
  });

  it('orders citation problems and safety findings by place, and counts the ban among the problems', async () => {
    const f = file('混合.md', `${CARBOFURAN}\n甲[^9]。\n`);
    const r = await check([f]);
    assert.equal(r.code, 1);
    assert.deepEqual(
      r.out.map((l) => l.slice(f.length + 1, f.length + 5)),
      ['7:10', '9:2 '],
    );
    assert.equal(r.err, 'shunong check: 2 problems in 1 of 1 file\n');
  });

  it('--rules: a station file adds a rule, which is reported', async () => {
    const rules = file(
      'station.json',
      JSON.stringify(
        {
          rules: [
            {
              id: 'station-glyphosate-1',
              substance: '草甘膦',
              en: 'glyphosate',
              names: ['草甘膦', 'glyphosate'],
              kind: 'banned',
              effective: '2026-10-01',
              announcement: '县农业农村局通知第1号',
            },
          ],
        },
        null,
        2,
      ),
    );
    const f = file('除草.md', '---\ndate: 2026-12-02\n---\n\n田埂可用草甘膦除草。\n');
    assert.equal((await check([f])).code, 0, 'the shipped rules do not ban it');
    const r = await check([f, '--rules', rules]);
    assert.equal(r.code, 1, r.err);
    assert.deepEqual(r.out, [
      `${f}:5:5 error [station-glyphosate-1] 草甘膦 (glyphosate) is banned: its sale and use are prohibited from 2026-10-01 (县农业农村局通知第1号).`,
    ]);
    const shipped = await check([file('玉米.md', CARBOFURAN), '--rules', rules]);
    assert.equal(shipped.code, 1, 'the shipped rules stay in force beside it');
  });

  it('--rules: a file that cannot be used is reported on its line, and the check exits 2', async () => {
    const rules = file(
      'bad.json',
      '{\n  "rules": [\n    { "id": "x", "substance": "某", "names": ["某"], "kind": "banned",\n      "effective": "2026/01/01", "announcement": "通知" }\n  ]\n}\n',
    );
    const f = file('玉米.md', CARBOFURAN);
    const r = await check([f, '--rules', rules]);
    assert.equal(r.code, 2);
    assert.deepEqual(r.out, [], 'nothing checked with half the rules');
    assert.match(
      r.err,
      new RegExp(`^${escapeRegExp(rules)}:4:20 rules\\.0\\.effective: a date is written YYYY-MM-DD`, 'm'),
    );
    assert.match(r.err, /the rules file .*bad\.json cannot be used/);
    const json = await check([f, '--rules', file('broken.json', '{\n  "rules": [,\n}\n')]);
    assert.equal(json.code, 2);
    assert.match(json.err, /broken\.json:2:\d+ not JSON/);
    const missing = await check([f, '--rules', join(dir, 'nope.json')]);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /cannot read the rules file .*nope\.json: ENOENT/);
    const bare = await check([f, '--rules']);
    assert.equal(bare.code, 2);
    assert.match(bare.err, /--rules needs a value/);
  });

  it('--help says how safety findings read and what --rules does', async () => {
    const r = await check(['--help']);
    assert.equal(r.code, 0);
    assert.match(r.out.join('\n'), /--rules <file>/);
    assert.match(r.out.join('\n'), /exits 2/);
  });
});
