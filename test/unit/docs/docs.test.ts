/**
 * The documentation stays true to the repository: the links in it lead somewhere, every command
 * and setting a user can meet is described, the architecture's code map has a section for exactly
 * the folders under src/ (so a change that moves a folder must update it), each saying what the
 * folder may import and its invariants ("May import:", "Invariant:" lines), and no table cell of
 * the architecture, CONTRIBUTING or the benchmarks runs long.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import MarkdownIt from 'markdown-it';
type Token = ReturnType<InstanceType<typeof MarkdownIt>['parse']>[number];

const ROOT = join(__dirname, '..', '..', '..');
const md = new MarkdownIt({ html: true });

const DOCS = [
  'README.md',
  'README.zh-CN.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

function read(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8');
}

function* inline(tokens: Token[]): Generator<Token> {
  for (const t of tokens) {
    yield t;
    if (t.children) yield* inline(t.children);
  }
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
function slug(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(file: string): Set<string> {
  const tokens = md.parse(read(file), {});
  const found = new Set<string>();
  tokens.forEach((t, i) => {
    if (t.type !== 'heading_open') return;
    const text = (tokens[i + 1]?.children ?? []).map((c) => c.content).join('');
    found.add(slug(text));
  });
  return found;
}

/** Every link and image target in a document. */
function targets(file: string): string[] {
  const out: string[] = [];
  for (const t of inline(md.parse(read(file), {}))) {
    if (t.type === 'link_open') out.push(String(t.attrGet('href') ?? ''));
    if (t.type === 'image') out.push(String(t.attrGet('src') ?? ''));
  }
  return out;
}

/** The code map of docs/ARCHITECTURE.md: each `###` section under `## Code map`, its heading and text. */
function codeMap(): { heading: string; body: string }[] {
  const text = read('docs/ARCHITECTURE.md');
  const start = text.indexOf('\n## Code map\n');
  assert.ok(start >= 0, 'the architecture has a code map');
  const end = text.indexOf('\n## ', start + 1);
  return text
    .slice(start, end < 0 ? undefined : end)
    .split(/\n(?=### )/)
    .slice(1)
    .map((section) => {
      const [heading = '', ...body] = section.split('\n');
      return { heading, body: body.join('\n') };
    });
}

/** The text of every table cell in a document, as markdown-it reads it. */
function tableCells(file: string): string[] {
  const tokens = md.parse(read(file), {});
  return tokens.flatMap((t, i) =>
    (t.type === 'td_open' || t.type === 'th_open') && tokens[i + 1]?.type === 'inline' ? [tokens[i + 1]!.content] : [],
  );
}

function folders(dir: string): string[] {
  return readdirSync(join(ROOT, dir))
    .filter((name) => statSync(join(ROOT, dir, name)).isDirectory())
    .flatMap((name) => [`${dir}/${name}/`, ...folders(`${dir}/${name}`)]);
}

const manifest = JSON.parse(read('package.json')) as {
  contributes: { commands: { command: string }[]; configuration: { properties: Record<string, unknown> } };
};
const userDocs = ['README.md', ...DOCS.filter((f) => f.startsWith('docs/'))].map(read).join('\n');

describe('The documentation', () => {
  it('reads some documents (the checks are not blind)', () => {
    assert.ok(DOCS.includes('docs/ARCHITECTURE.md'));
    assert.ok(targets('README.md').length > 5);
    assert.ok(anchors('README.md').has('commands'));
    assert.equal(slug('The `shunong` command line'), 'the-shunong-command-line');
  });

  it('links only to files that exist, and to headings that exist', () => {
    const broken: string[] = [];
    for (const file of DOCS)
      for (const target of targets(file)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // a web address: not ours to check
        const [path = '', anchor] = target.split('#');
        const resolved = path ? join(ROOT, dirname(file), decodeURIComponent(path)) : join(ROOT, file);
        if (!existsSync(resolved)) {
          broken.push(`${file}: ${target} (no such file)`);
          continue;
        }
        if (anchor && resolved.endsWith('.md') && !anchors(relative(ROOT, resolved)).has(anchor))
          broken.push(`${file}: ${target} (no such heading)`);
      }
    assert.deepEqual(broken, []);
  });

  it('links to no web address but the vendor site and the changelog convention', () => {
    const allowed = /^https:\/\/(ai\.agriwis\.com\/|keepachangelog\.com\/)/;
    const outside = DOCS.flatMap((file) =>
      targets(file)
        .filter((t) => /^[a-z][a-z0-9+.-]*:/i.test(t) && !allowed.test(t))
        .map((t) => `${file}: ${t}`),
    );
    assert.deepEqual(outside, []);
  });

  it('describes every contributed command in the README or docs/', () => {
    const missing = manifest.contributes.commands
      .map((c) => c.command)
      .filter((id) => !userDocs.includes(`\`${id}\``) && !userDocs.includes(`${id}\``));
    assert.deepEqual(missing, []);
  });

  it('describes every contributed setting in the README or docs/', () => {
    const missing = Object.keys(manifest.contributes.configuration.properties).filter(
      (key) => !userDocs.includes(`\`${key}\``) && !userDocs.includes(`${key}\``),
    );
    assert.deepEqual(missing, []);
  });

  it('gives every folder under src/ a section of the code map, and none to a folder that does not exist', () => {
    const named = new Set(
      codeMap().flatMap((section) => [...section.heading.matchAll(/`(src\/[\w./-]*\/)`/g)].map((m) => m[1])),
    );
    const actual = new Set(folders('src'));
    assert.deepEqual(
      { missing: [...actual].filter((f) => !named.has(f)), unknown: [...named].filter((f) => !actual.has(f)) },
      { missing: [], unknown: [] },
    );
  });

  it('names no folder under src/ anywhere in the architecture that does not exist', () => {
    const actual = new Set(folders('src'));
    const named = [...read('docs/ARCHITECTURE.md').matchAll(/`(src\/[\w./-]*\/)`/g)].map((m) => m[1]!);
    assert.deepEqual(
      named.filter((f) => !actual.has(f)),
      [],
    );
  });

  it('says in each section of the code map what the folder may import and what it keeps', () => {
    const sections = codeMap();
    assert.ok(sections.length > 20);
    assert.deepEqual(
      sections.filter((s) => !/^May import: /m.test(s.body)).map((s) => s.heading),
      [],
    );
    assert.deepEqual(
      sections.filter((s) => !/^Invariant: /m.test(s.body)).map((s) => s.heading),
      [],
    );
  });

  it('keeps every table cell of the architecture, CONTRIBUTING and the benchmarks short', () => {
    const long = ['docs/ARCHITECTURE.md', 'CONTRIBUTING.md', 'docs/benchmarks.md'].flatMap((file) =>
      tableCells(file)
        .filter((cell) => [...cell].length > 300)
        .map((cell) => `${file}: ${cell.slice(0, 60)}…`),
    );
    assert.deepEqual(long, []);
  });

  it('keeps the README for authors short', () => {
    assert.ok(read('README.md').split('\n').length <= 250);
  });
});
