/**
 * House templates for the tests, built with our own zip writer. `blankStyles` is the styles.xml of the
 * `.docx` Word saves for a new blank document (Word 365, English), in substance: it holds only
 * Normal, Default Paragraph Font, Normal Table and No List (with the latent-style table that names
 * Title and the headings without defining them), under the Markup Compatibility header Word writes.
 */
import { zip } from '../../../src/publish/zip';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n';

/** Word's blank document's styles.xml, with `p` as the WordprocessingML prefix. */
export function blankStyles(p = 'w'): string {
  const latent = ['Normal', 'heading 1', 'heading 2', 'heading 3', 'Title', 'Hyperlink']
    .map((n) => `<${p}:lsdException ${p}:name="${n}" ${p}:uiPriority="9" ${p}:qFormat="1"/>`)
    .join('');
  return (
    HEAD +
    `<${p}:styles xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" ` +
    `xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:${p}="${W}" ` +
    'xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" mc:Ignorable="w14">' +
    `<${p}:docDefaults><${p}:rPrDefault><${p}:rPr><${p}:rFonts ${p}:asciiTheme="minorHAnsi" ${p}:eastAsiaTheme="minorEastAsia" ${p}:hAnsiTheme="minorHAnsi" ${p}:cstheme="minorBidi"/>` +
    `<${p}:kern ${p}:val="2"/><${p}:sz ${p}:val="24"/><${p}:szCs ${p}:val="24"/><${p}:lang ${p}:val="en-US" ${p}:eastAsia="zh-CN" ${p}:bidi="ar-SA"/></${p}:rPr></${p}:rPrDefault>` +
    `<${p}:pPrDefault><${p}:pPr><${p}:spacing ${p}:after="160" ${p}:line="278" ${p}:lineRule="auto"/></${p}:pPr></${p}:pPrDefault></${p}:docDefaults>` +
    `<${p}:latentStyles ${p}:defLockedState="0" ${p}:defUIPriority="99" ${p}:defSemiHidden="0" ${p}:defUnhideWhenUsed="0" ${p}:defQFormat="0" ${p}:count="376">${latent}</${p}:latentStyles>` +
    `<${p}:style ${p}:type="paragraph" ${p}:default="1" ${p}:styleId="Normal"><${p}:name ${p}:val="Normal"/><${p}:qFormat/></${p}:style>` +
    `<${p}:style ${p}:type="character" ${p}:default="1" ${p}:styleId="DefaultParagraphFont"><${p}:name ${p}:val="Default Paragraph Font"/><${p}:uiPriority ${p}:val="1"/><${p}:semiHidden/><${p}:unhideWhenUsed/></${p}:style>` +
    `<${p}:style ${p}:type="table" ${p}:default="1" ${p}:styleId="TableNormal"><${p}:name ${p}:val="Normal Table"/><${p}:uiPriority ${p}:val="99"/><${p}:semiHidden/><${p}:unhideWhenUsed/>` +
    `<${p}:tblPr><${p}:tblInd ${p}:w="0" ${p}:type="dxa"/><${p}:tblCellMar><${p}:top ${p}:w="0" ${p}:type="dxa"/><${p}:left ${p}:w="108" ${p}:type="dxa"/><${p}:bottom ${p}:w="0" ${p}:type="dxa"/><${p}:right ${p}:w="108" ${p}:type="dxa"/></${p}:tblCellMar></${p}:tblPr></${p}:style>` +
    `<${p}:style ${p}:type="numbering" ${p}:default="1" ${p}:styleId="NoList"><${p}:name ${p}:val="No List"/><${p}:uiPriority ${p}:val="99"/><${p}:semiHidden/><${p}:unhideWhenUsed/></${p}:style>` +
    `</${p}:styles>`
  );
}

/** A template `.docx` of the given parts (word/document.xml is a blank page unless given; null leaves a part out). */
export async function template(parts: Record<string, string | null>): Promise<Uint8Array> {
  const entries = {
    'word/document.xml': `${HEAD}<w:document xmlns:w="${W}"><w:body><w:p/></w:body></w:document>`,
    ...parts,
  };
  return zip(
    Object.entries(entries).flatMap(([path, data]) => (data === null ? [] : [{ path, data }])),
    new Date('2026-01-01T00:00:00Z'),
  );
}
