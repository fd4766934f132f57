/**
 * From a REST answer's knowledge_citation (kb_id + title + summary) to the passage it names: the rules
 * of rest/annotations.ts, one at a time. "Nothing is ever made up": every doubt is undefined.
 */
import { strict as assert } from 'node:assert';
import { documentTitle, matchCitation, sentencesOf, summaryPrefix } from '../../../src/shunong/rest/annotations';

const source = (doc_name: string, chunk_index: number, content: string) => ({ doc_name, chunk_index, content });

describe('shunong/rest/annotations', () => {
  it('a summary’s prefix: trimmed, with one trailing ellipsis (……, … or ...) dropped, and trimmed again', () => {
    assert.equal(summaryPrefix(' 茶树修剪要点…… '), '茶树修剪要点');
    assert.equal(summaryPrefix('茶树修剪要点…'), '茶树修剪要点');
    assert.equal(summaryPrefix('pruning tea ...'), 'pruning tea');
    assert.equal(summaryPrefix('…茶树…'), '…茶树', 'only the ellipsis at the end');
    assert.equal(summaryPrefix('茶树。'), '茶树。');
  });

  it('a document’s title: its name without an extension of one to five letters or digits', () => {
    assert.equal(documentTitle('茶树栽培.docx'), '茶树栽培');
    assert.equal(documentTitle('茶.DOCX'), '茶');
    assert.equal(documentTitle('v1.2.pdf'), 'v1.2');
    assert.equal(documentTitle('a.mp4'), 'a');
    assert.equal(documentTitle('notes.backup'), 'notes.backup', 'six characters are not an extension');
    assert.equal(documentTitle('无扩展名'), '无扩展名');
  });

  it('the passage named: its content (trimmed) starts with the prefix and its title or name is the citation’s title', () => {
    const hit = source('茶树栽培.docx', 3, '  茶树修剪要点：春茶后轻修剪。');
    const sources = [source('茶树栽培.docx', 1, '茶园施肥。'), source('其他.docx', 2, '茶树修剪要点：别的文档。'), hit];
    assert.equal(matchCitation({ title: ' 茶树栽培 ', summary: '茶树修剪要点……' }, sources), hit);
    assert.equal(matchCitation({ title: ' 茶树栽培.docx ', summary: '茶树修剪要点……' }, sources), hit);
  });

  it('one passage only starting with the prefix is the match whatever its title; several with no title matching are none', () => {
    const only = source('改名了.docx', 0, '茶树修剪要点：春茶后。');
    assert.equal(matchCitation({ title: '茶树栽培', summary: '茶树修剪要点…' }, [only]), only);
    const two = [only, source('又一个.docx', 1, '茶树修剪要点：夏茶后。')];
    assert.equal(matchCitation({ title: '茶树栽培', summary: '茶树修剪要点…' }, two), undefined);
  });

  it('several titled passages are a match only when they are one passage (the same doc_name#chunk_index)', () => {
    const a = source('茶树栽培.docx', 3, '茶树修剪要点：一。');
    const again = source('茶树栽培.docx', 3, '茶树修剪要点：一。');
    const other = source('茶树栽培.docx', 4, '茶树修剪要点：二。');
    assert.equal(matchCitation({ title: '茶树栽培', summary: '茶树修剪要点' }, [a, again]), a);
    assert.equal(matchCitation({ title: '茶树栽培', summary: '茶树修剪要点' }, [a, other]), undefined);
  });

  it('a summary that is only an ellipsis names nothing, even where a passage would start with it', () => {
    assert.equal(matchCitation({ title: '茶', summary: ' …… ' }, [source('茶.docx', 0, '……')]), undefined);
  });

  it('sentences: each ends at 。！？!? (a run of them) or a line break; the last fragment counts; blank ones do not', () => {
    assert.deepEqual(sentencesOf('一。二！三？four! five? six\nseven'), [
      '一。',
      '二！',
      '三？',
      'four!',
      'five?',
      'six',
      'seven',
    ]);
    assert.deepEqual(sentencesOf('真的？！好'), ['真的？！', '好']);
    assert.deepEqual(sentencesOf('施肥 0.5 千克。'), ['施肥 0.5 千克。'], 'a full stop of digits ends nothing');
    assert.deepEqual(sentencesOf('。。\n  \n'), []);
  });
});
