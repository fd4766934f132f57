/**
 * Every user-visible string ships in en and zh-CN:
 * - each literal passed to `l10n.t(...)` under src/ has a zh-CN translation with the same placeholders;
 * - package.nls.json and package.nls.zh-cn.json have the same keys, and every %key% in package.json exists;
 * - what the workbench shows of package.json's contributions (titles, descriptions, labels…) is a %key%.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { parseCitation } from '../../../src/citations/citation';
import { MESSAGES } from '../../../src/citations/problems';
import { messagesEn } from '../../../src/knowledge/messages';

const root = join(__dirname, '..', '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

/**
 * The string literals given as first argument to `.t(...)`: `l10n.t` / `vscode.l10n.t` (the UI
 * language) and the document-language catalogue of src/text/words.ts, called as `words.t(...)`
 * or `wordsOf(lang).t(...)`. `others` collects `.t('…')` calls on anything else, which would hide
 * a key from these checks.
 */
function l10nLiterals(file: string, others: string[] = []): string[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 't') {
      const target = n.expression.expression;
      const named = (x: ts.Expression, name: string): boolean =>
        (ts.isPropertyAccessExpression(x) && x.name.text === name) || (ts.isIdentifier(x) && x.text === name);
      const known =
        named(target, 'l10n') ||
        named(target, 'words') ||
        (ts.isCallExpression(target) && named(target.expression, 'wordsOf'));
      const first = n.arguments[0];
      if (first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) {
        if (known) found.push(first.text);
        else others.push(`${file}: ${n.getText(sf).slice(0, 60)}`);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

const placeholders = (s: string): string[] => (s.match(/\{\d+\}/g) ?? []).sort();

describe('localisation (en + zh-CN)', () => {
  const bundle = JSON.parse(readFileSync(join(root, 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8')) as Record<
    string,
    string
  >;

  // The knowledge layer's English templates are shown through vscode.l10n.t too (features/shared/passageText.ts).
  const keys = (): Set<string> =>
    new Set([...sourceFiles(join(root, 'src')).flatMap((f) => l10nLiterals(f)), ...Object.values(messagesEn)]);

  it('translates every l10n.t string of src/ with the same placeholders', () => {
    const literals = keys();
    assert.ok(literals.size > 10, 'expected to find the extension strings');
    const missing = [...literals].filter((s) => !(s in bundle));
    assert.deepEqual(missing, [], 'strings without a zh-CN translation');
    for (const s of literals)
      assert.deepEqual(placeholders(bundle[s] ?? ''), placeholders(s), `placeholders of "${s}"`);
  });

  it('sees every .t(…) key: called on l10n, on a Words named words, or on wordsOf(…)', () => {
    const others: string[] = [];
    for (const f of sourceFiles(join(root, 'src'))) l10nLiterals(f, others);
    assert.deepEqual(others, []);
  });

  it("words a citation problem and a parse failure in the UI's English as the problems' own English (the same templates)", () => {
    // src/citations/problemText.ts words them for the UI (features/shared/problems.ts) and the CLI alike.
    const ui = new Set(l10nLiterals(join(root, 'src', 'citations', 'problemText.ts')));
    const failures = ['a.docx', ' #3', 'a#01'].map((s) => {
      const r = parseCitation(s);
      assert.ok(!r.ok, s);
      return r.message.replace(r.subject, '{0}');
    });
    for (const english of [...Object.values(MESSAGES), ...failures]) assert.ok(ui.has(english), english);
  });

  it('has no stale zh-CN entries', () => {
    const literals = keys();
    assert.deepEqual(
      Object.keys(bundle).filter((k) => !literals.has(k)),
      [],
    );
  });

  it('has the same package.nls keys in en and zh-CN, covering package.json', () => {
    const en = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
    const zh = JSON.parse(readFileSync(join(root, 'package.nls.zh-cn.json'), 'utf8')) as Record<string, string>;
    assert.deepEqual(Object.keys(zh).sort(), Object.keys(en).sort());
    const used = [...readFileSync(join(root, 'package.json'), 'utf8').matchAll(/"%([\w.-]+)%"/g)].map(
      (m) => m[1] as string,
    );
    assert.ok(used.length > 5);
    assert.deepEqual(
      used.filter((k) => !(k in en)),
      [],
    );
  });

  it("localises every user-visible string of package.json's contributions (a %key%, never literal text)", () => {
    // Fields the workbench shows to a person (not ids, when-clauses, or text meant for a model).
    const shown = new Set([
      'title',
      'shortTitle',
      'category',
      'contextualTitle',
      'description',
      'markdownDescription',
      'enumDescriptions',
      'markdownEnumDescriptions',
      'label',
      'altText',
      'displayName',
      'placeholder',
      'contents',
      'userDescription',
      'fullName',
    ]);
    const literal: string[] = [];
    const walk = (v: unknown, path: string, key: string): void => {
      if (typeof v === 'string') {
        if (shown.has(key) && !/^%[\w.-]+%$/.test(v)) literal.push(`${path} = ${v}`);
      } else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`, key));
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`, k);
    };
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { contributes: unknown };
    walk(manifest.contributes, 'contributes', '');
    assert.deepEqual(literal, []);
  });
});
