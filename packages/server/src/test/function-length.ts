import ts from 'typescript';
import { isTestSupport, type SourceFile } from './import-graph.ts';

/** A function and how many lines it spans, from its first line to its last (both counted). */
export interface FunctionLength {
  file: string;
  name: string;
  line: number;
  lines: number;
}

/** The name a function is known by: its own, or the variable, property or method it is assigned to. */
function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return parent.name.getText();
  }
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText().slice(0, 40)})`;
  return '(anonymous)';
}

/** Every function (declaration, expression, arrow, method, accessor, constructor) in a file, with its length. */
export function functionLengths(source: SourceFile): FunctionLength[] {
  const sf = ts.createSourceFile(source.file, source.text, ts.ScriptTarget.Latest, true);
  const out: FunctionLength[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const fn = node as ts.FunctionLikeDeclaration;
      const first = sf.getLineAndCharacterOfPosition(fn.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(fn.getEnd()).line;
      out.push({ file: source.file, name: nameOf(fn), line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The functions longer than `max` lines in the files the server runs (tests and their support left out). */
export function longFunctions(sources: SourceFile[], max: number): FunctionLength[] {
  return sources
    .filter((s) => !isTestSupport(s.file))
    .flatMap(functionLengths)
    .filter((f) => f.lines > max)
    .sort((a, b) => b.lines - a.lines);
}
