/**
 * A house style for Word exports: the `word/styles.xml` of a template `.docx` (as pandoc's
 * `--reference-doc` uses one), and the style ids our paragraphs must name in it. Word files made
 * in a Chinese Word name their built-in styles by other ids (`heading 1` is often `1`, `Title`
 * `a3`), so ids are looked up by the styles' names; a style the writer uses that the template lacks
 * (Word's blank document has no Title, Heading n or Hyperlink style) is added. Pure.
 */
import JSZip from 'jszip';
import { esc } from './wordml';
import { readXml, W_NS, wAttr, XmlSyntaxError, type XmlElement } from './xmlRead';

/** The styles our writer uses, by Word's built-in (English, lower-case) style names. */
const STYLE_NAMES = {
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

/** The list numbering of a template, kept beside ours (its styles may name its lists). */
export interface TemplateNumbering {
  xml: string;
  /** Where our abstract definitions go (after the template's), and our instances (after its). */
  abstractAt: number;
  numAt: number;
  /** The first ids free in the template. */
  nextAbstractId: number;
  nextNumId: number;
}

/** Styles to write with: the template's styles.xml (absent: our defaults), the ids to name, its numbering. */
export interface HouseStyle {
  stylesXml?: string;
  ids: Record<StyleKey, string>;
  numbering?: TemplateNumbering;
}

/** Why a template could not be used; `line`/`column` say where a part is not well-formed. */
export class TemplateError extends Error {
  constructor(
    readonly reason: 'not-a-docx' | 'no-document' | 'no-styles' | 'bad-styles' | 'bad-numbering',
    readonly where?: { line: number; column: number },
  ) {
    super(`the template cannot be used: ${reason}${where ? ` (line ${where.line}, column ${where.column})` : ''}`);
  }
}

/**
 * The style to add to a template that lacks the style of `key`, under the id `id`, based on the
 * template's default styles (by type); undefined: Word's look.
 */
export type AddedStyle = (key: StyleKey, id: string, defaults: Readonly<Record<string, string>>) => string | undefined;

/** Our default styles. */
export const DEFAULT_STYLE: HouseStyle = { ids: { ...DEFAULT_IDS } };

/** Reads a template `.docx`; throws {@link TemplateError} saying what is wrong with it. */
export async function readTemplate(bytes: Uint8Array, added?: AddedStyle): Promise<HouseStyle> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch {
    throw new TemplateError('not-a-docx');
  }
  if (!zip.file('word/document.xml')) throw new TemplateError('no-document');
  const styles = await zip.file('word/styles.xml')?.async('string');
  if (styles === undefined) throw new TemplateError('no-styles');
  const numbering = await zip.file('word/numbering.xml')?.async('string');
  const style = parsed('bad-styles', () => houseStyleOf(styles, added));
  if (numbering === undefined) return style;
  return { ...style, numbering: parsed('bad-numbering', () => templateNumbering(numbering)) };
}

function parsed<T>(reason: 'bad-styles' | 'bad-numbering', read: () => T): T {
  try {
    return read();
  } catch (err) {
    // Stryker disable next-line ConditionalExpression: readXml and rootOf throw XmlSyntaxError only; any other error is a bug, passed on
    if (err instanceof XmlSyntaxError) throw new TemplateError(reason, { line: err.line, column: err.column });
    throw err;
  }
}

/** The root of a WordprocessingML part, which must be `local`. */
function rootOf(elements: XmlElement[], local: string): XmlElement {
  const root = elements[0]!;
  if (root.uri !== W_NS || root.local !== local)
    throw new XmlSyntaxError(1, 1, `the root element is not WordprocessingML ${local}`);
  return root;
}

/**
 * A part's text and its elements, an empty root (`<w:numbering …/>`) written open first
 * (`<w:numbering …></w:numbering>`): what is added goes inside the root, and an empty element has
 * no inside.
 */
function readPart(xml: string): { xml: string; elements: XmlElement[] } {
  const elements = readXml(xml);
  const root = elements[0]!;
  if (!xml.slice(root.start, root.openEnd).endsWith('/>')) return { xml, elements };
  // Stryker disable next-line Regex: the text read starts at the root's "<"; without the anchor the same name is found
  const name = /^<([^\s/>]+)/.exec(xml.slice(root.start))![1]!;
  const opened = `${xml.slice(0, root.openEnd - 2)}></${name}>${xml.slice(root.openEnd)}`;
  return { xml: opened, elements: readXml(opened) };
}

/** Where our numbering goes in a template's numbering.xml, and the ids it leaves free. */
function templateNumbering(text: string): TemplateNumbering {
  const { xml, elements } = readPart(text);
  const root = rootOf(elements, 'numbering');
  const top = elements.filter((e) => e.depth === 1 && e.uri === W_NS);
  const last = (local: string): XmlElement | undefined => top.filter((e) => e.local === local).pop();
  // at the top of the part only a w:abstractNum has a w:abstractNumId, only a w:num a w:numId
  const maxId = (attribute: string): number => Math.max(0, ...top.map((e) => Number(wAttr(e, attribute)) || 0));
  const abstractAt = (last('abstractNum') ?? last('numPicBullet'))?.end ?? root.openEnd;
  // the schema puts nothing after the instances but the Mac clean-up mark: ours go last, before it
  const numAt = last('numIdMacAtCleanup')?.start ?? root.closeStart;
  return {
    xml,
    abstractAt,
    numAt: Math.max(numAt, abstractAt),
    nextAbstractId: maxId('abstractNumId') + 1,
    nextNumId: maxId('numId') + 1,
  };
}

const W_DECL = `xmlns:w="${W_NS}"`;
/** The values of `w:default` that make a style its type's default (an on/off value). */
const ON = new Set<string | undefined>(['1', 'true', 'on']);

/**
 * The ids to use in a styles.xml: each style found by name keeps its id; a style the writer uses
 * that the template lacks is added (by Word's own name, so Word treats it as its built-in style),
 * based on the template's default styles. The footnote styles the writer names by fixed ids
 * (`FootnoteText`, `FootnoteReference`) are added when the template has no style of that id, based
 * on the template's own footnote style when it has one — so footnote numbers stay superscript in
 * any house style. Added styles declare the namespace themselves: the template may bind another
 * prefix to it. `look` gives an added style another look than Word's (the official layout's). Throws {@link XmlSyntaxError} for a part that is not well-formed.
 */
export function houseStyleOf(stylesXml: string, look?: AddedStyle): HouseStyle {
  const { xml: text, elements } = readPart(stylesXml);
  const root = rootOf(elements, 'styles');
  const byName = new Map<string, { id: string; type: string }>();
  const ids = new Set<string>();
  const defaults: Record<string, string> = {};
  for (let i = 0; i < elements.length; i++) {
    const el = elements[i]!;
    // Stryker disable next-line ConditionalExpression: at the top of the part only a w:style has a w:styleId, and one without an id is skipped below
    if (el.depth !== 1 || el.uri !== W_NS || el.local !== 'style') continue;
    const id = wAttr(el, 'styleId');
    const type = wAttr(el, 'type') ?? 'paragraph';
    if (id === undefined) continue;
    ids.add(id);
    if (ON.has(wAttr(el, 'default'))) defaults[type] ??= id;
    let name: string | undefined;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a style has one w:name, reading on past it finds no other; what starts where the style ends is its sibling, no w:name of it
    for (let j = i + 1; j < elements.length && elements[j]!.start < el.end && name === undefined; j++) {
      const child = elements[j]!;
      if (child.depth === 2 && child.uri === W_NS && child.local === 'name') name = wAttr(child, 'val');
    }
    if (name !== undefined && !byName.has(name.toLowerCase())) byName.set(name.toLowerCase(), { id, type });
  }
  const out = { ...DEFAULT_IDS };
  const added: string[] = [];
  const free = (wanted: string): string => {
    let id = wanted;
    for (let n = 2; ids.has(id); n++) id = `${wanted}${n}`;
    ids.add(id);
    return id;
  };
  for (const key of Object.keys(STYLE_NAMES) as StyleKey[]) {
    if (key === 'footnoteText' || key === 'footnoteReference') continue;
    const found = byName.get(STYLE_NAMES[key]);
    if (found) out[key] = found.id;
    else {
      out[key] = free(DEFAULT_IDS[key]);
      added.push(look?.(key, out[key], defaults) ?? addedStyle(key, out[key], defaults));
    }
  }
  if (!ids.has(DEFAULT_IDS.footnoteReference))
    added.push(
      `<w:style ${W_DECL} w:type="character" w:styleId="${DEFAULT_IDS.footnoteReference}"><w:name w:val="Footnote Reference (export)"/>` +
        basedOn(byName.get(STYLE_NAMES.footnoteReference)?.id) +
        `<w:rPr><w:vertAlign w:val="superscript"/></w:rPr></w:style>`,
    );
  if (!ids.has(DEFAULT_IDS.footnoteText))
    added.push(
      `<w:style ${W_DECL} w:type="paragraph" w:styleId="${DEFAULT_IDS.footnoteText}"><w:name w:val="Footnote Text (export)"/>` +
        basedOn(byName.get(STYLE_NAMES.footnoteText)?.id) +
        `<w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:rPr><w:sz w:val="18"/></w:rPr></w:style>`,
    );
  const xml = added.length ? text.slice(0, root.closeStart) + added.join('') + text.slice(root.closeStart) : stylesXml;
  return { stylesXml: xml, ids: out };
}

/** Word's look of the title, the headings and links, for a template without them. */
function addedStyle(key: StyleKey, id: string, defaults: Record<string, string>): string {
  if (key === 'hyperlink')
    return (
      `<w:style ${W_DECL} w:type="character" w:styleId="${esc(id)}"><w:name w:val="Hyperlink"/>${basedOn(defaults.character)}` +
      '<w:uiPriority w:val="99"/><w:unhideWhenUsed/><w:rPr><w:color w:val="0563C1"/><w:u w:val="single"/></w:rPr></w:style>'
    );
  // Stryker disable next-line ConditionalExpression,StringLiteral: 'title' has nothing past the length of 'heading', and Number('') is 0 too
  const level = key === 'title' ? 0 : Number(key.slice('heading'.length));
  const sizes = [56, 32, 26, 24, 22, 22, 22];
  const props =
    level === 0
      ? '<w:pPr><w:spacing w:after="120"/></w:pPr>'
      : `<w:pPr><w:keepNext/><w:spacing w:before="240" w:after="120"/><w:outlineLvl w:val="${level - 1}"/></w:pPr>`;
  const run = `<w:rPr>${level ? '<w:b/><w:bCs/>' : ''}${level ? '<w:color w:val="2E74B5"/>' : ''}<w:sz w:val="${sizes[level]}"/><w:szCs w:val="${sizes[level]}"/></w:rPr>`;
  const next = defaults.paragraph ? `<w:next w:val="${esc(defaults.paragraph)}"/>` : '';
  return (
    `<w:style ${W_DECL} w:type="paragraph" w:styleId="${esc(id)}"><w:name w:val="${level ? `heading ${level}` : 'Title'}"/>` +
    `${basedOn(defaults.paragraph)}${next}<w:qFormat/>${props}${run}</w:style>`
  );
}

function basedOn(id: string | undefined): string {
  return id === undefined ? '' : `<w:basedOn w:val="${esc(id)}"/>`;
}
