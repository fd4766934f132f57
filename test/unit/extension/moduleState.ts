/**
 * Finds the modules of src/ that hold state of their own, by reading each file's syntax tree:
 * what a second copy of the module in another bundle would hold apart from the first. It reads
 * declarations only: state a call makes (a memoising function kept in a constant) or a table made
 * full and changed later is not seen, and such a module is written like the others (a `let`, or a
 * collection made empty and filled).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

/** Why a module holds state, as found in its text. */
export type StateKind =
  /** A `let` or `var` at module scope: a value the module changes (a memo, a counter). */
  | 'mutable binding'
  /**
   * A Map, Set, WeakMap, WeakSet, array or object made empty at module scope or as a static field:
   * filled at run time (one made full is taken for a constant table).
   */
  | 'collection'
  /** A `Symbol()` or an object of our own made at module scope or as a static field: equal only to itself. */
  | 'identity'
  /** A class thrown (extends an Error) or checked with `instanceof`: each copy is another class. */
  | 'class';

export interface ModuleState {
  /** The module, relative to the repository, with forward slashes. */
  readonly file: string;
  /** What was found, with the name it was found under (`kind name`). */
  readonly found: string[];
}

const COLLECTIONS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet']);

/** Every .ts file under `dir`. */
function tsFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => join(e.parentPath, e.name));
}

/** The names written right of an `instanceof` anywhere in `source`. */
function instanceofNames(source: ts.SourceFile, into: Set<string>): void {
  const visit = (node: ts.Node): void => {
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.InstanceOfKeyword) {
      const right = node.right;
      into.add(ts.isPropertyAccessExpression(right) ? right.name.text : right.getText(source));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

/** What an initializer made at module scope or in a static field makes, if it is state. */
function madeState(init: ts.Expression | undefined, ownClasses: ReadonlySet<string>): StateKind | undefined {
  if (init === undefined) return undefined;
  while (ts.isAsExpression(init) || ts.isSatisfiesExpression(init) || ts.isParenthesizedExpression(init))
    init = init.expression;
  if (ts.isArrayLiteralExpression(init) && init.elements.length === 0) return 'collection';
  if (ts.isObjectLiteralExpression(init) && init.properties.length === 0) return 'collection';
  if (ts.isNewExpression(init) && ts.isIdentifier(init.expression)) {
    const name = init.expression.text;
    if (COLLECTIONS.has(name) && (init.arguments ?? []).length === 0) return 'collection';
    if (ownClasses.has(name)) return 'identity';
  }
  if (ts.isCallExpression(init) && ts.isIdentifier(init.expression) && init.expression.text === 'Symbol')
    return 'identity';
  return undefined;
}

/** The name of what a class extends, if it extends anything. */
function extendsName(node: ts.ClassDeclaration, source: ts.SourceFile): string | undefined {
  const clause = node.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword);
  const type = clause?.types[0]?.expression;
  return type === undefined ? undefined : ts.isPropertyAccessExpression(type) ? type.name.text : type.getText(source);
}

/** The modules under `root`/src (but src/webview, the browser's) that hold state, sorted by path. */
export function modulesWithState(root: string): ModuleState[] {
  const sources = tsFiles(join(root, 'src'))
    .filter((f) => !relative(join(root, 'src'), f).startsWith(`webview${sep}`))
    .map((f) => ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.ES2022, false));
  const checked = new Set<string>();
  const ownClasses = new Set<string>();
  for (const s of sources) {
    instanceofNames(s, checked);
    for (const st of s.statements) if (ts.isClassDeclaration(st) && st.name) ownClasses.add(st.name.text);
  }
  const out: ModuleState[] = [];
  for (const s of sources) {
    const found: string[] = [];
    for (const st of s.statements) {
      if (ts.isVariableStatement(st)) {
        const mutable = (st.declarationList.flags & (ts.NodeFlags.Let | ts.NodeFlags.Const)) !== ts.NodeFlags.Const;
        for (const d of st.declarationList.declarations) {
          const name = d.name.getText(s);
          if (mutable) found.push(`mutable binding ${name}`);
          else {
            const kind = madeState(d.initializer, ownClasses);
            if (kind) found.push(`${kind} ${name}`);
          }
        }
      } else if (ts.isClassDeclaration(st) && st.name) {
        const name = st.name.text;
        if (checked.has(name) || /Error$/.test(extendsName(st, s) ?? '')) found.push(`class ${name}`);
        for (const m of st.members) {
          const isStatic =
            ts.canHaveModifiers(m) && ts.getModifiers(m)?.some((x) => x.kind === ts.SyntaxKind.StaticKeyword);
          if (!isStatic || !ts.isPropertyDeclaration(m)) continue;
          const kind = madeState(m.initializer, ownClasses);
          if (kind) found.push(`${kind} ${name}.${m.name.getText(s)}`);
        }
      }
    }
    if (found.length > 0) out.push({ file: relative(root, s.fileName).split(sep).join('/'), found });
  }
  return out.sort((a, b) => (a.file < b.file ? -1 : 1));
}
