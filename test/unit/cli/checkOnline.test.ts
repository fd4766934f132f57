/** `shunong check --online` against the local endpoint (in-process, real HTTP on 127.0.0.1). */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatDefinition } from '../../../src/citations/index';
import { main } from '../../../src/cli/main';
import type { Emulator } from '../../emulator/server';
import { sampleBulletin } from '../citations/verifyFixtures';
import { sharedEngine } from '../emulator/helpers';
import { SECRET_KEY, startEmu } from '../shunong/helpers';
import { sarifErrors } from './sarif';

const NOW = Date.parse('2026-12-01T01:00:00Z');

async function run(argv: string[], env: Record<string, string | undefined>, now = NOW) {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s) }, env, () => now);
  return { code, out, err };
}

function cleanBulletin(): string {
  const p = sharedEngine().passages.find((x) => x.docName === '小麦播种技术.docx' && x.chunkIndex === 2)!;
  return [
    `> ${p.content}[^1]`,
    '',
    '## 参考资料',
    '',
    formatDefinition('1', { docName: p.docName, chunkIndex: 2, kbName: '小麦', kbCode: 'WHEAT_001' }),
    '',
  ].join('\n');
}

describe('shunong check --online (local endpoint)', () => {
  let emu: Emulator;
  let env: Record<string, string | undefined>;
  let dir: string;
  before(async () => {
    emu = await startEmu({ keys: [SECRET_KEY] });
    env = { SHUNONG_ENDPOINT: emu.url, SHUNONG_API_KEY: SECRET_KEY };
    dir = mkdtempSync(join(tmpdir(), 'shunong-check-online-'));
    writeFileSync(join(dir, 'sample.md'), sampleBulletin());
    writeFileSync(join(dir, 'clean.md'), cleanBulletin());
  });
  after(async () => {
    await emu.close();
  });
  const calls = (): number => emu.requests.filter((r) => r.rpcMethod === 'tools/call').length;

  it('one line per use of a source that is not verified; exit 1; the key never in the output', async () => {
    const file = join(dir, 'sample.md');
    const r = await run(['check', '--online', file], env);
    assert.equal(r.code, 1, r.err);
    const lines = r.out.trimEnd().split('\n');
    assert.deepEqual(
      lines.map((l) => l.slice(file.length + 1).replace(/ \(.*$/, '')),
      [
        '20:7 [^2] 茶树修剪技术要点.docz#1 not located in TEA_MANAGER_001',
        '21:7 [^3] 茶树修剪技术要点.docx#3 unknown knowledge base TEA_MANAGR_001',
        '22:7 [^4] 茶树修剪技术要点.docx#99 not located in TEA_MANAGER_001',
      ],
    );
    assert.match(r.err, /6 sources: 3 verified, 2 not located, 1 unknown knowledge base; 6 requests/);
    assert.ok(!r.out.includes(SECRET_KEY) && !r.err.includes(SECRET_KEY));
  });

  it('fetches the passages a dose cites and checks it against them: a mismatch is a problem (exit 1)', async () => {
    const p = sharedEngine().passages.find((x) => x.docName === '水稻病虫害药剂防治.docx' && x.chunkIndex === 0)!;
    const file = join(dir, 'dose.md');
    writeFileSync(
      file,
      [
        `> ${p.content}[^1]`,
        '',
        '防治稻纵卷叶螟，每亩用20%氯虫苯甲酰胺悬浮剂30毫升，兑水30公斤喷雾[^1]。',
        '',
        '## 参考资料',
        '',
        formatDefinition('1', { docName: p.docName, chunkIndex: 0, kbName: '水稻', kbCode: 'RICE_001' }),
        '',
      ].join('\n'),
    );
    const offline = await run(['check', file], {});
    assert.equal(offline.code, 0, 'offline, the passage is not at hand: a note');
    assert.match(offline.out, /information \[passage-not-at-hand\]/);
    const r = await run(['check', file, '--online'], env);
    assert.equal(r.code, 1, r.err);
    assert.match(
      r.out,
      /:3:\d+ warning \[dose-mismatch\] 氯虫苯甲酰胺: the cited passage gives dose 10-15毫升, not 30毫升/,
    );
    assert.doesNotMatch(r.out, /passage-not-at-hand/);
  });

  it('every source verified: exit 0, nothing on stdout; without --online no request is made', async () => {
    const file = join(dir, 'clean.md');
    const before = calls();
    const offline = await run(['check', file], {});
    assert.equal(offline.code, 0);
    assert.equal(calls(), before);
    const r = await run(['check', file, '--online'], env);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, '');
    assert.equal(calls(), before + 2);
  });

  it('reports the safety findings too: a ban is a problem (exit 1), a restricted-use pesticide a note (exit 0)', async () => {
    const banned = join(dir, 'banned.md');
    writeFileSync(banned, `---\ndate: 2026-12-02\n---\n\n玉米播种时可用3%克百威颗粒剂沟施。\n\n${cleanBulletin()}`);
    const r = await run(['check', '--online', banned], env);
    assert.equal(r.code, 1, r.err);
    assert.deepEqual(r.out.trimEnd().split('\n'), [
      `${banned}:5:10 error [carbofuran-736] 克百威 (carbofuran) is banned: its sale and use are prohibited from 2026-06-01 (Announcement No. 736).`,
    ]);
    assert.match(r.err, /^shunong check: 1 problem; 1 source: 1 verified;/);
    const restricted = join(dir, 'restricted.md');
    writeFileSync(
      restricted,
      `---\ndate: 2026-12-02\ncrop: 水稻\n---\n\n可用毒死蜱防治稻纵卷叶螟。\n\n${cleanBulletin()}`,
    );
    const n = await run(['check', '--online', restricted], env);
    assert.equal(n.code, 0, n.err);
    assert.match(n.out, /^.*restricted\.md:6:3 information \[chlorpyrifos-restricted-\d+\]/);
    assert.match(n.err, /^shunong check: 0 problems; 1 source: 1 verified; .*; 1 note\n$/);
  });

  it('--format json and sarif hold the sources not verified as citation findings, with the online summary', async () => {
    const file = join(dir, 'sample.md');
    const lines = await run(['check', '--online', file], env);
    const json = await run(['check', '--online', file, '--format', 'json'], env);
    assert.equal(json.code, lines.code);
    assert.equal(json.err, lines.err, 'the summary stays on stderr');
    const doc = JSON.parse(json.out) as {
      findings: { rule: string; severity: string; line: number; column: number; message: string; label?: string }[];
      summary: { sources: number; outcomes: Record<string, number>; requests: number; problems: number };
    };
    assert.deepEqual(
      doc.findings.map((f) => `${file}:${f.line}:${f.column}${f.label ? ` [^${f.label}]` : ''} ${f.message}`),
      lines.out.trimEnd().split('\n'),
      'the same findings as the lines',
    );
    assert.deepEqual(
      doc.findings.map((f) => [f.rule, f.severity]),
      [
        ['citations/not-located', 'error'],
        ['citations/unknown-kb', 'error'],
        ['citations/not-located', 'error'],
      ],
    );
    assert.deepEqual(doc.summary.outcomes, { verified: 3, 'not-located': 2, 'unknown-kb': 1 });
    assert.equal(doc.summary.sources, 6);
    assert.equal(doc.summary.requests, 6);

    const sarif = await run(['check', '--online', file, '--format', 'sarif'], env);
    const log = JSON.parse(sarif.out) as {
      runs: { tool: { driver: { rules: { id: string }[] } }; results: { ruleId: string; level: string }[] }[];
    };
    assert.equal(sarifErrors(log), '');
    assert.deepEqual(
      log.runs[0]!.tool.driver.rules.map((r) => r.id),
      ['citations/not-located', 'citations/unknown-kb'],
    );
    assert.ok(!sarif.out.includes(SECRET_KEY));
  });

  it('an unverified source is a warning in the documents; the summary in Chinese under zh_CN', async () => {
    const down = { SHUNONG_ENDPOINT: 'http://127.0.0.1:9/mcp', SHUNONG_API_KEY: SECRET_KEY, LANG: 'zh_CN.UTF-8' };
    const r = await run(['check', '--online', join(dir, 'clean.md'), '--format', 'sarif'], down);
    assert.equal(r.code, 3, r.err);
    const log = JSON.parse(r.out) as {
      runs: { results: { ruleId: string; level: string; message: { text: string } }[] }[];
    };
    assert.equal(sarifErrors(log), '');
    const [result] = log.runs[0]!.results;
    assert.equal(result!.ruleId, 'citations/unverified');
    assert.equal(result!.level, 'warning');
    assert.match(result!.message.text, /^小麦播种技术\.docx#2 未能核验（network：/);
    assert.match(r.err, /^shunong check: 0 个问题；1 个来源：1 个未能核验；\d+ 次请求\n$/);
  });

  it('options count before the command too: `--online check` checks online, `--endpoint` before it is used', async () => {
    const file = join(dir, 'clean.md');
    const before = calls();
    const r = await run(['--online', 'check', file], env);
    assert.equal(r.code, 0, r.err);
    assert.equal(calls(), before + 2, 'the sources were looked up');
    const down = { ...env, SHUNONG_ENDPOINT: 'http://127.0.0.1:9/mcp' };
    const e = await run(['--endpoint', emu.url, 'check', '--online', file], down);
    assert.equal(e.code, 0, e.err);
    assert.equal(calls(), before + 4);
  });

  it('--cache: the second run the same day sends nothing, --refresh asks again, the next day too', async () => {
    const file = join(dir, 'sample.md');
    const cache = join(dir, 'cache.json');
    const first = await run(['check', '--online', '--cache', cache, file], env);
    assert.equal(first.code, 1);
    const saved = JSON.parse(readFileSync(cache, 'utf8')) as {
      passages: { entries: { citation: string }[] };
      verify: { outcomes: { date: string }[] };
    };
    assert.ok(
      saved.passages.entries.some((e) => e.citation === '茶树修剪技术要点.docx#1'),
      'verified passages cached',
    );
    assert.ok(saved.verify.outcomes.every((o) => o.date === '2026-12-01'));
    const before = calls();
    const second = await run(['check', '--online', `--cache=${cache}`, file], env, NOW + 3_600_000);
    assert.equal(second.code, 1);
    assert.equal(second.out, first.out);
    assert.equal(calls(), before);
    assert.match(second.err, /; 0 requests/);
    const refreshed = await run(['check', '--online', '--cache', cache, '--refresh', file], env);
    assert.equal(calls(), before + 6);
    assert.equal(refreshed.out, first.out);
    await run(['check', '--online', '--cache', cache, file], env, Date.parse('2026-12-01T16:00:00Z'));
    assert.equal(calls(), before + 12);
  });

  it('the endpoint unreachable: every source unverified with the reason, exit 3 (1 wins over 3)', async () => {
    const down = { SHUNONG_ENDPOINT: 'http://127.0.0.1:9/mcp', SHUNONG_API_KEY: SECRET_KEY };
    const clean = await run(['check', '--online', join(dir, 'clean.md')], down);
    assert.equal(clean.code, 3, clean.err);
    assert.match(clean.out, /\[\^1\] 小麦播种技术\.docx#2 unverified \(network: /);
    assert.ok(!clean.out.includes('not located'));
    const withProblems = join(dir, 'problems.md');
    writeFileSync(withProblems, `${cleanBulletin()}\n正文[^9]\n`);
    const both = await run(['check', '--online', withProblems], down);
    assert.equal(both.code, 1);
    assert.match(both.out, /\[\^9\] /);
  });

  it('a rejected key: unverified (auth), exit 3, the key is not printed', async () => {
    const r = await run(['check', '--online', join(dir, 'clean.md')], {
      ...env,
      SHUNONG_API_KEY: 'sk_wrong_0123456789',
    });
    assert.equal(r.code, 3);
    assert.match(r.out, /unverified \(auth: /);
    assert.ok(!r.out.includes('sk_wrong_0123456789') && !r.err.includes('sk_wrong_0123456789'));
  });

  it('usage errors: exit 2', async () => {
    assert.equal((await run(['check', '--online'], env)).code, 2);
    assert.equal((await run(['check', '--online', '--bogus', 'a.md'], env)).code, 2);
    const alone = await run(['check', '--refresh', 'a.md'], env);
    assert.equal(alone.code, 2);
    assert.match(alone.err, /--refresh, --endpoint and --timeout go with --online/);
    const bad = join(dir, 'bad-cache.json');
    writeFileSync(bad, '{not json');
    const r = await run(['check', '--online', '--cache', bad, join(dir, 'clean.md')], env);
    assert.equal(r.code, 2);
    assert.match(r.err, /is not JSON/);
    const notCache = join(dir, 'null-cache.json');
    writeFileSync(notCache, 'null\n');
    const n = await run(['check', '--online', '--cache', notCache, join(dir, 'clean.md')], env);
    assert.equal(n.code, 2, n.err);
    assert.match(n.err, /the cache .*null-cache\.json is not a cache of shunong check; remove it or name another file/);
  });
});
