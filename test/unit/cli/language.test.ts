/**
 * The command line speaks the terminal's language: LC_ALL, else LC_MESSAGES, else LANG (Chinese for
 * zh*, else English), from the l10n bundle the editor speaks from — its usage, its errors, the
 * findings, the summary and its notes on stderr. Safety findings name the substance as the bulletin
 * wrote it. The line format's place, severity and rule stay as they are in every language.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { cliLang } from '../../../src/cli/io';
import { main } from '../../../src/cli/main';

const ZH = { LANG: 'zh_CN.UTF-8' };
const NOW = (): number => Date.parse('2026-12-02T12:00:00+08:00');

async function run(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (s) => (out += s), stderr: (s) => (err += s) }, env, NOW);
  return { code, out, err };
}

/** A ban, recommended by an alias, and a footnote with no definition. */
const BULLETIN = '---\ndate: 2026-12-02\n---\n\n玉米播种时可用3%呋喃丹颗粒剂沟施，防治蛴螬[^9]。\n';

describe('cli: the language of the messages', () => {
  let dir: string;
  let cwd: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'shunong-language-'));
    cwd = process.cwd();
    process.chdir(dir);
    writeFileSync('玉米.md', BULLETIN);
  });
  afterEach(() => {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
  });

  it('is read from LC_ALL, else LC_MESSAGES, else LANG: Chinese for zh*, English otherwise', () => {
    assert.equal(cliLang({}), 'en');
    assert.equal(cliLang({ LANG: 'zh_CN.UTF-8' }), 'zh');
    assert.equal(cliLang({ LANG: 'zh_TW.Big5' }), 'zh');
    assert.equal(cliLang({ LANG: 'C.UTF-8' }), 'en');
    assert.equal(cliLang({ LANG: 'en_US.UTF-8', LC_MESSAGES: 'zh_CN.UTF-8' }), 'zh');
    assert.equal(cliLang({ LANG: 'zh_CN.UTF-8', LC_MESSAGES: 'en_GB.UTF-8' }), 'en');
    assert.equal(cliLang({ LANG: 'zh_CN.UTF-8', LC_MESSAGES: 'zh_CN.UTF-8', LC_ALL: 'C' }), 'en');
    assert.equal(cliLang({ LANG: 'zh_CN.UTF-8', LC_ALL: '' }), 'zh', 'an empty value is not set');
  });

  it('under zh_CN.UTF-8: the findings, the summary and the safety message in Chinese; the substance as written', async () => {
    const r = await run(['check', '玉米.md'], ZH);
    assert.equal(r.code, 1);
    assert.equal(
      r.out,
      '玉米.md:5:10 error [carbofuran-736] 呋喃丹即克百威。克百威已禁用：自2026-06-01起禁止销售和使用（农业农村部公告第736号）。\n' +
        '玉米.md:5:23 [^9] 脚注 [^9] 没有定义。\n',
    );
    assert.equal(r.err, 'shunong check: 1 个文件中有 1 个存在问题，共 2 个问题\n');
  });

  it('otherwise English, the substance as written with its English name', async () => {
    for (const env of [{}, { LANG: 'en_US.UTF-8' }, { LANG: 'zh_CN.UTF-8', LC_ALL: 'C' }]) {
      const r = await run(['check', '玉米.md'], env);
      assert.equal(
        r.out,
        '玉米.md:5:10 error [carbofuran-736] 呋喃丹 (carbofuran) is banned: its sale and use are prohibited from 2026-06-01 (Announcement No. 736).\n' +
          '玉米.md:5:23 [^9] Footnote [^9] has no definition.\n',
        JSON.stringify(env),
      );
      assert.equal(r.err, 'shunong check: 2 problems in 1 of 1 file\n');
    }
  });

  it('the documents carry the messages and the language too', async () => {
    const json = JSON.parse((await run(['check', '玉米.md', '--format', 'json'], ZH)).out) as {
      language: string;
      findings: { message: string }[];
    };
    assert.equal(json.language, 'zh-CN');
    assert.deepEqual(
      json.findings.map((f) => f.message),
      ['呋喃丹即克百威。克百威已禁用：自2026-06-01起禁止销售和使用（农业农村部公告第736号）。', '脚注 [^9] 没有定义。'],
    );
    const sarif = JSON.parse((await run(['check', '玉米.md', '--format', 'sarif'], ZH)).out) as {
      runs: { language: string; tool: { driver: { rules: { shortDescription: { text: string } }[] } } }[];
    };
    assert.equal(sarif.runs[0]!.language, 'zh-CN');
    assert.deepEqual(
      sarif.runs[0]!.tool.driver.rules.map((x) => x.shortDescription.text),
      ['自2026-06-01起禁用克百威（农业农村部公告第736号）', '脚注引用没有定义。'],
    );
  });

  it('notes, notes silenced and the encoding note in Chinese', async () => {
    writeFileSync(
      'gb.md',
      iconv.encode(
        '---\ndate: 2026-03-01\n---\n\n玉米播种时可用3%克百威颗粒剂沟施。\n\n<!-- shunong-disable-next-line pesticide -->\n小麦播种时亩用3%克百威颗粒剂2千克沟施。\n',
        'gb18030',
      ),
    );
    const r = await run(['check', 'gb.md'], ZH);
    assert.equal(r.code, 0);
    assert.equal(r.err, 'gb.md: 按 GB18030 读取\nshunong check: 没有问题；1 条提示；2 条已静默\n');
    assert.match(r.out, /^gb\.md:5:10 information \[carbofuran-736\] 克百威将自2026-06-01起禁止销售和使用/);
    assert.match(r.out, /\ngb\.md:8:10 silenced \[carbofuran-736\] 克百威将自/);
  });

  it('the usage, --help and usage errors of every command in Chinese', async () => {
    const help = await run(['--help'], ZH);
    assert.equal(help.code, 0);
    assert.match(help.out, /^用法：shunong <命令> \[选项\]\n\n命令：\n/);
    assert.match(help.out, /LC_ALL, LC_MESSAGES, LANG {5}消息的语言/);
    const check = await run(['check', '--help'], ZH);
    assert.match(check.out, /^用法：shunong check <files…> \[--cache <file>\] \[--online/);
    assert.match(check.out, /--format <format> {6}line（默认）/);
    assert.match((await run(['export', '--help'], ZH)).out, /^用法：shunong export <file\.md> --to docx\|wechat\|html/);

    const cases: [string[], string][] = [
      [['check', '--fix', '玉米.md'], 'shunong check: 未知选项 --fix\n用法：shunong check <files…>\n'],
      [['check', '玉米.md', '--format', 'xml'], 'shunong check: --format 必须是 line、json 或 sarif，而不是“xml”\n'],
      [['check'], '用法：shunong check <files…>\n'],
      [['check', 'nope.md'], 'shunong check: 无法读取 nope.md：ENOENT\n'],
      [['check', '玉米.md', '--refresh'], 'shunong check: --refresh、--endpoint 和 --timeout 须与 --online 一起使用\n'],
      [['frobnicate'], 'shunong: 未知命令“frobnicate”\n\n用法：shunong <命令>'],
      [['call'], 'shunong call: call 需要一个工具名称\n\n用法：'],
      [['tools', '--timeout', 'soon'], 'shunong: --timeout 需要一个正整数（毫秒），而不是“soon”\n'],
      [['export', '玉米.md'], 'shunong export: 需要 --to\n用法：shunong export'],
    ];
    for (const [argv, start] of cases) {
      const r = await run(argv, ZH);
      assert.equal(r.code, 2, argv.join(' '));
      assert.ok(r.err.startsWith(start), `${argv.join(' ')}: ${r.err.slice(0, 120)}`);
    }
  });

  it('export lists and refuses a banned pesticide in Chinese', async () => {
    const r = await run(['export', '玉米.md', '--to', 'html', '--refuse-unsafe'], ZH);
    assert.equal(r.code, 1);
    assert.equal(
      r.err,
      '玉米.md:5:10 error [carbofuran-736] 呋喃丹即克百威。克百威已禁用：自2026-06-01起禁止销售和使用（农业农村部公告第736号）。\n' +
        'shunong export: 已拒绝：有 1 处禁用农药（--refuse-unsafe）\n',
    );
  });
});
