import type { Plugin } from 'vite';
import { apply, children, type Edit, type Node, visit } from './build-ast.ts';

const LANG_QUERY = /\/i18n\.ts\?lang=(zh|en)$/;

/**
 * One language per copy of a feature's message catalogue (docs/decisions/0147-messages-load-by-language.md).
 *
 * The console imports each feature's `i18n.ts` as `i18n.ts?lang=zh` and `?lang=en`
 * (`src/i18n/messages.ts`). In those copies the other language's messages become `{}` (and the copy imports nothing), and
 * `catalogueChunk` puts all copies of one language in one chunk, so a visitor loads only the
 * language shown. The files stay one catalogue each, with both languages side by side.
 */
export function catalogueLanguage(): Plugin {
  return {
    name: 'loggerhead:catalogue-language',
    // After TypeScript is stripped: the code is plain JavaScript here.
    enforce: 'post',
    transform(code, id) {
      const lang = LANG_QUERY.exec(id.replaceAll('\\', '/'))?.[1];
      if (!lang) return null;
      const edits: Edit[] = [];
      const program = this.parse(code) as unknown as Node;
      // The copy imports nothing: `defineCatalogue` only types the file, and an import would tie the
      // copies' chunk to the module that defines it.
      for (const statement of children(program, 'body')) {
        if (statement.type !== 'ImportDeclaration') continue;
        const names = children(statement, 'specifiers').map((s) => (s.imported as Node | undefined)?.name);
        if (names.length === 1 && names[0] === 'defineCatalogue') edits.push({ start: statement.start, end: statement.end, text: '' });
      }
      visit(program, (node) => {
        if (node.type !== 'CallExpression') return;
        const callee = node.callee as Node;
        const arg = (node.arguments as Node[])[0];
        if (callee.type !== 'Identifier' || callee.name !== 'defineCatalogue' || arg?.type !== 'ObjectExpression') return;
        edits.push({ start: node.start, end: arg.start, text: '(' }, { start: arg.end, end: node.end, text: ')' });
        for (const p of children(arg, 'properties')) {
          const key = p.key as Node | undefined;
          const name = key?.type === 'Identifier' ? key.name : key?.type === 'Literal' ? key.value : undefined;
          if (p.type === 'Property' && !p.computed && (name === 'zh' || name === 'en') && name !== lang) {
            const value = p.value as Node;
            edits.push({ start: value.start, end: value.end, text: '{}' });
          }
        }
      });
      if (!edits.some((e) => e.text === '(')) this.error(`${id}: no defineCatalogue({ zh, en }) to split`);
      return { code: apply(code, edits), map: null };
    },
  };
}

/** The chunk of a language's catalogue copies (`messages-zh`, `messages-en`), for the build's manualChunks. */
export function catalogueChunk(id: string): string | undefined {
  const lang = LANG_QUERY.exec(id.replaceAll('\\', '/'))?.[1];
  return lang ? `messages-${lang}` : undefined;
}
