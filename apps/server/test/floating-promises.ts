import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/**
 * Finds promises that are dropped with nobody to catch their rejection, read from the source text (no types).
 * In Node an unhandled rejection ends the process, so a database error in work started in the background
 * must be caught where the promise is dropped. Two shapes are refused:
 * - `void <call>` (a statement or an arrow's body) unless the call is `.catch(handler)` or `.then(ok, failed)`:
 *   `void p.finally(...)` and `void p.then(...)` derive a new promise that rejects with `p`, and
 *   `void work()` drops whatever `work` rejects with.
 * - a statement that is a call of `.then(ok)` or `.finally(...)` without `void`, `await` or `return`, except a
 *   `.finally(cleanUp)` straight after a `.catch(handler)` (only the cleanup itself could reject).
 * Biome's `noFloatingPromises` (nursery) was tried: it accepts `void p.finally()` (the very shape that ended
 * the process), and it only runs with type inference on the whole repository (twice the lint time).
 */
export interface FloatingPromise {
  file: string;
  line: number;
  text: string;
}

/** Whether a call handles a rejection itself: `.catch(h)` or `.then(ok, failed)`. */
function handlesRejection(call: ts.CallExpression): boolean {
  const callee = call.expression;
  if (!ts.isPropertyAccessExpression(callee)) return false;
  const name = callee.name.text;
  return (name === 'catch' && call.arguments.length >= 1) || (name === 'then' && call.arguments.length >= 2);
}

function unwrap(node: ts.Expression): ts.Expression {
  let inner = node;
  while (ts.isParenthesizedExpression(inner) || ts.isAsExpression(inner) || ts.isNonNullExpression(inner)) {
    inner = inner.expression;
  }
  return inner;
}

/** Floating promises in one file's text. */
export function floatingPromisesIn(file: string, source: string): FloatingPromise[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: FloatingPromise[] = [];
  const report = (node: ts.Node) => {
    const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    found.push({ file, line: line + 1, text: node.getText(sf).split('\n')[0] ?? '' });
  };
  const visit = (node: ts.Node) => {
    if (ts.isVoidExpression(node)) {
      const operand = unwrap(node.expression);
      if (ts.isCallExpression(operand) && !handlesRejection(operand)) report(node);
    } else if (ts.isExpressionStatement(node)) {
      const expression = unwrap(node.expression);
      if (ts.isCallExpression(expression) && ts.isPropertyAccessExpression(expression.expression)) {
        const name = expression.expression.name.text;
        const receiver = unwrap(expression.expression.expression);
        const afterCatch = ts.isCallExpression(receiver) && handlesRejection(receiver);
        if ((name === 'finally' && !afterCatch) || (name === 'then' && expression.arguments.length < 2)) {
          report(node);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** Every non-test TypeScript source below `dir`, by path relative to `root`. */
export function sourcesBelow(root: string, dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (
        /\.tsx?$/.test(entry.name) &&
        !/\.test\.tsx?$/.test(entry.name) &&
        !entry.name.endsWith('.d.ts')
      ) {
        files[relative(root, path)] = readFileSync(path, 'utf8');
      }
    }
  };
  walk(dir);
  return files;
}
