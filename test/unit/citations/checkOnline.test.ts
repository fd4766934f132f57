/** The online check's report, against the local endpoint over real HTTP on 127.0.0.1. */
import { strict as assert } from 'node:assert';
import { analyzeDocument, CitationCache, formatDefinition } from '../../../src/citations/index';
import {
  cacheFileText,
  checkBulletinsOnline,
  parseCacheFile,
  type OnlineDeps,
} from '../../../src/citations/checkOnline';
import { VerifyCache } from '../../../src/citations/verifyCache';
import { shippedRules } from '../../../src/safety/index';
import { cachedTeaPassage, NOW, passage, sampleBulletin } from './verifyFixtures';
import { fakeScheduler, useEndpoint } from '../shunong/helpers';

/** Where a definition of a bulletin cites its source, as a report line starts: `file:line:col`. */
function at(file: string, text: string, label: string): string {
  const r = analyzeDocument(text).definitions.find((x) => x.label === label)!.citationRange;
  return `${file}:${r.line + 1}:${r.character + 1}`;
}

describe('citations/checkOnline (local endpoint)', () => {
  const ep = useEndpoint({ client: () => ({ scheduler: fakeScheduler(100_000), timeoutMs: 600_000 }) });

  async function check(
    files: Record<string, string | undefined>,
    passages = new CitationCache(),
    deps: Partial<OnlineDeps> = {},
  ): Promise<{ code: number; out: string[]; err: string; passages: CitationCache }> {
    const client = ep.client();
    let out = '';
    let err = '';
    const code = await checkBulletinsOnline(
      {
        files: Object.keys(files),
        refresh: false,
        passages,
        outcomes: new VerifyCache(),
        safety: { rules: shippedRules(), today: '2026-12-01' },
        lang: 'en',
      },
      async (file) => {
        const text = files[file];
        return text === undefined ? { error: 'ENOENT' } : { text };
      },
      { stdout: (s) => (out += s), stderr: (s) => (err += s) },
      { search: (a, signal) => client.knowledgeSearch(a, signal ? { signal } : {}), now: () => NOW, ...deps },
    );
    return { code, out: out.split('\n').filter((l) => l !== ''), err, passages };
  }

  it('each use of a source not verified is one line saying its outcome and why; a changed passage is kept', async () => {
    const passages = cachedTeaPassage('7月底驻芽期时，提示对茶树进行深修。');
    const text = sampleBulletin();
    const r = await check({ 'a.md': text }, passages);
    const why = '(a search for the cited text did not return it)';
    assert.equal(r.out.length, 4);
    assert.equal(
      r.out[0],
      `${at('a.md', text, '2')} [^2] 茶树修剪技术要点.docz#1 not located in TEA_MANAGER_001 ${why}`,
    );
    const unknown = `${at('a.md', text, '3')} [^3] 茶树修剪技术要点.docx#3 unknown knowledge base TEA_MANAGR_001 `;
    assert.ok(r.out[1]!.startsWith(unknown), r.out[1]);
    // the bases the account has, as the platform lists them
    assert.match(r.out[1]!.slice(unknown.length), /^\(the account's: (?:\w+, )*TEA_MANAGER_001(?:, \w+)*\)$/);
    assert.deepEqual(r.out.slice(2), [
      `${at('a.md', text, '4')} [^4] 茶树修剪技术要点.docx#99 not located in TEA_MANAGER_001 ${why}`,
      `${at('a.md', text, '5')} [^5] 茶树农事操作.docx#1 changed (the passage on the platform differs from the cached text)`,
    ]);
    assert.equal(
      r.err,
      'shunong check: 0 problems; 6 sources: 2 verified, 1 changed, 2 not located, 1 unknown knowledge base; 6 requests\n',
    );
    assert.equal(r.code, 1, 'a changed or not located source is a problem');
    assert.equal(r.passages.get('茶树农事操作.docx#1')?.content, passage('茶树农事操作.docx', 1));
    assert.equal(r.passages.get('茶树修剪技术要点.docx#1')?.content, passage('茶树修剪技术要点.docx', 1));
    assert.equal(r.passages.get('茶树修剪技术要点.docx#99'), undefined);
  });

  it('an inline citation not located names no knowledge base; one problem, one source, one request', async () => {
    const text = `正文[^9]。\n\n> ${passage('水稻分蘖期管理要点.pdf', 2)}〔没有这份文档.pdf#1〕\n`;
    const r = await check({ 'b.md': text });
    const cite = analyzeDocument(text).inlineCitations[0]!.range;
    assert.deepEqual(r.out, [
      'b.md:1:3 [^9] Footnote [^9] has no definition.',
      `b.md:${cite.line + 1}:${cite.character + 1} 没有这份文档.pdf#1 not located (a search for the cited text did not return it)`,
    ]);
    assert.equal(r.err, 'shunong check: 1 problem; 1 source: 1 not located; 1 request\n');
    assert.equal(r.code, 1);
  });

  it('a search failing leaves its sources unverified, the reason on one line; exit 3, or 2 with an unreadable file', async () => {
    const text = `> ${passage('水稻分蘖期管理要点.pdf', 2)}〔水稻分蘖期管理要点.pdf#2〕\n`;
    const failing: Partial<OnlineDeps> = {
      search: () => Promise.reject(new Error('down')),
      describe: () => 'the platform is\n  down   today',
    };
    const r = await check({ 'c.md': text }, new CitationCache(), failing);
    assert.equal(r.out.length, 1);
    assert.match(
      r.out[0]!,
      /^c\.md:1:\d+ 水稻分蘖期管理要点\.pdf#2 unverified \(\w[\w-]*: the platform is down today\)$/,
    );
    assert.match(r.err, /^shunong check: 0 problems; 1 source: 1 unverified; \d+ requests?\n$/);
    assert.equal(r.code, 3);
    const gone = await check({ 'c.md': text, 'gone.md': undefined }, new CitationCache(), failing);
    assert.match(gone.err, /^shunong check: cannot read gone\.md: ENOENT\n/);
    assert.equal(gone.code, 2);
  });

  it('lines come in document order, a problem after a source’s line too; no citation: no source, no request', async () => {
    const text = `> ${passage('水稻分蘖期管理要点.pdf', 2)}〔没有这份文档.pdf#1〕\n\n正文[^9]。\n`;
    const r = await check({ 'f.md': text });
    assert.deepEqual(
      r.out.map((l) => l.split(' ')[0]),
      [`f.md:1:${analyzeDocument(text).inlineCitations[0]!.range.character + 1}`, 'f.md:3:3'],
    );
    const none = await check({ 'g.md': '正文。\n' });
    assert.equal(none.err, 'shunong check: 0 problems; 0 sources; 0 requests\n');
    assert.equal(none.code, 0);
  });

  it('a changed, not located or unknown-base source alone makes the exit 1', async () => {
    const cited = (doc: string, idx: number, kbCode: string, text = passage(doc, idx)): string =>
      `> ${text}[^1]\n\n${formatDefinition('1', { docName: doc, chunkIndex: idx, kbName: '茶树管理', kbCode })}\n`;
    const stale = cachedTeaPassage('7月底驻芽期时，提示对茶树进行深修。');
    const changed = await check({ 'a.md': cited('茶树农事操作.docx', 1, 'TEA_MANAGER_001') }, stale);
    assert.match(changed.err, /: 1 changed;/);
    assert.equal(changed.code, 1);
    const unknown = await check({ 'a.md': cited('茶树修剪技术要点.docx', 3, 'TEA_MANAGR_001') });
    assert.match(unknown.err, /: 1 unknown knowledge base;/);
    assert.equal(unknown.code, 1);
    const lost = await check({ 'a.md': cited('茶树修剪技术要点.docx', 99, 'TEA_MANAGER_001', '茶树修剪。') });
    assert.match(lost.err, /^shunong check: 0 problems; 1 source: 1 not located;/);
    assert.equal(lost.code, 1);
  });

  it('every source verified and no problem: nothing on stdout, exit 0', async () => {
    const text = `> ${passage('水稻分蘖期管理要点.pdf', 2)}〔水稻分蘖期管理要点.pdf#2〕\n`;
    const r = await check({ 'd.md': text, 'e.md': text });
    assert.deepEqual(r.out, []);
    assert.equal(r.err, 'shunong check: 0 problems; 1 source: 1 verified; 1 request\n');
    assert.equal(r.code, 0);
  });
});

describe('citations/checkOnline cache file', () => {
  it('a cache file is a JSON object; anything else is not a cache, and text that is not JSON says so', () => {
    assert.deepEqual(parseCacheFile('{not json'), { error: 'not-json' });
    for (const text of ['null', '[]', '[{"version":1}]', '1', '"x"', 'true'])
      assert.deepEqual(parseCacheFile(text), { error: 'not-a-cache' }, text);
    const empty = parseCacheFile('{}');
    assert.ok(!('error' in empty));
    assert.equal(empty.passages.size, 0);
  });

  it('a cache file keeps its passages and outcomes: written, then read back, it reads the same', () => {
    const passages = cachedTeaPassage('浅修。');
    const text = cacheFileText(passages, new VerifyCache());
    assert.ok(text.endsWith('}\n'));
    assert.equal((JSON.parse(text) as { version: number }).version, 1);
    const back = parseCacheFile(text);
    assert.ok(!('error' in back));
    assert.deepEqual(back.passages.toJSON(), passages.toJSON());
    assert.equal(cacheFileText(back.passages, back.outcomes), text);
  });
});
