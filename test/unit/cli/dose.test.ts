/**
 * `shunong check` and doses: a cited dose that differs from its passage (kept in the `--cache`
 * file, read offline too) is a problem (exit 1) in the line format, JSON and SARIF; a passage not
 * at hand and a dose without a source are notes (exit 0); a silencing comment counts as neither.
 * `shunong export` lists a wrong dose on stderr as it does a banned pesticide, and refuses it with
 * `--refuse-unsafe` ("a wrong dose must not be published").
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Log } from 'sarif';
import { main } from '../../../src/cli/main';
import { sarifErrors } from './sarif';

const PASSAGE =
  '防治稻纵卷叶螟，每亩用20%氯虫苯甲酰胺悬浮剂10-15毫升，兑水30公斤喷雾。氯虫苯甲酰胺安全间隔期7天，每季最多使用2次。';

const BULLETIN = `---
date: 2026-07-15
---

# 稻纵卷叶螟防治

每亩用20%氯虫苯甲酰胺悬浮剂30毫升，兑水30公斤喷雾[^1]。

氯虫苯甲酰胺安全间隔期7天[^1]。

每亩用25%吡蚜酮可湿性粉剂20克喷雾防治稻飞虱。

## 参考资料

[^1]: 水稻病虫防控#2 — 水稻 (RICE_001)
`;

const CACHE = {
  version: 1,
  passages: {
    version: 1,
    entries: [
      {
        citation: '水稻病虫防控#2',
        kbCode: 'RICE_001',
        kbName: '水稻',
        query: '稻纵卷叶螟',
        score: 0.9,
        scoreType: 'rerank',
        retrievedAt: '2026-07-10T08:00:00+08:00',
        content: PASSAGE,
      },
    ],
  },
  verify: {},
};

const NOW = (): number => Date.parse('2026-07-15T12:00:00+08:00');

async function run(args: string[], env: Record<string, string> = {}) {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (s) => (out += s), stderr: (s) => (err += s) }, env, NOW);
  return { code, out, err };
}

/**
 * For each test of the suite: a fresh folder as the current one, holding the bulletin and the
 * cache file; removed after. Returns the folder's path as of the running test.
 */
function scratch(prefix: string): { readonly path: string } {
  const at = { path: '' };
  let cwd = '';
  beforeEach(() => {
    at.path = mkdtempSync(join(tmpdir(), prefix));
    cwd = process.cwd();
    process.chdir(at.path);
    writeFileSync('稻.md', BULLETIN);
    writeFileSync('cache.json', JSON.stringify(CACHE));
  });
  afterEach(() => {
    process.chdir(cwd);
    rmSync(at.path, { recursive: true, force: true });
  });
  return at;
}

describe('shunong check: doses against the cited passages', () => {
  scratch('shunong-dose-');

  it('line: a mismatch with the cached passage is a problem (exit 1); a dose without a source a note', async () => {
    const r = await run(['check', '稻.md', '--cache', 'cache.json']);
    assert.equal(r.code, 1, r.err);
    const lines = r.out.trimEnd().split('\n');
    assert.equal(lines.length, 2, r.out);
    assert.match(
      lines[0]!,
      /^稻\.md:7:16 warning \[dose-mismatch\] 氯虫苯甲酰胺: the cited passage gives dose 10-15毫升, not 30毫升/,
    );
    assert.match(lines[1]!, /^稻\.md:11:1 information \[source-needed\] /);
    assert.equal(r.err, 'shunong check: 1 problem in 1 of 1 file; 1 note\n');
  });

  it('without the passage at hand: a note that says so, never a guess (exit 0)', async () => {
    const r = await run(['check', '稻.md']);
    assert.equal(r.code, 0);
    assert.match(
      r.out,
      /稻\.md:7:16 information \[passage-not-at-hand\] The cited passage 水稻病虫防控#2 is not at hand/,
    );
    assert.doesNotMatch(r.out, /dose-mismatch/);
  });

  it('json and sarif: source dose, the code as the rule; the SARIF valid, the rule described', async () => {
    const j = await run(['check', '稻.md', '--cache', 'cache.json', '--format', 'json']);
    const doc = JSON.parse(j.out) as { findings: Array<{ rule: string; source: string; severity: string }> };
    assert.deepEqual(
      doc.findings.map((f) => [f.rule, f.source, f.severity]),
      [
        ['dose-mismatch', 'dose', 'warning'],
        ['source-needed', 'dose', 'information'],
      ],
    );
    const s = await run(['check', '稻.md', '--cache', 'cache.json', '--format', 'sarif']);
    const log = JSON.parse(s.out) as Log;
    assert.equal(sarifErrors(log), '');
    assert.deepEqual(
      log.runs[0]!.tool.driver.rules!.map((x) => x.id),
      ['dose-mismatch', 'source-needed'],
    );
    assert.deepEqual(
      log.runs[0]!.results!.map((x) => x.level),
      ['warning', 'note'],
    );
  });

  it('in Chinese, and silenced by the comment of the safety lint', async () => {
    writeFileSync(
      '稻.md',
      BULLETIN.replace('每亩用20%', '<!-- shunong-disable-next-line dose-mismatch -->\n每亩用20%'),
    );
    const r = await run(['check', '稻.md', '--cache', 'cache.json'], { LANG: 'zh_CN.UTF-8' });
    assert.equal(r.code, 0);
    assert.match(
      r.out,
      /稻\.md:8:16 silenced \[dose-mismatch\] 氯虫苯甲酰胺：所引段落给出的用量为 10-15毫升，而非 30毫升/,
    );
  });
});

describe('shunong export: a wrong dose is listed, and refused with --refuse-unsafe', () => {
  const dir = scratch('shunong-dose-export-');

  it('with --cache: the dose its passage does not give is listed on its line and the export written (exit 0)', async () => {
    const r = await run(['export', '稻.md', '--to', 'html', '--cache', 'cache.json']);
    assert.equal(r.code, 0, r.err);
    assert.ok(existsSync('稻.html'));
    const lines = r.err.trim().split('\n');
    assert.equal(lines.length, 1, r.err);
    assert.match(lines[0]!, /^稻\.md:7:\d+ warning \[dose-mismatch\] .*10-15/);
  });

  it('with --refuse-unsafe: refused (exit 1), nothing written, the reason said', async () => {
    const r = await run(['export', '稻.md', '--to', 'html', '--cache', 'cache.json', '--refuse-unsafe']);
    assert.equal(r.code, 1);
    assert.ok(!existsSync('稻.html'));
    assert.match(r.err, /\[dose-mismatch\]/);
    assert.match(r.err, /shunong export: refused: 1 wrong dose\(s\) \(--refuse-unsafe\)\n$/);
    const zh = await run(['export', '稻.md', '--to', 'html', '--cache', 'cache.json', '--refuse-unsafe'], {
      LANG: 'zh_CN.UTF-8',
    });
    assert.match(zh.err, /已拒绝：有 1 处剂量有误（--refuse-unsafe）/);
  });

  it('without --cache: the passages are not at hand, so only a dilution that does not add up is wrong', async () => {
    assert.deepEqual(await run(['export', '稻.md', '--to', 'html', '--refuse-unsafe']), {
      code: 0,
      out: `${join(dir.path, '稻.html')}\n`,
      err: '',
    });
    // dose-notation.md: "0.5%苦参碱…1500倍液喷雾（即20毫升兑水22.5千克）" is 1,125×, not 1,500×.
    writeFileSync('菜.md', '# 蚜虫\n\n用0.5%苦参碱水剂1500倍液喷雾（即20毫升兑水22.5千克）。\n');
    const r = await run(['export', '菜.md', '--to', 'html', '--refuse-unsafe']);
    assert.equal(r.code, 1);
    assert.match(r.err, /^菜\.md:3:\d+ warning \[dose-arithmetic\] /);
    writeFileSync(
      '菜.md',
      '# 蚜虫\n\n<!-- shunong-disable-next-line dose-arithmetic -->\n用0.5%苦参碱水剂1500倍液喷雾（即20毫升兑水22.5千克）。\n',
    );
    assert.equal(
      (await run(['export', '菜.md', '--to', 'html', '--refuse-unsafe'])).code,
      0,
      'silenced: the author decided',
    );
  });

  it('a cache file that is no cache is a usage error (exit 2), said, and nothing written', async () => {
    writeFileSync('cache.json', '{not json');
    const r = await run(['export', '稻.md', '--to', 'html', '--cache', 'cache.json']);
    assert.equal(r.code, 2);
    assert.match(r.err, /^shunong export: the cache cache\.json is not JSON/);
    assert.ok(!existsSync('稻.html'));
  });
});
