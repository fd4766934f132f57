/**
 * The bench bulletin: 10,000 lines with 1,000 citations (our footnotes, author footnotes, inline
 * citations, code blocks and spans, tables, links), shared by the citations and preview benches.
 */

/** A generated bulletin of `lines` lines with `citations` citations. */
export function bulletin(lines: number, citations: number): string {
  const out: string[] = ['---', 'title: 茶园农事周报', '---', '', '# 茶园农事周报', ''];
  let cited = 0;
  let n = 0;
  const defs: string[] = [];
  while (out.length < lines - citations / 2 - 10) {
    n++;
    if (n % 25 === 0) {
      out.push('```ts', 'const ref = "[^1]"; // 〔a.docx#1〕', 'console.log(ref);', '```', '');
      continue;
    }
    if (n % 40 === 0) {
      out.push('| 作物 | 建议 |', '| --- | --- |', '| 茶 | 修剪`[^2]`与施肥 |', '');
      continue;
    }
    if (n % 60 === 0) {
      out.push(`作者的补充说明[^note${n}]。`, '', `[^note${n}]: 作者自己的注释 ${n}。`, '');
      continue;
    }
    const parts: string[] = [];
    for (let s = 0; s < 3; s++) {
      let sentence = `第${n}段第${s}句：春茶开采前后注意 *病虫害* 防治${s === 1 ? '，`代码`' : ''}${n % 7 === 0 && s === 2 ? `，见[链接](http://example.com/${n})` : ''}。`;
      if (cited < citations && (n + s) % 2 === 0) {
        cited++;
        if (cited % 10 === 0) sentence += `〔茶树农事操作.docx#${cited}〕`;
        else {
          const label = ((cited * 7919) % (citations / 2)) + 1; // out of order, reused
          sentence += `[^${label}]`;
        }
      }
      parts.push(sentence);
    }
    out.push(parts.join(''), '');
  }
  out.push('## 参考资料', '');
  for (let i = 1; i <= citations / 2; i++)
    defs.push(`[^${i}]: 茶树农事操作${i % 97}.docx#${i} — 茶树管理 (TEA_MANAGER_001)`);
  out.push(...defs);
  while (out.length < lines) out.push('');
  return out.join('\n');
}
