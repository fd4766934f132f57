/**
 * `shunong check --format json|sarif`: one document on stdout with every checker's findings (the
 * citations' and the pesticide safety lint's, a silenced one marked so), the notes and the summary
 * still on stderr; the SARIF log valid against the published SARIF 2.1.0 schema, its locations on the
 * findings' text. The line format is the default and stays as it was.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Log } from 'sarif';
import { artifactUri } from '../../../src/cli/formats';
import { main } from '../../../src/cli/main';
import { sarifErrors } from './sarif';

const ROOT = join(__dirname, '..', '..', '..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** A ban in force, a footnote with no definition, and a ban silenced on the line before. */
const BANNED = `---
date: 2026-12-02
---

# 地下害虫防治

玉米播种时可用3%克百威颗粒剂沟施，防治蛴螬[^9]。

<!-- shunong-disable-next-line carbofuran-736 -->
小麦播种时亩用3%克百威颗粒剂2千克沟施。
`;

/** A ban three months after the bulletin's date: a note. */
const UPCOMING = '---\ndate: 2026-03-01\n---\n\n玉米播种时可用3%克百威颗粒剂沟施。\n';

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

const SOURCE_NEEDED_EN = 'This recommends a dose without citing a source for it.';
const BAN_EN = '克百威 (carbofuran) is banned: its sale and use are prohibited from 2026-06-01 (Announcement No. 736).';

describe('shunong check --format', () => {
  let dir: string;
  let cwd: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'shunong-formats-'));
    cwd = process.cwd();
    process.chdir(dir);
    writeFileSync('玉米.md', BANNED);
    writeFileSync('upcoming.md', UPCOMING);
  });
  afterEach(() => {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
  });

  it('line (the default): one line a finding, a silenced one as such; the same with --format line', async () => {
    const r = await run(['check', '玉米.md']);
    assert.equal(r.code, 1);
    assert.equal(
      r.out,
      [
        `玉米.md:7:10 error [carbofuran-736] ${BAN_EN}`,
        '玉米.md:7:23 [^9] Footnote [^9] has no definition.',
        `玉米.md:10:1 information [source-needed] ${SOURCE_NEEDED_EN}`,
        `玉米.md:10:10 silenced [carbofuran-736] ${BAN_EN}`,
        '',
      ].join('\n'),
    );
    assert.equal(r.err, 'shunong check: 2 problems in 1 of 1 file; 1 note; 1 silenced\n');
    assert.deepEqual(await run(['check', '--format', 'line', '玉米.md']), r);
  });

  it('json: exactly one document of the files, the findings and the summary; stderr keeps its notes', async () => {
    const r = await run(['check', '玉米.md', 'upcoming.md', 'gone.md', '--format=json']);
    assert.equal(r.code, 2, 'an unreadable file');
    assert.equal(
      r.err,
      'shunong check: cannot read gone.md: ENOENT\nshunong check: 2 problems in 1 of 3 files; 2 notes; 1 silenced\n',
    );
    assert.ok(r.out.endsWith('}\n'));
    assert.deepEqual(JSON.parse(r.out), {
      version: 1,
      tool: { name: 'shunong', version: VERSION },
      language: 'en',
      files: [{ file: '玉米.md' }, { file: 'upcoming.md' }, { file: 'gone.md', error: 'ENOENT' }],
      findings: [
        {
          file: '玉米.md',
          line: 7,
          column: 10,
          endLine: 7,
          endColumn: 13,
          severity: 'error',
          rule: 'carbofuran-736',
          source: 'safety',
          message: BAN_EN,
          silenced: false,
        },
        {
          file: '玉米.md',
          line: 7,
          column: 23,
          endLine: 7,
          endColumn: 27,
          severity: 'error',
          rule: 'citations/undefined-reference',
          source: 'citations',
          message: 'Footnote [^9] has no definition.',
          label: '9',
          silenced: false,
        },
        {
          file: '玉米.md',
          line: 10,
          column: 1,
          endLine: 10,
          endColumn: 22,
          severity: 'information',
          rule: 'source-needed',
          source: 'dose',
          message: SOURCE_NEEDED_EN,
          silenced: false,
        },
        {
          file: '玉米.md',
          line: 10,
          column: 10,
          endLine: 10,
          endColumn: 13,
          severity: 'error',
          rule: 'carbofuran-736',
          source: 'safety',
          message: BAN_EN,
          silenced: true,
        },
        {
          file: 'upcoming.md',
          line: 5,
          column: 10,
          endLine: 5,
          endColumn: 13,
          severity: 'information',
          rule: 'carbofuran-736',
          source: 'safety',
          message:
            '克百威 (carbofuran) will be banned from 2026-06-01 (Announcement No. 736); this bulletin is dated 2026-03-01.',
          silenced: false,
        },
      ],
      summary: { files: 3, unreadable: 1, filesWithProblems: 1, problems: 2, notes: 2, silenced: 1 },
    });
  });

  it('json: a clean bulletin is a document with no findings, exit 0', async () => {
    writeFileSync('clean.md', '# 茶园管理\n\n及时修剪。\n');
    const r = await run(['check', 'clean.md', '--format', 'json']);
    assert.equal(r.code, 0);
    assert.equal(r.err, '');
    const doc = JSON.parse(r.out) as { findings: unknown[]; summary: { problems: number } };
    assert.deepEqual(doc.findings, []);
    assert.equal(doc.summary.problems, 0);
  });

  it('sarif: a log the SARIF 2.1.0 schema accepts, one run of shunong with the rules it used', async () => {
    const r = await run(['check', '玉米.md', 'upcoming.md', '--format', 'sarif']);
    assert.equal(r.code, 1);
    assert.equal(r.err, 'shunong check: 2 problems in 1 of 2 files; 2 notes; 1 silenced\n');
    const log = JSON.parse(r.out) as Log;
    assert.equal(sarifErrors(log), '');
    assert.equal(log.version, '2.1.0');
    assert.equal(log.runs.length, 1);
    const run0 = log.runs[0]!;
    assert.equal(run0.tool.driver.name, 'shunong');
    assert.equal(run0.tool.driver.version, VERSION);
    assert.equal(run0.columnKind, 'utf16CodeUnits');
    assert.equal(run0.language, 'en');
    assert.deepEqual(run0.invocations, [{ executionSuccessful: true }]);
    const rules = run0.tool.driver.rules ?? [];
    assert.deepEqual(
      rules.map((x) => [x.id, x.shortDescription?.text]),
      [
        ['carbofuran-736', 'Ban on 克百威 (carbofuran) from 2026-06-01 (Announcement No. 736)'],
        ['citations/undefined-reference', 'A footnote reference has no definition.'],
        ['source-needed', 'A recommendation with a dose and no cited source.'],
      ],
      'each rule once, in the order first used',
    );
    const results = run0.results ?? [];
    assert.deepEqual(
      results.map((x) => [x.ruleId, x.level, x.suppressions]),
      [
        ['carbofuran-736', 'error', undefined],
        ['citations/undefined-reference', 'error', undefined],
        ['source-needed', 'note', undefined],
        ['carbofuran-736', 'error', [{ kind: 'inSource' }]],
        ['carbofuran-736', 'note', undefined],
      ],
    );
    for (const x of results) assert.equal(rules[x.ruleIndex!]?.id, x.ruleId);
    assert.equal(results[0]!.message.text, BAN_EN);
  });

  it('sarif: each location is the relative path as given, and its region spans the finding’s text', async () => {
    const r = await run(['check', '玉米.md', 'upcoming.md', '--format', 'sarif']);
    const texts: Record<string, string> = { '玉米.md': BANNED, 'upcoming.md': UPCOMING };
    const spans = (JSON.parse(r.out) as Log).runs[0]!.results!.map((x) => {
      const loc = x.locations![0]!.physicalLocation!;
      const file = decodeURIComponent(loc.artifactLocation!.uri!);
      const { startLine, startColumn, endLine, endColumn } = loc.region!;
      assert.equal(endLine, startLine, 'one line');
      return `${file} ${texts[file]!.split('\n')[startLine! - 1]!.slice(startColumn! - 1, endColumn! - 1)}`;
    });
    assert.deepEqual(spans, [
      '玉米.md 克百威',
      '玉米.md [^9]',
      '玉米.md 小麦播种时亩用3%克百威颗粒剂2千克沟施。',
      '玉米.md 克百威',
      'upcoming.md 克百威',
    ]);
    assert.equal(
      (JSON.parse(r.out) as Log).runs[0]!.results![0]!.locations![0]!.physicalLocation!.artifactLocation!.uri,
      '%E7%8E%89%E7%B1%B3.md',
      'percent-encoded, relative',
    );
  });

  it('sarif: an unreadable file is a failed invocation with its notification, still valid SARIF', async () => {
    const r = await run(['check', 'gone.md', 'upcoming.md', '--format', 'sarif']);
    assert.equal(r.code, 2);
    const log = JSON.parse(r.out) as Log;
    assert.equal(sarifErrors(log), '');
    const [invocation] = log.runs[0]!.invocations!;
    assert.equal(invocation!.executionSuccessful, false);
    assert.deepEqual(
      invocation!.toolExecutionNotifications!.map((n) => [n.level, n.message.text]),
      [['error', 'cannot read gone.md: ENOENT']],
    );
  });

  it('the schema is not blind: it refuses a level that is not SARIF’s and a region without a start', async () => {
    const log = JSON.parse((await run(['check', 'upcoming.md', '--format', 'sarif'])).out) as Log;
    const result = log.runs[0]!.results![0]!;
    assert.equal(sarifErrors(log), '');
    assert.match(
      sarifErrors({ ...log, runs: [{ ...log.runs[0], results: [{ ...result, level: 'information' }] }] }),
      /level/,
    );
    const noStart = {
      ...result,
      locations: [{ physicalLocation: { ...result.locations![0]!.physicalLocation, region: { endLine: 5 } } }],
    };
    assert.match(sarifErrors({ ...log, runs: [{ ...log.runs[0], results: [noStart] }] }), /startLine/);
  });

  it('a format it does not know is a usage error (exit 2)', async () => {
    const r = await run(['check', '玉米.md', '--format', 'xml']);
    assert.equal(r.code, 2);
    assert.equal(r.out, '');
    assert.match(r.err, /^shunong check: --format must be line, json or sarif, not "xml"\nusage: shunong check/);
    assert.equal((await run(['check', '玉米.md', '--format'])).code, 2);
  });

  it('writes a file as a URI: relative paths stay relative, segment by segment; absolute ones are file: URIs', () => {
    assert.equal(artifactUri('docs/bulletins/玉米 螟.md'), 'docs/bulletins/%E7%8E%89%E7%B1%B3%20%E8%9E%9F.md');
    assert.equal(artifactUri('./a:b#1.md'), './a%3Ab%231.md');
    assert.equal(artifactUri('../x.md'), '../x.md');
    assert.equal(artifactUri('/srv/站/a.md'), 'file:///srv/%E7%AB%99/a.md');
  });
});
