/**
 * A house style for Word exports: the `word/styles.xml` of a template `.docx` (as pandoc's
 * `--reference-doc` uses one), and the style ids our paragraphs must name in it. Word files made
 * in a Chinese Word name their built-in styles by other ids (`heading 1` is often `1`, `Title`
 * `a3`), so ids are looked up by the styles' names. Pure.
 */
import JSZip from 'jszip';

/** The styles our writer uses, by Word's built-in (English, lower-case) style names. */
export const STYLE_NAMES = {
  title: 'title',
  heading1: 'heading 1',
  heading2: 'heading 2',
  heading3: 'heading 3',
  heading4: 'heading 4',
  heading5: 'heading 5',
  heading6: 'heading 6',
  hyperlink: 'hyperlink',
  footnoteText: 'footnote text',
  footnoteReference: 'footnote reference',
} as const;

export type StyleKey = keyof typeof STYLE_NAMES;

/** The ids our default styles use (and the footnote runs and paragraphs are named with in any style). */
export const DEFAULT_IDS: Record<StyleKey, string> = {
  title: 'Title',
  heading1: 'Heading1',
  heading2: 'Heading2',
  heading3: 'Heading3',
  heading4: 'Heading4',
  heading5: 'Heading5',
  heading6: 'Heading6',
  hyperlink: 'Hyperlink',
  footnoteText: 'FootnoteText',
  footnoteReference: 'FootnoteReference',
};

/** Styles to write with: the template's styles.xml (absent: our defaults) and the ids to name. */
export interface HouseStyle {
  stylesXml?: string;
  ids: Record<StyleKey, string>;
}

/** Why a template could not be used. */
export class TemplateError extends Error {
  constructor(readonly reason: 'not-a-docx' | 'no-styles') {
    super(reason === 'not-a-docx' ? 'the template is not a .docx file' : 'the template has no word/styles.xml');
  }
}

/** Our default styles. */
export const DEFAULT_STYLE: HouseStyle = { ids: { ...DEFAULT_IDS } };

/** Reads a template `.docx`; throws {@link TemplateError} when it is not one or has no styles. */
export async function readTemplate(bytes: Uint8Array): Promise<HouseStyle> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch {
    throw new TemplateError('not-a-docx');
  }
  const xml = await zip.file('word/styles.xml')?.async('string');
  if (xml === undefined) throw new TemplateError('no-styles');
  return houseStyleOf(xml);
}

/**
 * The ids to use in a styles.xml: each style found by name keeps its id; the footnote styles
 * the writer names by fixed ids (`FootnoteText`, `FootnoteReference`) are added when the template has
 * no style of that id, based on the template's own footnote style when it has one — so footnote
 * numbers stay superscript in any house style.
 */
export function houseStyleOf(stylesXml: string): HouseStyle {
  const byName = new Map<string, { id: string; type: string }>();
  const ids = new Set<string>();
  for (const m of stylesXml.matchAll(/<w:style\b([^>]*)>([\s\S]*?)<\/w:style>/g)) {
    const id = /w:styleId="([^"]*)"/.exec(m[1]!)?.[1];
    const type = /w:type="([^"]*)"/.exec(m[1]!)?.[1] ?? 'paragraph';
    const name = /<w:name\s+w:val="([^"]*)"/.exec(m[2]!)?.[1];
    if (id === undefined) continue;
    ids.add(id);
    if (name !== undefined && !byName.has(name.toLowerCase())) byName.set(name.toLowerCase(), { id, type });
  }
  const out = { ...DEFAULT_IDS };
  for (const key of Object.keys(STYLE_NAMES) as StyleKey[]) {
    const found = byName.get(STYLE_NAMES[key]);
    if (found && key !== 'footnoteText' && key !== 'footnoteReference') out[key] = found.id;
  }
  const added: string[] = [];
  if (!ids.has(DEFAULT_IDS.footnoteReference))
    added.push(
      `<w:style w:type="character" w:styleId="${DEFAULT_IDS.footnoteReference}"><w:name w:val="Footnote Reference (export)"/>` +
        basedOn(byName.get(STYLE_NAMES.footnoteReference)?.id) +
        `<w:rPr><w:vertAlign w:val="superscript"/></w:rPr></w:style>`,
    );
  if (!ids.has(DEFAULT_IDS.footnoteText))
    added.push(
      `<w:style w:type="paragraph" w:styleId="${DEFAULT_IDS.footnoteText}"><w:name w:val="Footnote Text (export)"/>` +
        basedOn(byName.get(STYLE_NAMES.footnoteText)?.id) +
        `<w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:rPr><w:sz w:val="18"/></w:rPr></w:style>`,
    );
  const xml = added.length ? stylesXml.replace(/<\/w:styles>\s*$/, `${added.join('')}</w:styles>`) : stylesXml;
  return { stylesXml: xml, ids: out };
}

function basedOn(id: string | undefined): string {
  return id === undefined ? '' : `<w:basedOn w:val="${id.replace(/[<>&"]/g, '')}"/>`;
}
