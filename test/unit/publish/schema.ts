/**
 * Every XML part of every `.docx` the publishing tests write is validated against the ISO/IEC
 * 29500 Transitional and OPC schemas (test/fixtures/ooxml-xsd/, see its SOURCES.md) by xmllint
 * (Debian's libxml2-utils). The parts are gathered while the tests run, named by the test that
 * wrote them, and checked after the last test, each distinct part once, in one xmllint run that
 * compiles the schemas once (a run costs ~0.1 s on an idle machine, mostly compiling the schemas:
 * one per test made the publishing tests seven times slower). Markup Compatibility is
 * applied first, as Word reads a part: what `mc:Ignorable` names is dropped.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import * as sax from 'sax';

const SCHEMA = join(__dirname, '..', '..', 'fixtures', 'ooxml-xsd', 'docx.xsd');
const MC = 'http://schemas.openxmlformats.org/markup-compatibility/2006';

/** The distinct parts gathered, by their hash; `test`: the title of the test that wrote one first. */
const gathered = new Map<string, { name: string; xml: string; test?: string }>();
let untitled: string[] = [];

/** Gathers the XML parts of a Word file, to be validated after the last test. */
export async function gatherDocx(bytes: Uint8Array): Promise<void> {
  const zip = await JSZip.loadAsync(bytes);
  for (const name of Object.keys(zip.files)) {
    if (!/\.(?:xml|rels)$/.test(name)) continue;
    const xml = await zip.file(name)!.async('string');
    const hash = createHash('sha256').update(xml).digest('hex');
    if (!gathered.has(hash)) {
      gathered.set(hash, { name, xml });
      untitled.push(hash);
    }
  }
}

/** Names the parts gathered since the last call by the test that wrote them. */
export function nameGathered(test: string): void {
  for (const hash of untitled) gathered.get(hash)!.test = test;
  untitled = [];
}

/** xmllint's complaints about `parts` (name → XML), one line each; empty when every part is valid. */
export function schemaErrors(parts: readonly { name: string; xml: string }[]): string[] {
  if (parts.length === 0) return [];
  const dir = mkdtempSync(join(tmpdir(), 'docx-parts-'));
  try {
    const files = parts.map((p, i) => {
      const file = join(dir, `${i}.xml`);
      writeFileSync(file, applyMarkupCompatibility(p.xml));
      return file;
    });
    const named = (line: string): string =>
      line.slice(dir.length + 1).replace(/^(\d+)\.xml/, (_, i: string) => parts[Number(i)]!.name);
    try {
      execFileSync('xmllint', ['--noout', '--nonet', '--schema', SCHEMA, ...files], { stdio: 'pipe' });
      return [];
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT')
        throw new Error(
          'xmllint is not installed: the Word schema check needs it (Debian: apt-get install libxml2-utils)',
        );
      const out = String((err as { stderr?: Buffer }).stderr ?? err);
      return out
        .split('\n')
        .filter((l) => l.startsWith(dir) && !/ validates$/.test(l))
        .map(named);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Validates what was gathered; throws with xmllint's words, each line naming the test and the part. */
export function validateGathered(): void {
  const parts = [...gathered.values()].map((p) => ({ ...p, name: `${p.test ?? '?'} ${p.name}` }));
  gathered.clear();
  const errors = schemaErrors(parts);
  if (errors.length) throw new Error(`schema-invalid Word parts:\n${errors.join('\n')}`);
}

/** The part with the elements and attributes of the namespaces its `mc:Ignorable` lists removed. */
export function applyMarkupCompatibility(xml: string): string {
  if (!xml.includes(MC)) return xml;
  const parser = sax.parser(true, { xmlns: true });
  let out = '';
  let skipping = 0;
  const ignorable = new Set<string>();
  const escAttr = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  parser.onopentag = (tag) => {
    const t = tag as sax.QualifiedTag;
    if (ignorable.size === 0) {
      const list = Object.values(t.attributes).find((a) => a.uri === MC && a.local === 'Ignorable')?.value;
      for (const prefix of list?.split(/\s+/).filter(Boolean) ?? []) ignorable.add(t.ns[prefix] ?? prefix);
    }
    if (skipping || ignorable.has(t.uri)) {
      skipping++;
      return;
    }
    const attrs = Object.values(t.attributes)
      .filter((a) => a.uri !== MC && !ignorable.has(a.uri) && !(a.prefix === 'xmlns' && ignorable.has(a.value)))
      .map((a) => ` ${a.name}="${escAttr(a.value)}"`)
      .join('');
    out += `<${t.name}${attrs}>`;
  };
  parser.onclosetag = (name) => {
    if (skipping) skipping--;
    else out += `</${name}>`;
  };
  parser.ontext = (text) => {
    if (!skipping) out += text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  };
  parser.write(xml).close();
  return out;
}
