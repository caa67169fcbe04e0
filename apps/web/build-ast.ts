/** The bits of a syntax tree the console's build plugins edit (ESTree nodes from `this.parse`). */

export interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

export interface Edit {
  start: number;
  end: number;
  text: string;
}

export function children(node: Node, key: string): Node[] {
  const v = node[key];
  return Array.isArray(v) ? (v as Node[]) : [];
}

function isNode(v: unknown): v is Node {
  return typeof v === 'object' && v !== null && typeof (v as Node).type === 'string';
}

export function visit(node: Node, fn: (n: Node) => void): void {
  fn(node);
  for (const [key, v] of Object.entries(node)) {
    if (key === 'parent') continue;
    if (Array.isArray(v)) for (const c of v) isNode(c) && visit(c, fn);
    else if (isNode(v)) visit(v, fn);
  }
}

/** Applies non-overlapping edits (inserts at the same place keep their order). */
export function apply(code: string, edits: Edit[]): string {
  const sorted = edits.map((e, i) => ({ ...e, i })).sort((a, b) => a.start - b.start || a.i - b.i);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    if (e.start < at) continue;
    out += code.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + code.slice(at);
}
