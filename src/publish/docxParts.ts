/**
 * The parts of a `.docx` package around the document and its footnotes (ECMA-376 Parts 1 and 2):
 * content types, relationships, settings, numbering, the default styles, and the core, extended
 * and custom properties. Pure.
 */
import { langTag, type Lang } from '../text/words';
import { DEFAULT_IDS, type TemplateNumbering } from './docxStyles';
import { esc, XML_DECLARATION } from './wordml';

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

/** The relationships of one part: the fixed ones first, then links and pictures as they are used. */
export class Rels {
  private readonly entries: string[] = [];
  private readonly links = new Map<string, string>();
  private readonly images = new Map<string, string>();

  /** `fixed`: targets of the part's own relationships (styles.xml, numbering.xml, …), by their file names. */
  constructor(fixed: readonly string[]) {
    for (const target of fixed) this.add(target.replace('.xml', ''), target);
  }

  /** The id of an external hyperlink to `href`. */
  link(href: string): string {
    let id = this.links.get(href);
    if (id === undefined) this.links.set(href, (id = this.add('hyperlink', oneFragment(href), true)));
    return id;
  }

  /** The id of a picture at `target` (relative to `word/`). */
  image(target: string): string {
    let id = this.images.get(target);
    if (id === undefined) this.images.set(target, (id = this.add('image', target)));
    return id;
  }

  xml(): string {
    return `${XML_DECLARATION}<Relationships xmlns="${PKG_REL}">${this.entries.join('')}</Relationships>`;
  }

  /** The id of a part of the package's own (`footer`, `fontTable`) at `target`. */
  part(type: string, target: string): string {
    return this.add(type, target);
  }

  private add(type: string, target: string, external = false): string {
    const id = `rId${this.entries.length + 1}`;
    this.entries.push(
      `<Relationship Id="${id}" Type="${REL}/${type}" Target="${esc(target)}"${external ? ' TargetMode="External"' : ''}/>`,
    );
    return id;
  }
}

/**
 * `href` with one fragment, as a relationship's `Target` (an `xs:anyURI`) must have: every `#` after
 * the first is written `%23` (a link may hold several; Word repairs a file whose target is not a URI).
 */
function oneFragment(href: string): string {
  const [address, ...fragment] = href.split('#');
  return fragment.length ? `${address}#${fragment.join('%23')}` : href;
}

const CT = 'application/vnd.openxmlformats-officedocument';
const MEDIA: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  bmp: 'image/bmp',
};

/** `[Content_Types].xml` for our parts, the pictures' extensions, and `extra` parts (under `word/`) by their types' names. */
export function contentTypes(
  mediaPaths: readonly string[],
  extra: readonly { part: string; type: string }[] = [],
): string {
  // Stryker disable next-line MethodExpression: a picture's path (media/imageN.ext) has one dot
  const extensions = new Set(mediaPaths.map((p) => p.slice(p.lastIndexOf('.') + 1)));
  const override = (part: string, type: string): string => `<Override PartName="/${part}" ContentType="${type}"/>`;
  return (
    `${XML_DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    [...extensions].map((e) => `<Default Extension="${e}" ContentType="${MEDIA[e]}"/>`).join('') +
    override('word/document.xml', `${CT}.wordprocessingml.document.main+xml`) +
    override('word/styles.xml', `${CT}.wordprocessingml.styles+xml`) +
    override('word/numbering.xml', `${CT}.wordprocessingml.numbering+xml`) +
    override('word/footnotes.xml', `${CT}.wordprocessingml.footnotes+xml`) +
    override('word/settings.xml', `${CT}.wordprocessingml.settings+xml`) +
    override('docProps/core.xml', 'application/vnd.openxmlformats-package.core-properties+xml') +
    override('docProps/app.xml', `${CT}.extended-properties+xml`) +
    override('docProps/custom.xml', `${CT}.custom-properties+xml`) +
    extra.map((e) => override(`word/${e.part}`, `${CT}.wordprocessingml.${e.type}+xml`)).join('') +
    '</Types>'
  );
}

/** One list of the document: each is its own numbering instance, so that numbers restart. */
export interface ListKind {
  ordered: boolean;
  start: number;
}

/**
 * numbering.xml: a bullet and a decimal definition of nine levels, and one instance per list. Ours
 * alone (abstract ids 0 and 1, numId = the list's index + 1), or added to a template's numbering
 * with the ids after its own, so that the lists its styles name stay as they are.
 */
export function numberingXml(lists: readonly ListKind[], template?: TemplateNumbering): string {
  const bullets = ['•', '◦', '▪'];
  const abstractId = template?.nextAbstractId ?? 0;
  const firstNum = template?.nextNumId ?? 1;
  const decl = template ? ` ${W}` : '';
  const levels = (ordered: boolean): string =>
    Array.from(
      { length: 9 },
      (_, level) =>
        `<w:lvl w:ilvl="${level}"><w:start w:val="1"/><w:numFmt w:val="${ordered ? 'decimal' : 'bullet'}"/>` +
        `<w:lvlText w:val="${ordered ? `%${level + 1}.` : bullets[level % 3]}"/><w:lvlJc w:val="left"/>` +
        `<w:pPr><w:ind w:left="${360 * (level + 1) + 360}" w:hanging="360"/></w:pPr></w:lvl>`,
    ).join('');
  const abstracts =
    `<w:abstractNum${decl} w:abstractNumId="${abstractId}"><w:multiLevelType w:val="hybridMultilevel"/>${levels(false)}</w:abstractNum>` +
    `<w:abstractNum${decl} w:abstractNumId="${abstractId + 1}"><w:multiLevelType w:val="hybridMultilevel"/>${levels(true)}</w:abstractNum>`;
  const nums = lists
    .map(
      (l, i) =>
        `<w:num${decl} w:numId="${firstNum + i}"><w:abstractNumId w:val="${abstractId + (l.ordered ? 1 : 0)}"/>` +
        // every ordered list restarts at its own start; a bullet list has nothing to restart
        (l.ordered ? `<w:lvlOverride w:ilvl="0"><w:startOverride w:val="${l.start}"/></w:lvlOverride>` : '') +
        '</w:num>',
    )
    .join('');
  if (!template) return `${XML_DECLARATION}<w:numbering ${W}>${abstracts}${nums}</w:numbering>`;
  const { xml, abstractAt, numAt } = template;
  return xml.slice(0, abstractAt) + abstracts + xml.slice(abstractAt, numAt) + nums + xml.slice(numAt);
}

/** The section: A4 portrait, 1-inch margins. */
export function sectionXml(): string {
  return (
    '<w:sectPr><w:pgSz w:w="11906" w:h="16838"/>' +
    `<w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/>` +
    '<w:cols w:space="708"/><w:docGrid w:linePitch="360"/></w:sectPr>'
  );
}

/** What the package's properties say. */
export interface PackageInfo {
  title?: string;
  /** The front matter's `date` as written. */
  date?: string;
  lang: Lang;
  now: Date;
  /** A template's styles.xml; our default styles without. */
  stylesXml?: string | undefined;
  /** Headers and footers differ on odd and even pages (the official layout's page numbers). */
  evenAndOddHeaders?: boolean;
}

/** The parts that do not depend on the body, by their paths in the package. */
export function packageParts(info: PackageInfo): Map<string, string> {
  return new Map([
    ['_rels/.rels', packageRels()],
    ['docProps/core.xml', coreXml(info)],
    ['docProps/app.xml', appXml()],
    ['docProps/custom.xml', customXml(info.date)],
    ['word/settings.xml', settingsXml(info.evenAndOddHeaders ?? false)],
    ['word/styles.xml', info.stylesXml ?? defaultStyles()],
  ]);
}

function packageRels(): string {
  const rel = (id: number, type: string, target: string): string =>
    `<Relationship Id="rId${id}" Type="${type}" Target="${target}"/>`;
  return (
    `${XML_DECLARATION}<Relationships xmlns="${PKG_REL}">` +
    rel(1, `${REL}/officeDocument`, 'word/document.xml') +
    rel(2, `${PKG_REL}/metadata/core-properties`, 'docProps/core.xml') +
    rel(3, `${REL}/extended-properties`, 'docProps/app.xml') +
    rel(4, `${REL}/custom-properties`, 'docProps/custom.xml') +
    '</Relationships>'
  );
}

/** docProps/core.xml: the title, and the bulletin's date as the creation date (else now). */
function coreXml(info: PackageInfo): string {
  // Stryker disable next-line Regex: without an anchor, what the date has before or after it leaves no ISO date for Date.parse
  const date = info.date && /^\d{4}-\d{2}-\d{2}$/.test(info.date) ? `${info.date}T00:00:00+08:00` : undefined;
  const created = date && !Number.isNaN(Date.parse(date)) ? new Date(date).toISOString() : info.now.toISOString();
  return (
    `${XML_DECLARATION}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ` +
    'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" ' +
    'xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
    (info.title ? `<dc:title>${esc(info.title)}</dc:title>` : '') +
    `<dc:language>${langTag(info.lang)}</dc:language>` +
    '<cp:revision>1</cp:revision>' +
    `<dcterms:created xsi:type="dcterms:W3CDTF">${created}</dcterms:created>` +
    `<dcterms:modified xsi:type="dcterms:W3CDTF">${info.now.toISOString()}</dcterms:modified>` +
    '</cp:coreProperties>'
  );
}

const PROPS_NS = 'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"';

function appXml(): string {
  return `${XML_DECLARATION}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" ${PROPS_NS}/>`;
}

/** docProps/custom.xml: the front matter's `date` as written. */
function customXml(date: string | undefined): string {
  const property = date
    ? `<property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="date"><vt:lpwstr>${esc(date)}</vt:lpwstr></property>`
    : '';
  return `${XML_DECLARATION}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" ${PROPS_NS}>${property}</Properties>`;
}

/** settings.xml: odd and even footers when asked, which footnotes are the separators, and Word 2013+ layout. */
function settingsXml(evenAndOddHeaders: boolean): string {
  return (
    `${XML_DECLARATION}<w:settings ${W}>` +
    (evenAndOddHeaders ? '<w:evenAndOddHeaders/>' : '') +
    '<w:footnotePr><w:footnote w:id="-1"/><w:footnote w:id="0"/></w:footnotePr>' +
    '<w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="15"/></w:compat>' +
    '</w:settings>'
  );
}

/** Our styles: Normal with readable spacing, the title, six headings, links and footnotes. */
function defaultStyles(): string {
  const ids = DEFAULT_IDS;
  const heading = (level: number, size: number, color: string, italic = false): string =>
    paragraphStyle(
      ids[`heading${level}` as 'heading1'],
      `heading ${level}`,
      `<w:pPr><w:keepNext/><w:spacing w:before="240" w:after="120"/><w:outlineLvl w:val="${level - 1}"/></w:pPr>` +
        `<w:rPr><w:b/><w:bCs/>${italic ? '<w:i/><w:iCs/>' : ''}<w:color w:val="${color}"/>${size ? `<w:sz w:val="${size}"/><w:szCs w:val="${size}"/>` : ''}</w:rPr>`,
    );
  return (
    `${XML_DECLARATION}<w:styles ${W}>` +
    '<w:docDefaults><w:rPrDefault><w:rPr><w:sz w:val="22"/><w:szCs w:val="22"/></w:rPr></w:rPrDefault>' +
    `<w:pPrDefault><w:pPr><w:spacing w:after="120" w:line="300" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults>` +
    '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/></w:style>' +
    '<w:style w:type="character" w:default="1" w:styleId="DefaultParagraphFont"><w:name w:val="Default Paragraph Font"/><w:uiPriority w:val="1"/><w:semiHidden/><w:unhideWhenUsed/></w:style>' +
    paragraphStyle(
      ids.title,
      'Title',
      '<w:pPr><w:spacing w:after="120"/></w:pPr><w:rPr><w:sz w:val="56"/><w:szCs w:val="56"/></w:rPr>',
    ) +
    heading(1, 32, '2E74B5') +
    heading(2, 26, '2E74B5') +
    heading(3, 24, '1F4D78') +
    heading(4, 0, '2E74B5', true) +
    heading(5, 0, '2E74B5') +
    heading(6, 0, '1F4D78') +
    `<w:style w:type="character" w:styleId="${ids.hyperlink}"><w:name w:val="Hyperlink"/><w:basedOn w:val="DefaultParagraphFont"/><w:uiPriority w:val="99"/><w:unhideWhenUsed/><w:rPr><w:color w:val="0563C1"/><w:u w:val="single"/></w:rPr></w:style>` +
    `<w:style w:type="character" w:styleId="${ids.footnoteReference}"><w:name w:val="footnote reference"/><w:basedOn w:val="DefaultParagraphFont"/><w:uiPriority w:val="99"/><w:semiHidden/><w:unhideWhenUsed/><w:rPr><w:vertAlign w:val="superscript"/></w:rPr></w:style>` +
    paragraphStyle(
      ids.footnoteText,
      'footnote text',
      '<w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:rPr><w:sz w:val="18"/><w:szCs w:val="18"/></w:rPr>',
      true,
    ) +
    '</w:styles>'
  );
}

function paragraphStyle(id: string, name: string, props: string, hidden = false): string {
  return (
    `<w:style w:type="paragraph" w:styleId="${id}"><w:name w:val="${name}"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/>` +
    `${hidden ? '<w:uiPriority w:val="99"/><w:semiHidden/><w:unhideWhenUsed/>' : '<w:qFormat/>'}${props}</w:style>`
  );
}
