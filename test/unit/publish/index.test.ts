/**
 * The one entry of publishing (src/publish/index.ts): the output names, which options reach which
 * format, when an export is refused, and what its count of notes counts.
 */
import * as assert from 'node:assert/strict';
import { exportBulletin, outputName, picturePrefix } from '../../../src/publish/index';
import { exported, readDocx, SAMPLE } from './helpers';

const CLEAN = '# 周报\n\n茶树修剪[^1]。\n\n[^1]: 茶园管理手册.docx#3 — 茶叶知识库 (TEA_MANAGER_001)\n';
const BROKEN = '# 周报\n\n茶树修剪[^1]，封园[^2]。\n\n[^1]: 茶园管理手册.docx#3 — 茶叶知识库 (TEA_MANAGER_001)\n';

describe('publish: the export entry', () => {
  it('names the output after the bulletin: .md or .markdown (any case) replaced, anything else kept', () => {
    assert.equal(outputName('周报.md', 'docx'), '周报.docx');
    assert.equal(outputName('周报.md', 'wechat'), '周报.wechat.html');
    assert.equal(outputName('周报.md', 'html'), '周报.html');
    assert.equal(outputName('周报.Markdown', 'docx'), '周报.docx');
    assert.equal(outputName('周报.md.txt', 'html'), '周报.md.txt.html');
    assert.equal(outputName('周报.mdx', 'docx'), '周报.mdx.docx');
  });

  it('names the article’s pictures after the article, without its .html or .htm', () => {
    assert.equal(picturePrefix('周报.wechat.html'), '周报.wechat-');
    assert.equal(picturePrefix('周报.HTM'), '周报-');
    assert.equal(picturePrefix('周报.html.bak'), '周报.html.bak-');
  });

  it('refuses broken citations only when asked to, and exports a clean bulletin when asked to', async () => {
    const refused = await exportBulletin({
      text: BROKEN,
      format: 'docx',
      lang: 'zh',
      now: new Date(0),
      readImage: async () => undefined,
      refuseBrokenCitations: true,
    });
    assert.equal(refused.ok, false);
    assert.equal(refused.ok ? '' : refused.reason, 'broken-citations');
    assert.equal((await exported({ text: BROKEN, format: 'docx' })).ok, true, 'not asked: exported with a warning');
    assert.equal((await exported({ text: CLEAN, format: 'docx', refuseBrokenCitations: true })).ok, true);
  });

  it('a Word template is read for Word only: a broken one does not stop the other formats', async () => {
    const template = new Uint8Array([1, 2, 3]);
    for (const format of ['wechat', 'html'] as const)
      assert.equal((await exported({ text: CLEAN, format, template })).ok, true, format);
  });

  it('the references heading setting is how the export knows the references section', async () => {
    const text =
      '# 周报\n\n茶树修剪[^1]。\n\n## 来源清单\n\n[^1]: 茶园管理手册.docx#3 — 茶叶知识库 (TEA_MANAGER_001)\n';
    const count = (s: string): number => s.split('来源清单').length - 1;
    const mine = await exported({ text, format: 'wechat', referencesHeading: '来源清单' });
    assert.equal(count(mine.article!), 1, 'the section’s heading names the list, once');
    const other = await exported({ text, format: 'wechat' });
    assert.equal(count(other.article!), 1, 'an unknown heading stays in the body');
    assert.doesNotMatch(mine.article!, />参考资料</, 'the list is named after the section');
    assert.match(other.article!, />参考资料</, 'unknown, the section is body text and the list gets the default name');
  });

  it('counts every note written: Word’s footnotes, and in list mode the sources listed besides them', async () => {
    const footnotes = await exported({ text: SAMPLE, format: 'docx' });
    assert.equal(footnotes.notes, (await readDocx(footnotes.bytes)).footnotes.length);
    const list = await exported({ text: SAMPLE, format: 'docx', citations: 'list' });
    const doc = await readDocx(list.bytes);
    const listed = new Set(doc.document.match(/\[\d+\]/g)).size;
    assert.ok(doc.footnotes.length > 0 && listed > 0, 'the sample has both an author’s note and sources');
    assert.equal(list.notes, doc.footnotes.length + listed);
  });
});
