/**
 * The repository stands alone: a user's clone has nothing beside it, so no source, test, bench or
 * script may read a file by an absolute path or from a folder beside the checkout. What a test
 * quotes lives under test/fixtures/ with its source named.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const FOLDERS = ['src', 'test', 'bench', 'scripts', '.ci'];
const SKIP = new Set(['node_modules', 'fixtures', 'out', 'dist']);

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (/\.(ts|mts|mjs|js|sh)$/.test(entry.name) || entry.name === 'run') yield path;
  }
}

/**
 * A path outside the checkout: an absolute path into the workplace, or the team's shared folder
 * beside the checkout (its reference pages, notes, schemas and design text).
 */
const OUTSIDE = [/['"`]\/work\//, /shared\/(reference|notes|ooxml-xsd|DESIGN\.md)/];

describe('The repository is self-contained', () => {
  it('no file under src, test, bench, scripts or .ci reads a path outside the checkout', () => {
    const found: string[] = [];
    for (const folder of FOLDERS)
      for (const path of files(join(ROOT, folder))) {
        const text = readFileSync(path, 'utf8');
        for (const pattern of OUTSIDE) if (pattern.test(text)) found.push(`${relative(ROOT, path)}: ${pattern}`);
      }
    assert.deepEqual(found, []);
  });

  it('sees the pattern it looks for (the check is not blind)', () => {
    // built from parts, so that this file holds no such path itself
    const sample = `readFileSync('${['', 'work', 'shared', 'reference', '000.txt'].join('/')}')`;
    assert.ok(OUTSIDE.some((p) => p.test(sample)));
    assert.ok(OUTSIDE.some((p) => p.test(`join(ROOT, '..', '${['shared', 'ooxml-xsd', 'wml.xsd'].join('/')}')`)));
    assert.ok(!OUTSIDE.some((p) => p.test("import { uiLanguage } from '../shared/language';")));
  });
});

describe('Comments say why, not when', () => {
  it('no source, test or bench names an issue number (history belongs in git and the CHANGELOG)', () => {
    const found: string[] = [];
    for (const folder of ['src', 'test', 'bench'])
      for (const path of files(join(ROOT, folder))) {
        readFileSync(path, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (/\bissues? \d+\b/i.test(line)) found.push(`${relative(ROOT, path)}:${i + 1}: ${line.trim()}`);
          });
      }
    assert.deepEqual(found, []);
  });
});
