/** Shared helpers of the publishing tests: a sample bulletin, pictures, and a Word file read back. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import * as sax from 'sax';
import { exportBulletin, type ExportRequest, type ImageCandidate } from '../../../src/publish/index';
import { gatherDocx, nameGathered, validateGathered } from './schema';

// every Word file a publishing test writes is checked against the OOXML schemas after the last test
afterEach(function () {
  nameGathered(this.currentTest?.fullTitle() ?? '?');
});
after(validateGathered);

export const ROOT = join(__dirname, '..', '..', '..');
export const PHOTO = new Uint8Array(readFileSync(join(ROOT, 'test/fixtures/workspace/photos/tea-buds.jpg')));

/** A bulletin with every construct our template and snippets produce. */
export const SAMPLE = `---
title: "茶园冬季管理技术要点"
date: 2026-11-20
lang: zh-CN
---

# 茶园冬季管理技术要点

立冬以后，茶树陆续进入休眠期[^1]。冬季管理关系到明年春茶的*产量*和**品质**[^note]。

## 主要技术措施

1. **深耕施基肥**：每亩施入腐熟有机肥 1000～1500 公斤[^2]。
2. **适度修剪**：剪去树冠面上 3～5 厘米的突出枝[^1]。
   - 幼龄茶园以定型修剪为主〔茶树修剪技术要点.docx#3〕

> 成龄茶园以轻修剪为主，剪去树冠面上 3～5 厘米的突出枝。[^3]

| 措施 | 时间 | 用量 |
| --- | :-: | --: |
| 施基肥 | 11 月中下旬 | 1500 公斤[^2] |
| 封园 | 12 月上旬 | 石硫合剂 |

![识别结果](images/recognition/tea-buds.jpg)

\`\`\`text
石硫合剂 0.5 波美度
\`\`\`

<!-- 提示：此处插入天气 -->

详见 [农业农村部](https://www.moa.gov.cn/) 与 \`代码\`。

## 参考资料

[^1]: 茶树农事操作.docx#1 — 茶树管理 (TEA_MANAGER_001)
[^2]: 茶园施肥技术.pdf#0 — 茶树管理 (TEA_MANAGER_001)
[^3]: 茶树修剪技术要点.docx#2 — 茶树管理 (TEA_MANAGER_001)
[^note]: 作者注：产量数据来自县茶叶站 2025 年统计。
`;

/** Answers `images/recognition/tea-buds.jpg` (and that file name in the copies' folder) only. */
export const readSamplePhoto = async (c: ImageCandidate): Promise<Uint8Array | undefined> =>
  c.path === 'images/recognition/tea-buds.jpg' || (c.base === 'saveFolder' && c.path === 'tea-buds.jpg')
    ? PHOTO
    : undefined;

/** Exports and asserts it worked. */
export async function exported(req: Partial<ExportRequest> & Pick<ExportRequest, 'text' | 'format'>) {
  const r = await exportBulletin({
    lang: 'zh',
    now: new Date('2026-12-01T08:00:00Z'),
    readImage: readSamplePhoto,
    ...req,
  });
  if (!r.ok) throw new Error(`export refused: ${r.reason}`);
  if (req.format === 'docx') await gatherDocx(r.bytes);
  return r;
}

/** A Word file read back. */
export interface Docx {
  files: string[];
  document: string;
  footnotes: string[];
  styles: string;
  core: string;
  custom: string;
  rels: string;
}

/** Reads the parts of a .docx that the tests look at; footnotes are the real ones (id > 0), as plain text. */
export async function readDocx(bytes: Uint8Array): Promise<Docx> {
  const zip = await JSZip.loadAsync(bytes, { checkCRC32: true });
  await gatherDocx(bytes);
  const text = async (name: string): Promise<string> => (await zip.file(name)?.async('string')) ?? '';
  const footnotesXml = await text('word/footnotes.xml');
  const footnotes = [...footnotesXml.matchAll(/<w:footnote w:id="(\d+)">([\s\S]*?)<\/w:footnote>/g)]
    .filter((m) => Number(m[1]) > 0)
    .map((m) => plainText(m[2]!));
  return {
    files: Object.keys(zip.files),
    document: await text('word/document.xml'),
    footnotes,
    styles: await text('word/styles.xml'),
    core: await text('docProps/core.xml'),
    custom: await text('docProps/custom.xml'),
    rels: await text('word/_rels/document.xml.rels'),
  };
}

/** The text of WordprocessingML runs (`<w:t>` contents, entities decoded). */
export function plainText(xml: string): string {
  return [...xml.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)]
    .map((m) => m[1]!)
    .join('')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
}

/** The paragraphs of a document.xml with their style ids and text. */
export function paragraphs(documentXml: string): { style?: string; text: string }[] {
  return [...documentXml.matchAll(/<w:p>([\s\S]*?)<\/w:p>|<w:p [^>]*>([\s\S]*?)<\/w:p>/g)].map((m) => {
    const body = m[1] ?? m[2] ?? '';
    const style = /<w:pStyle w:val="([^"]*)"\/>/.exec(body)?.[1];
    return { ...(style ? { style } : {}), text: plainText(body) };
  });
}

/** Every tag of an HTML text with its attribute names (attribute values skipped as a browser reads them). */
export function tags(html: string): { name: string; attributes: Record<string, string> }[] {
  const out: { name: string; attributes: Record<string, string> }[] = [];
  for (const m of html.matchAll(
    /<([a-zA-Z][\w-]*)((?:\s+[^\s=>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*\/?>/g,
  )) {
    const attributes: Record<string, string> = {};
    for (const a of m[2]!.matchAll(/\s+([^\s=>/]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g))
      attributes[a[1]!.toLowerCase()] = (a[2] ?? '').replace(/^["']|["']$/g, '');
    out.push({ name: m[1]!.toLowerCase(), attributes });
  }
  return out;
}

/** The tags that could run something: scripts, frames, objects, event attributes, javascript: URLs. */
export function executable(html: string): string[] {
  return tags(html).flatMap((t) => {
    const bad: string[] = [];
    if (['script', 'iframe', 'object', 'embed', 'form', 'base', 'link'].includes(t.name)) bad.push(`<${t.name}>`);
    for (const [k, v] of Object.entries(t.attributes)) {
      if (k.startsWith('on')) bad.push(`${t.name}[${k}]`);
      if (/^\s*(?:javascript|vbscript):/i.test(v)) bad.push(`${t.name}[${k}=${v}]`);
    }
    return bad;
  });
}

/** An element of an XML part read back: its qualified name, its attributes, its child elements, the text inside it. */
export interface XmlNode {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
  text: string;
}

/** An XML part read by a real parser (sax) into its root element. */
export function xmlTree(xml: string): XmlNode {
  const root: XmlNode = { name: '', attributes: {}, children: [], text: '' };
  const stack = [root];
  const parser = sax.parser(true, { xmlns: false });
  parser.onopentag = (tag) => {
    const node: XmlNode = {
      name: tag.name,
      attributes: tag.attributes as Record<string, string>,
      children: [],
      text: '',
    };
    stack[stack.length - 1]!.children.push(node);
    stack.push(node);
  };
  parser.onclosetag = () => void stack.pop();
  parser.ontext = (t) => {
    for (const node of stack) node.text += t;
  };
  parser.write(xml).close();
  return root.children[0]!;
}

/** The elements named `name` under `node`, at any depth, in document order. */
export function descendants(node: XmlNode, name: string): XmlNode[] {
  return node.children.flatMap((c) => [...(c.name === name ? [c] : []), ...descendants(c, name)]);
}

/** The parts of a Word file by their paths, as text. */
export async function docxParts(bytes: Uint8Array): Promise<Map<string, string>> {
  const zip = await JSZip.loadAsync(bytes);
  const out = new Map<string, string>();
  for (const name of Object.keys(zip.files))
    if (/\.(?:xml|rels)$/.test(name)) out.set(name, await zip.file(name)!.async('string'));
  return out;
}
