/**
 * The citation lint's worker thread (src/lintWorker): the Problems it gives are the library's own,
 * each request gets its own answer, and when the worker cannot serve, the lint runs on the calling
 * thread instead of failing. The real worker script runs here, through a start file that loads
 * tsx first (a worker's `--import` loader registers too late for its own main module).
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lint } from '../../../src/citations/index';
import { LintWorker, type LintWorkerOptions } from '../../../src/lintWorker/client';

const ROOT = join(__dirname, '..', '..', '..');
const MAIN = join(ROOT, 'src', 'lintWorker', 'main.ts');
const LIBRARY = join(ROOT, 'src', 'citations', 'index.ts');
const BULLETIN =
  '# 茶园\n\n茶树修剪[^1]要点。\n\n茶园封园[^2]。\n\n[^1]: 茶园管理手册.docx#3 — 茶叶知识库 (TEA_MANAGER_001)\n';
const CLEAN = '# 茶园\n\n茶树修剪[^1]要点。\n\n[^1]: 茶园管理手册.docx#3 — 茶叶知识库 (TEA_MANAGER_001)\n';

describe('the citation lint in a worker thread', () => {
  let dir: string;
  let script: string;
  const workers: LintWorker[] = [];
  let fallbacks = 0;
  const open = (o: Partial<LintWorkerOptions> = {}): LintWorker => {
    const w = new LintWorker({
      script,
      library: LIBRARY,
      fallback: () => {
        fallbacks++;
        return lint;
      },
      ...o,
    });
    workers.push(w);
    return w;
  };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'shunong-lint-worker-'));
    script = join(dir, 'start.js');
    writeFileSync(
      script,
      `require(${JSON.stringify(require.resolve('tsx/cjs'))});\nrequire(${JSON.stringify(MAIN)});\n`,
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));
  beforeEach(() => (fallbacks = 0));
  afterEach(() => workers.splice(0).forEach((w) => w.dispose()));

  it("gives the library's diagnostics, computed in the worker", async () => {
    const w = open();
    const items = await w.lint(BULLETIN, { referencesHeading: '' });
    assert.deepEqual(items, lint(BULLETIN, { referencesHeading: '' }));
    assert.deepEqual(
      items.map((d) => d.code),
      ['undefined-reference'],
    );
    assert.equal(fallbacks, 0, 'nothing ran on this thread');
    assert.equal(w.offThread, true);
  });

  it('answers each request with its own text, asked together', async () => {
    const w = open();
    const [a, b, c] = await Promise.all([w.lint(BULLETIN), w.lint(CLEAN), w.lint(BULLETIN)]);
    assert.equal(a.length, 1);
    assert.deepEqual(b, []);
    assert.deepEqual(c, a);
    assert.equal(fallbacks, 0);
  });

  it('lints with the options it is given, as the library does', async () => {
    const text = '正文[^1]。\n\n## 参考\n\n[^1]: 茶园管理手册.docx#3 — 茶叶知识库 (TEA_MANAGER_001)\n';
    const w = open();
    const [plain, headed] = [
      await w.lint(text, { referencesHeading: '' }),
      await w.lint(text, { referencesHeading: '参考' }),
    ];
    assert.deepEqual(plain, lint(text, { referencesHeading: '' }));
    assert.deepEqual(headed, lint(text, { referencesHeading: '参考' }));
  });

  it('lints on this thread when the worker cannot start (its script is missing)', async () => {
    const w = open({ script: join(dir, 'missing.js') });
    const items = await w.lint(BULLETIN);
    assert.deepEqual(items, lint(BULLETIN));
    assert.equal(fallbacks, 1);
    assert.equal(w.offThread, false);
    await w.lint(CLEAN);
    assert.equal(fallbacks, 2, 'and every later lint');
  });

  it('a worker that stops owes nothing: its pending lints are answered on this thread', async () => {
    const quits = join(dir, 'quits.js');
    writeFileSync(quits, 'process.exit(3);\n');
    const w = open({ script: quits });
    const items = await Promise.all([w.lint(BULLETIN), w.lint(CLEAN)]);
    assert.deepEqual(items, [lint(BULLETIN), lint(CLEAN)]);
    assert.equal(fallbacks, 2);
    assert.equal(w.offThread, false);
  });

  it("rejects with the lint's own message when the library throws", async () => {
    const broken = join(dir, 'broken.js');
    writeFileSync(broken, "exports.lint = () => { throw new Error('lint broke'); };\n");
    const w = open({ library: broken });
    await assert.rejects(w.lint(BULLETIN), /^Error: lint broke$/);
    assert.equal(fallbacks, 0, 'a lint that throws is not a lost worker');
    assert.deepEqual(await w.lint(CLEAN).catch((e: Error) => e.message), 'lint broke');
  });

  it('once disposed, what is owed and every later lint reject', async () => {
    const w = open();
    const owed = w.lint(BULLETIN);
    w.dispose();
    await assert.rejects(owed, /The citation lint has stopped/);
    await assert.rejects(w.lint(CLEAN), /The citation lint has stopped/);
    assert.equal(fallbacks, 0);
  });
});
