// Guards the shape of src/: no import cycle between folders (a folder is a concept; the graph of
// concepts must stay a hierarchy), no cycle between files, type imports included (module load order
// must never depend on which file happens to be imported first, and a type cycle is a dependency
// cycle all the same), and nothing below the faces imports the Gateway (the composition root): the
// rest gets narrow ports (src/gateway/ports.ts). Read with the TypeScript parser, so type-only
// imports are told apart from value imports exactly.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../src');

interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Relative imports and re-exports of every file in src/, resolved to files, each marked type-only or not. */
function importEdges(): Edge[] {
  const files = new Set(sourceFiles(SRC));
  const resolve = (from: string, specifier: string): string | undefined => {
    const base = path.resolve(path.dirname(from), specifier).replace(/\.js$/, '');
    return [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((candidate) => files.has(candidate));
  };
  const edges: Edge[] = [];
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
    for (const statement of source.statements) {
      let specifier: ts.Expression | undefined;
      let typeOnly = false;
      if (ts.isImportDeclaration(statement)) {
        specifier = statement.moduleSpecifier;
        const clause = statement.importClause;
        const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
        typeOnly = Boolean(clause && (clause.isTypeOnly || (!clause.name && named && named.length > 0 && named.every((e) => e.isTypeOnly))));
      } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier) {
        specifier = statement.moduleSpecifier;
        const named = statement.exportClause && ts.isNamedExports(statement.exportClause) ? statement.exportClause.elements : undefined;
        typeOnly = statement.isTypeOnly || Boolean(named && named.length > 0 && named.every((e) => e.isTypeOnly));
      }
      if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
      const to = resolve(file, specifier.text);
      if (to) edges.push({ from: file, to, typeOnly });
    }
  }
  return edges;
}

/** The strongly connected components with more than one node (Tarjan), each sorted. */
function cycles(edges: Array<[string, string]>): string[][] {
  const next = new Map<string, string[]>();
  for (const [a, b] of edges) {
    if (a === b) continue;
    next.set(a, [...(next.get(a) ?? []), b]);
    if (!next.has(b)) next.set(b, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node)!) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return found;
}

const folderOf = (file: string) => path.relative(SRC, path.dirname(file)).split(path.sep)[0] || '.';

describe('the import graph of src/', () => {
  const edges = importEdges();

  it('finds the imports it checks (the parser reads the tree)', () => {
    expect(edges.length).toBeGreaterThan(300);
    expect(edges.some((e) => e.typeOnly)).toBe(true);
    expect(cycles([['a', 'b'], ['b', 'c'], ['c', 'a'], ['c', 'd']])).toEqual([['a', 'b', 'c']]);
  });

  it('has no cycle between folders, counting type imports too', () => {
    const between = edges.map((e) => [folderOf(e.from), folderOf(e.to)] as [string, string]).filter(([a, b]) => a !== b);
    const found = cycles(between).map((component) => {
      const inside = new Set(component);
      const through = edges.filter((e) => inside.has(folderOf(e.from)) && inside.has(folderOf(e.to)) && folderOf(e.from) !== folderOf(e.to));
      return `${component.join(' <-> ')}: ${through.map((e) => `${path.relative(SRC, e.from)} -> ${path.relative(SRC, e.to)}`).join(', ')}`;
    });
    expect(found).toEqual([]);
  });

  it('has no cycle between files, counting type imports too', () => {
    const all = edges.map((e) => [path.relative(SRC, e.from), path.relative(SRC, e.to)] as [string, string]);
    expect(cycles(all)).toEqual([]);
  });

  it('lets only the faces and the CLI import the Gateway; everything below gets narrow ports', () => {
    const root = path.join(SRC, 'gateway', 'gateway.ts');
    const faces = (file: string) => ['http', 'cli'].includes(folderOf(file)) || file === path.join(SRC, 'gateway', 'stdio-face.ts');
    const importers = edges.filter((e) => e.to === root).map((e) => e.from);
    expect(importers.length).toBeGreaterThan(0);
    expect(importers.filter((file) => !faces(file)).map((file) => path.relative(SRC, file))).toEqual([]);
  });
});
