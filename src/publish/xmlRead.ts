/**
 * Reads the XML of a template's parts with a real parser (sax), by namespace: any prefix bound to
 * the WordprocessingML namespace is WordprocessingML. Gives the elements in document order with
 * where each starts and ends in the text, so that a part can be added to without rewriting it. Pure.
 */
import * as sax from 'sax';
import { withoutBom } from '../text/bom';

/** The WordprocessingML main namespace. */
export const W_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/** One element: its namespace and local name, its attributes by `namespace local`, and its place in the text. */
export interface XmlElement {
  uri: string;
  local: string;
  attributes: ReadonlyMap<string, string>;
  /** 0 for the root. */
  depth: number;
  /** Index of its `<`. */
  start: number;
  /** Index just past its start tag. */
  openEnd: number;
  /** Index of its end tag's `<` (its `openEnd` when it is empty, `<x/>`). */
  closeStart: number;
  /** Index just past its end. */
  end: number;
}

/** Not well-formed XML: where (1-based) and why, in the parser's words. */
export class XmlSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    reason: string,
  ) {
    super(`line ${line}, column ${column}: ${reason}`);
  }
}

/** The elements of `xml` in document order; throws {@link XmlSyntaxError}. */
export function readXml(xml: string): XmlElement[] {
  const text = withoutBom(xml);
  const shift = text.length === xml.length ? 0 : 1;
  const parser = sax.parser(true, { xmlns: true });
  const out: XmlElement[] = [];
  const open: XmlElement[] = [];
  // thrown out of write() or close(), the first error stops the parse
  parser.onerror = (e) => {
    throw new XmlSyntaxError(parser.line + 1, parser.column + 1, e.message.split('\n')[0]!);
  };
  parser.onopentag = (tag) => {
    const t = tag as sax.QualifiedTag;
    const attributes = new Map<string, string>();
    for (const a of Object.values(t.attributes)) attributes.set(`${a.uri} ${a.local}`, a.value);
    const start = parser.startTagPosition - 1 + shift;
    const el: XmlElement = {
      uri: t.uri,
      local: t.local,
      attributes,
      depth: open.length,
      start,
      openEnd: parser.position + shift,
      // Stryker disable next-line UnaryOperator: set when it closes, and every element is closed before readXml returns (an unclosed one is a syntax error)
      closeStart: -1,
      // Stryker disable next-line UnaryOperator: as above
      end: -1,
    };
    out.push(el);
    open.push(el);
  };
  parser.onclosetag = () => {
    const el = open.pop()!;
    el.end = parser.position + shift;
    // its own end tag: the last `</` before its end (at `end` itself the next end tag may begin)
    el.closeStart = el.end === el.openEnd ? el.openEnd : xml.lastIndexOf('</', el.end - 1);
  };
  parser.write(text).close();
  if (out.length === 0) throw new XmlSyntaxError(1, 1, 'no root element');
  return out;
}

/** A WordprocessingML attribute of an element. */
export function wAttr(el: XmlElement, local: string): string | undefined {
  return el.attributes.get(`${W_NS} ${local}`);
}
