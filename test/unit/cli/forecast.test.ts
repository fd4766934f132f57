/**
 * `shunong check` on forecasts: each part the 2021 forecast rules require that a forecast does not
 * state is a warning on its `type:` line (`forecast-missing-<part>`), in the line format, JSON and
 * SARIF (valid against the published schema, its rules described), in the terminal's language; a
 * note, so the exit code stays 0; nothing for a complete forecast or a bulletin that is not one.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Log } from 'sarif';
import { main } from '../../../src/cli/main';
import { sarifErrors } from './sarif';

/** A 病虫情报 on 稻飞虱 that states neither the area nor the severity. */
const INCOMPLETE = `---
title: 稻飞虱发生趋势预报
type: 病虫情报
date: 2026-08-05
issuer: 德清县植保站
---

# 病虫情报（2026年第18期）

预计8月中下旬稻飞虱将迁入为害。

每亩用25%吡蚜酮可湿性粉剂20克，兑水30公斤均匀喷雾[^a]。

[^a]: 吡蚜酮产品标签。
`;

const COMPLETE = INCOMPLETE.replace('将迁入为害', '在全县单季稻区中等发生，局部偏重发生');

/** The same text as a weekly bulletin: not a forecast. */
const WEEKLY = INCOMPLETE.replace('type: 病虫情报', 'type: 周报');

const AREA_EN = 'This forecast does not state the area it covers (the 2021 forecast rules require it).';
const SEVERITY_EN =
  'This forecast does not state the severity: a level 1–5, or 轻发生, 偏轻, 中等, 偏重, 大发生 (the 2021 forecast rules require it).';

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

describe('shunong check: a forecast’s missing parts', () => {
  let dir: string;
  let cwd: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'shunong-forecast-'));
    cwd = process.cwd();
    process.chdir(dir);
    writeFileSync('预报.md', INCOMPLETE);
    writeFileSync('complete.md', COMPLETE);
    writeFileSync('weekly.md', WEEKLY);
  });
  afterEach(() => {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
  });

  it('line: a warning for each part on the type: line, counted as notes (exit 0)', async () => {
    const r = await run(['check', '预报.md']);
    assert.equal(r.code, 0);
    assert.equal(
      r.out,
      [
        `预报.md:3:1 warning [forecast-missing-area] ${AREA_EN}`,
        `预报.md:3:1 warning [forecast-missing-severity] ${SEVERITY_EN}`,
        '',
      ].join('\n'),
    );
    assert.equal(r.err, 'shunong check: no problems; 2 notes\n');
  });

  it('line: in Chinese for a zh terminal', async () => {
    const r = await run(['check', '预报.md'], { LANG: 'zh_CN.UTF-8' });
    assert.equal(r.code, 0);
    assert.equal(
      r.out.split('\n')[0],
      '预报.md:3:1 warning [forecast-missing-area] 本预报未写明发生范围（《农作物病虫害监测与预报管理办法》要求写明）。',
    );
  });

  it('is quiet on a complete forecast and on a bulletin that is not a forecast', async () => {
    for (const file of ['complete.md', 'weekly.md'])
      assert.deepEqual(await run(['check', file]), { code: 0, out: '', err: '' }, file);
  });

  it('keeps exit 1 for a problem beside them: the notes do not change it', async () => {
    writeFileSync('banned.md', INCOMPLETE.replace('25%吡蚜酮可湿性粉剂20克', '3%克百威颗粒剂2千克'));
    const r = await run(['check', 'banned.md']);
    assert.equal(r.code, 1);
    assert.equal(r.err, 'shunong check: 1 problem in 1 of 1 file; 2 notes\n');
    assert.deepEqual(
      r.out.split('\n').map((l) => /\[([^\]]+)\]/.exec(l)?.[1]),
      ['forecast-missing-area', 'forecast-missing-severity', 'carbofuran-736', undefined],
    );
  });

  it('json: the findings with source forecast and the type: line as their span; notes in the summary', async () => {
    const r = await run(['check', '预报.md', 'complete.md', '--format', 'json']);
    assert.equal(r.code, 0);
    const doc = JSON.parse(r.out) as { findings: unknown[]; summary: Record<string, number> };
    assert.deepEqual(doc.findings, [
      {
        file: '预报.md',
        line: 3,
        column: 1,
        endLine: 3,
        endColumn: 11,
        severity: 'warning',
        rule: 'forecast-missing-area',
        source: 'forecast',
        message: AREA_EN,
        silenced: false,
      },
      {
        file: '预报.md',
        line: 3,
        column: 1,
        endLine: 3,
        endColumn: 11,
        severity: 'warning',
        rule: 'forecast-missing-severity',
        source: 'forecast',
        message: SEVERITY_EN,
        silenced: false,
      },
    ]);
    assert.deepEqual(doc.summary, {
      files: 2,
      unreadable: 0,
      filesWithProblems: 0,
      problems: 0,
      notes: 2,
      silenced: 0,
    });
  });

  it('sarif: valid against the schema, the rules described in the driver, each result a warning', async () => {
    for (const [env, area] of [
      [{}, 'A forecast states the area it covers (the 2021 forecast rules).'],
      [{ LANG: 'zh_CN.UTF-8' }, '预报须写明发生范围（《农作物病虫害监测与预报管理办法》）。'],
    ] as const) {
      const r = await run(['check', '预报.md', '--format', 'sarif'], env);
      assert.equal(r.code, 0);
      const log = JSON.parse(r.out) as Log;
      assert.equal(sarifErrors(log), '');
      const run0 = log.runs[0]!;
      const rules = run0.tool.driver.rules ?? [];
      assert.deepEqual(
        rules.map((x) => x.id),
        ['forecast-missing-area', 'forecast-missing-severity'],
      );
      assert.equal(rules[0]!.shortDescription?.text, area);
      assert.deepEqual(
        (run0.results ?? []).map((x) => [x.ruleId, x.ruleIndex, x.level, x.locations![0]!.physicalLocation!.region]),
        [
          ['forecast-missing-area', 0, 'warning', { startLine: 3, startColumn: 1, endLine: 3, endColumn: 11 }],
          ['forecast-missing-severity', 1, 'warning', { startLine: 3, startColumn: 1, endLine: 3, endColumn: 11 }],
        ],
      );
    }
  });
});
