import type { Plugin } from 'vite';
import { apply, children, type Edit, type Node, visit } from './build-ast.ts';

/**
 * Keeps the contract's zod schemas out of the console's first load (docs/decisions/0116-light-console.md).
 *
 * The console calls a route of the contract's table by its method, path and permission key; the
 * route's schemas only type the call. But the table refers to every schema of the API, so zod and
 * all the schemas would load with the first page. In the build of the console:
 *
 * - the schemas of each `defineRoute({ … })` (`params`, `query`, `body`, `response`) become
 *   `undefined`;
 * - each top-level constant of the contract made by a call (a schema, a table built at load time)
 *   is marked free of side effects, so the bundler drops it where nothing uses it, and zod with it
 *   where no page parses with a schema. A page that does (a form checking a field with the
 *   contract's rule) still gets it, in its own chunk.
 *
 * Types are untouched: the source stays one table for the server and the console.
 */
export function leanContract(): Plugin {
  return {
    name: 'loggerhead:lean-contract',
    apply: 'build',
    // After TypeScript is stripped: the code is plain JavaScript here.
    enforce: 'post',
    transform(code, id) {
      const file = id.split('?')[0].replaceAll('\\', '/');
      if (!/\/packages\/contract\/src\/.+\.ts$/.test(file) || /\.test\.ts$/.test(file)) return null;
      const edits: Edit[] = [];
      const program = this.parse(code) as unknown as Node;
      if (file.includes('/routes/')) visit(program, (node) => dropRouteSchemas(node, edits));
      for (const statement of children(program, 'body')) {
        const declaration = statement.type === 'ExportNamedDeclaration' ? (statement.declaration as Node | null) : statement;
        if (declaration?.type !== 'VariableDeclaration') continue;
        for (const d of children(declaration, 'declarations')) {
          const init = d.init as Node | null;
          if (init && hasCall(init)) {
            edits.push({ start: init.start, end: init.start, text: '/* @__PURE__ */ (() => (' });
            edits.push({ start: init.end, end: init.end, text: '))()' });
          }
        }
      }
      if (edits.length === 0) return null;
      return { code: apply(code, edits), map: null };
    },
  };
}

const SCHEMA_KEYS = new Set(['params', 'query', 'body', 'response']);

function dropRouteSchemas(node: Node, edits: Edit[]): void {
  if (node.type !== 'CallExpression') return;
  const callee = node.callee as Node;
  const arg = (node.arguments as Node[])[0];
  if (callee.type !== 'Identifier' || callee.name !== 'defineRoute' || arg?.type !== 'ObjectExpression') return;
  for (const p of children(arg, 'properties')) {
    const key = p.key as Node | undefined;
    if (p.type !== 'Property' || p.computed || key?.type !== 'Identifier' || !SCHEMA_KEYS.has(key.name as string)) continue;
    edits.push({ start: p.start, end: p.end, text: `${key.name}: undefined` });
  }
}

function hasCall(node: Node): boolean {
  let found = false;
  visit(node, (n) => {
    // A call inside a function made here runs later, if ever: it does not make the constant's value.
    if (n.type === 'CallExpression' || n.type === 'NewExpression' || n.type === 'TaggedTemplateExpression') found = true;
  });
  return found && node.type !== 'ArrowFunctionExpression' && node.type !== 'FunctionExpression';
}
