import { strict as assert } from 'node:assert';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Emulator } from '../../emulator/server';
import { main } from '../../../src/cli/main';
import { SECRET_KEY, startEmu } from '../shunong/helpers';

const ROOT = join(__dirname, '..', '..', '..');

async function run(
  argv: string[],
  env: Record<string, string | undefined>,
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { stdout: (s) => (out += s), stderr: (s) => (err += s) }, env);
  return { code, out, err };
}

describe('shunong command line (in-process)', () => {
  let emu: Emulator;
  let env: Record<string, string | undefined>;
  before(async () => {
    emu = await startEmu({ keys: [SECRET_KEY] });
    env = { SHUNONG_ENDPOINT: emu.url, SHUNONG_API_KEY: SECRET_KEY };
  });
  after(async () => {
    await emu.close();
  });

  it('tools: one line per tool, name then the first line of the description', async () => {
    const r = await run(['tools'], env);
    assert.equal(r.code, 0, r.err);
    const lines = r.out.trimEnd().split('\n');
    assert.equal(lines.length, 4);
    assert.deepEqual(lines.map((l) => l.split(/\s+/)[0]).sort(), [
      'crop_growth_recognize',
      'get_current_time',
      'knowledge_search',
      'weather_search',
    ]);
    assert.ok(lines.every((l) => /^\S+\s{2,}\S/.test(l)));
  });

  it('call: stdout is exactly one JSON envelope with the parsed payload; exit 0', async () => {
    const r = await run(['call', 'knowledge_search', '{"query":"茶树修剪技术要点","topK":2}'], env);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out.trimEnd().split('\n').length, 1);
    const envl = JSON.parse(r.out) as {
      success: boolean;
      data: { sources: unknown[] };
      metadata: { resolvedToolName: string; serviceName: string };
    };
    assert.equal(envl.success, true);
    assert.equal(envl.data.sources.length, 2);
    assert.equal(envl.metadata.resolvedToolName, 'knowledge_search');
    assert.equal(envl.metadata.serviceName, 'shunong');
    assert.equal(r.err, '');
  });

  it('options before or after the positionals; --endpoint beats SHUNONG_ENDPOINT', async () => {
    const wrongEnv = { ...env, SHUNONG_ENDPOINT: 'http://127.0.0.1:9/mcp' };
    const a = await run(['--timeout', '10000', '--endpoint', emu.url, 'call', 'time'], wrongEnv);
    assert.equal(a.code, 0, a.err);
    const b = await run(
      ['call', 'shunong.get_current_time', '{}', `--endpoint=${emu.url}`, '--timeout=10000'],
      wrongEnv,
    );
    assert.equal(b.code, 0, b.err);
    assert.equal(
      (JSON.parse(b.out) as { metadata: { resolvedToolName: string } }).metadata.resolvedToolName,
      'get_current_time',
    );
  });

  it('a tool failure: envelope with success false on stdout, the reason on stderr, exit 1', async () => {
    const r = await run(['call', 'knowledge', '{"query":"火箭发动机燃烧室设计"}'], env);
    assert.equal(r.code, 1);
    const envl = JSON.parse(r.out) as { success: boolean; message: string; data: { kind: string } };
    assert.equal(envl.success, false);
    assert.equal(envl.data.kind, 'knowledge-miss');
    assert.match(r.err, /知识库未命中/);
  });

  it('transport failures exit 1: a wrong key, an endpoint that is down', async () => {
    const bad = await run(['call', 'get_current_time'], { ...env, SHUNONG_API_KEY: 'sk_nope' });
    assert.equal(bad.code, 1);
    assert.equal((JSON.parse(bad.out) as { data: { kind: string } }).data.kind, 'auth');
    assert.match(bad.err, /SHUNONG_API_KEY/);
    const none = await run(['tools'], { SHUNONG_ENDPOINT: emu.url });
    assert.equal(none.code, 1);
    assert.match(none.err, /API key/);
    const down = await run(['tools', '--endpoint', 'http://127.0.0.1:9/mcp'], env);
    assert.equal(down.code, 1);
    assert.match(down.err, /127\.0\.0\.1:9/);
  });

  it('usage errors exit 2 and print nothing on stdout', async () => {
    for (const argv of [
      [],
      ['frobnicate'],
      ['call'],
      ['call', 'time', '{bad'],
      ['call', 'time', '[1]'],
      ['tools', '--timeout', 'soon'],
      ['call', 'time', '--nope'],
      ['call', 'time', '{}', 'extra'],
      ['tools', '--endpoint'],
      ['call', 'time', '--endpoint='],
      ['tools', '--verbose=no'],
    ]) {
      const r = await run(argv, env);
      assert.equal(r.code, 2, `${argv.join(' ')}: ${r.err}`);
      assert.equal(r.out, '', argv.join(' '));
      assert.match(r.err, /usage: shunong/);
    }
  });

  it('an option problem is named as typed: unknown, missing its value, or given one it does not take', async () => {
    const cases: [string[], string][] = [
      [['call', 'time', '--nope=1'], 'shunong: unknown option --nope\n'],
      [['tools', '--endpoint'], 'shunong: --endpoint needs a value\n'],
      [['tools', '--verbose=no'], 'shunong: --verbose takes no value\n'],
      [['tools', '--to', 'docx'], 'shunong: unknown option --to\n'],
    ];
    for (const [argv, first] of cases) {
      const r = await run(argv, env);
      assert.equal(r.code, 2, argv.join(' '));
      assert.ok(r.err.startsWith(first), `${argv.join(' ')}: ${r.err.split('\n')[0]}`);
    }
  });

  it('an unknown or ambiguous tool name exits 2 with suggestions', async () => {
    const r = await run(['call', 'wether_serch', '{"location":"成都"}'], env);
    assert.equal(r.code, 2);
    assert.match(r.err, /Did you mean weather_search/);
    const a = await run(['call', 'search', '{}'], env);
    assert.equal(a.code, 2);
    assert.match(a.err, /knowledge_search/);
  });

  it('--help prints the usage on stdout and exits 0', async () => {
    const r = await run(['--help'], {});
    assert.equal(r.code, 0);
    assert.match(r.out, /call <tool> \[json-args\]/);
  });

  it('check delegates to the citation checker (offline: no endpoint, no key)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shunong-cli-'));
    const file = join(dir, 'ok.md');
    writeFileSync(
      file,
      '# 公告\n\n茶树修剪[^1]。\n\n## 参考资料\n\n[^1]: 茶树修剪技术要点.docx#4 — 茶树管理 (TEA_MANAGER_001)\n',
    );
    const r = await run(['check', file], {});
    assert.ok(r.code === 0 || r.code === 1, r.err);
    const u = await run(['check'], {});
    assert.equal(u.code, 2);
  });

  it('the key appears nowhere in the output, even with --verbose', async () => {
    const r = await run(['call', 'get_current_time', '{}', '--verbose'], env);
    assert.equal(r.code, 0);
    assert.match(r.err, /authorization: \*\*\*/);
    const bad = await run(['call', 'get_current_time', '--verbose'], {
      ...env,
      SHUNONG_API_KEY: `${SECRET_KEY}_wrong`,
    });
    for (const s of [r.out, r.err, bad.out, bad.err]) assert.ok(!s.includes(SECRET_KEY));
  });
});

describe('shunong command line (built dist/cli.js)', function () {
  this.timeout(120_000);
  let emu: Emulator;
  before(async function () {
    emu = await startEmu({ keys: [SECRET_KEY] });
    // SHUNONG_BUILT=1: the build in dist/ is current (CI builds once, and its integration lanes read
    // dist/ and out/ while the unit tests run: building again here would rewrite them under them).
    if (process.env['SHUNONG_BUILT'] !== '1')
      execFileSync(process.execPath, ['esbuild.config.mjs'], { cwd: ROOT, stdio: 'pipe' });
    if (!existsSync(join(ROOT, 'dist', 'cli.js'))) this.skip();
  });
  after(async () => {
    await emu.close();
  });

  it('runs as a program: one envelope on stdout, exit code, and exits by itself', async () => {
    const r = await new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      execFile(
        process.execPath,
        [
          join(ROOT, 'dist', 'cli.js'),
          'call',
          'knowledgeSearch',
          '{"query":"水稻分蘖期水分管理"}',
          '--timeout',
          '20000',
        ],
        { env: { ...process.env, SHUNONG_ENDPOINT: emu.url, SHUNONG_API_KEY: SECRET_KEY }, timeout: 60_000 },
        (error, stdout, stderr) =>
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, out: stdout, err: stderr }),
      );
    });
    assert.equal(r.code, 0, r.err);
    const envl = JSON.parse(r.out) as { success: boolean; metadata: { resolvedToolName: string } };
    assert.equal(envl.success, true);
    assert.equal(envl.metadata.resolvedToolName, 'knowledge_search');
    const u = await new Promise<number | null>((resolve) => {
      execFile(
        process.execPath,
        [join(ROOT, 'dist', 'cli.js'), 'call'],
        { env: { ...process.env, SHUNONG_API_KEY: '' } },
        (error) => resolve(error ? (typeof error.code === 'number' ? error.code : null) : 0),
      );
    });
    assert.equal(u, 2);
  });

  it('check runs the pesticide lint as a program: its rules, their parser and the Chinese words are in the bundle', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shunong-cli-safety-'));
    const bulletin = join(dir, '玉米.md');
    writeFileSync(bulletin, '---\ndate: 2026-12-02\n---\n\n玉米播种时可用3%克百威颗粒剂沟施。\n');
    const rules = join(dir, 'station.json');
    writeFileSync(rules, '{ "rules": [ }');
    const run = (args: string[], lang = 'C') =>
      new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        execFile(
          process.execPath,
          [join(ROOT, 'dist', 'cli.js'), 'check', ...args],
          { env: { ...process.env, LC_ALL: lang } },
          (error, stdout, stderr) =>
            resolve({
              code: error ? (typeof error.code === 'number' ? error.code : null) : 0,
              out: stdout,
              err: stderr,
            }),
        );
      });
    try {
      const r = await run([bulletin]);
      assert.equal(r.code, 1, r.err);
      assert.match(r.out, /:5:10 error \[carbofuran-736\] 克百威 \(carbofuran\) is banned/);
      const zh = await run([bulletin, '--format', 'json'], 'zh_CN.UTF-8');
      assert.equal(zh.code, 1, zh.err);
      assert.match(zh.out, /"message": "克百威已禁用：/, 'the catalogue is in the bundle');
      assert.match(zh.err, /共 1 个问题/);
      const bad = await run([bulletin, '--rules', rules]);
      assert.equal(bad.code, 2, bad.err);
      assert.match(bad.err, /station\.json:1:\d+ not JSON/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
