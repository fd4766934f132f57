import assert from 'node:assert/strict';
import { join } from 'node:path';
import { main } from '../../../src/cli/main';

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
      assert.match(r.out.join('\n'), /^usage: shunong check <files…> \[--online/);
      assert.match(r.out.join('\n'), /--cache <file>/);
      assert.equal(r.err, '');
    }
  });
});
