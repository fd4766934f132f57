/** Bulletins for the verify tests: real passages of the local endpoint's knowledge base. */
import { CitationCache, formatDefinition } from '../../../src/citations/index';
import { sharedEngine } from '../emulator/helpers';

/** 2026-12-01 09:00 in Beijing. */
export const NOW = Date.parse('2026-12-01T01:00:00Z');

export function passage(doc: string, idx: number): string {
  const p = sharedEngine().passages.find((x) => x.docName === doc && x.chunkIndex === idx);
  if (!p) throw new Error(`no passage ${doc}#${idx}`);
  return p.content;
}

export const TEA = { kbName: '茶树管理', kbCode: 'TEA_MANAGER_001' };

/** A citation cache holding 茶树农事操作.docx#1 as retrieved on 2026-11-01, with `content` as its text. */
export function cachedTeaPassage(content: string): CitationCache {
  const passages = new CitationCache();
  passages.put({
    citation: '茶树农事操作.docx#1',
    ...TEA,
    query: '茶树浅修',
    score: 0.9,
    scoreType: 'cosine_similarity(0~1)',
    retrievedAt: '2026-11-01T00:00:00.000Z',
    content,
  });
  return passages;
}

/** A bulletin with one source of each outcome, an author's footnote and an inline citation. */
export function sampleBulletin(): string {
  return [
    '# 茶园冬季管理',
    '',
    `> ${passage('茶树修剪技术要点.docx', 1)}[^1]`,
    '',
    `> ${passage('茶树修剪技术要点.docx', 2)}[^2]`,
    '',
    `修剪后及时清园。${passage('茶树修剪技术要点.docx', 3).slice(0, 40)}[^3]，随后施肥。`,
    '',
    `> ${passage('茶树修剪技术要点.docx', 4)}[^4]`,
    '',
    `> ${passage('水稻分蘖期管理要点.pdf', 2)}〔水稻分蘖期管理要点.pdf#2〕`,
    '',
    `> ${passage('茶树农事操作.docx', 1)}[^5]`,
    '',
    '作者自己的说明。[^note]',
    '',
    '## 参考资料',
    '',
    formatDefinition('1', { docName: '茶树修剪技术要点.docx', chunkIndex: 1, ...TEA }),
    formatDefinition('2', { docName: '茶树修剪技术要点.docz', chunkIndex: 1, ...TEA }),
    formatDefinition('3', {
      docName: '茶树修剪技术要点.docx',
      chunkIndex: 3,
      kbName: '茶树管理',
      kbCode: 'TEA_MANAGR_001',
    }),
    formatDefinition('4', { docName: '茶树修剪技术要点.docx', chunkIndex: 99, ...TEA }),
    formatDefinition('5', { docName: '茶树农事操作.docx', chunkIndex: 1, ...TEA }),
    '',
    '[^note]: 这是作者的脚注，不是引用。',
    '',
  ].join('\n');
}
