/**
 * `shunong check` on a front matter YAML rejects or refuses: a warning on its line
 * (`bulletin/front-matter`) in the line format, JSON and SARIF (valid, its rule described), in the
 * terminal's language; a note, so the exit code stays 0, and the fields are still read line by line.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Log } from 'sarif';
import { main } from '../../../src/cli/main';
import { sarifErrors } from './sarif';

/** An unquoted title with a second colon (YAML rejects it), over a body that recommends nothing. */
const REJECTED = `---
title: 2026年第12期: 稻飞虱
date: 2026-08-05
---

# 稻飞虱

本周稻飞虱虫量较低，各地注意田间调查。
`;

const QUOTED = REJECTED.replace('title: 2026年第12期: 稻飞虱', 'title: "2026年第12期: 稻飞虱"');

const BOMB = `---
title: 稻飞虱
a: &a [x, x, x, x, x, x, x, x, x]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
c: [*b, *b, *b, *b, *b, *b, *b, *b, *b]
---

正文。
`;

const NOW = (): number => Date.parse('2026-12-02T12:00:00+08:00');

async function run(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (s) => (out += s), stderr: (s) => (err += s) }, env, NOW);
  return { code, out, err };
}

describe('shunong check: a front matter YAML rejects or refuses', () => {
  let dir: string;
  let cwd: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'shunong-front-matter-'));
    cwd = process.cwd();
    process.chdir(dir);
    writeFileSync('rejected.md', REJECTED);
    writeFileSync('quoted.md', QUOTED);
    writeFileSync('bomb.md', BOMB);
  });
  afterEach(() => {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
  });

  it('line: a warning on the line YAML rejects, with its reason, counted as a note (exit 0)', async () => {
    const r = await run(['check', 'rejected.md']);
    assert.equal(r.code, 0);
    assert.match(
      r.out,
      /^rejected\.md:2:\d+ warning \[bulletin\/front-matter\] YAML cannot read this front matter \(.*mapping.*\); its fields were read one "key: value" a line\. Quote a value that holds a colon: title: "…"\.\n$/,
    );
    assert.equal(r.err, 'shunong check: no problems; 1 note\n');
    const zh = await run(['check', 'rejected.md'], { LANG: 'zh_CN.UTF-8' });
    assert.match(zh.out, /^rejected\.md:2:\d+ warning \[bulletin\/front-matter\] YAML 无法读取此前置元数据/);
  });

  it('is quiet once the value is quoted', async () => {
    assert.deepEqual(await run(['check', 'quoted.md']), { code: 0, out: '', err: '' });
  });

  it('refuses an alias bomb on its line; json and sarif carry it, the rule described', async () => {
    const json = await run(['check', 'bomb.md', '--format', 'json']);
    assert.equal(json.code, 0);
    const doc = JSON.parse(json.out) as { findings: { line: number; rule: string; message: string }[] };
    assert.deepEqual(
      doc.findings.map((f) => [f.line, f.rule, f.message]),
      [
        [
          5,
          'bulletin/front-matter',
          'This front matter field repeats its aliases more than 50 times; it was not read.',
        ],
      ],
    );
    const sarif = await run(['check', 'bomb.md', 'rejected.md', '--format', 'sarif']);
    const log = JSON.parse(sarif.out) as Log;
    assert.equal(sarifErrors(log), '');
    const rules = log.runs[0]!.tool.driver.rules ?? [];
    assert.deepEqual(
      rules.map((x) => [x.id, x.shortDescription?.text]),
      [
        [
          'bulletin/front-matter',
          "A bulletin's front matter that YAML cannot read, or refuses (too deep, too many aliases).",
        ],
      ],
    );
    assert.deepEqual(
      (log.runs[0]!.results ?? []).map((x) => [x.ruleIndex, x.level]),
      [
        [0, 'warning'],
        [0, 'warning'],
      ],
    );
  });
});
