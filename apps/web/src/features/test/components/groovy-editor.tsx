import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, defaultHighlightStyle, indentOnInput, StreamLanguage, syntaxHighlighting } from '@codemirror/language';
import { groovy } from '@codemirror/legacy-modes/mode/groovy';
import { type Diagnostic, lintGutter, setDiagnostics } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from '@codemirror/view';
import type { ScriptProblem } from '@loggerhead/contract/schemas/testmgmt.ts';
import { useEffect, useRef } from 'react';

export interface GroovyEditorProps {
  value: string;
  onChange: (value: string) => void;
  /** Compile errors to mark (their lines get a marker and the message on hover). */
  problems?: readonly ScriptProblem[];
  /** A line to scroll to and select (1-based); a new object each time the user asks. */
  jump?: { line: number; column: number } | null;
  readOnly?: boolean;
  height?: number;
}

/** Problems as CodeMirror diagnostics: the whole line when the compiler gave no column. */
export function toDiagnostics(doc: EditorState['doc'], problems: readonly ScriptProblem[]): Diagnostic[] {
  return problems.map((p) => {
    const line = doc.line(Math.min(Math.max(p.line, 1), doc.lines));
    const from = p.column > 0 ? Math.min(line.from + p.column - 1, line.to) : line.from;
    return { from, to: Math.max(from, line.to), severity: 'error', message: p.message };
  });
}

/**
 * A CodeMirror 6 editor for Groovy (legacy-modes' groovy mode): line numbers, highlighting,
 * undo, bracket matching, and compile errors marked in the gutter. Loaded lazily by the scripts page.
 */
export default function GroovyEditor({ value, onChange, problems = [], jump, readOnly = false, height = 420 }: GroovyEditorProps) {
  const box = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  // biome-ignore lint/correctness/useExhaustiveDependencies: one editor per mount; later values go through dispatch below
  useEffect(() => {
    if (!box.current) return;
    const v = new EditorView({
      parent: box.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          highlightActiveLine(),
          drawSelection(),
          history(),
          indentOnInput(),
          bracketMatching(),
          lintGutter(),
          StreamLanguage.define(groovy),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          EditorState.readOnly.of(readOnly),
          EditorView.theme({ '&': { height: `${height}px`, fontSize: '13px' }, '.cm-scroller': { fontFamily: 'monospace' } }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) onChangeRef.current(u.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
  }, [readOnly, height]);

  // A value set from outside (a version loaded, an import) replaces the text.
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    const v = view.current;
    if (v) v.dispatch(setDiagnostics(v.state, toDiagnostics(v.state.doc, problems)));
  }, [problems]);

  useEffect(() => {
    const v = view.current;
    if (!v || !jump) return;
    const line = v.state.doc.line(Math.min(Math.max(jump.line, 1), v.state.doc.lines));
    const pos = Math.min(line.from + Math.max(jump.column - 1, 0), line.to);
    v.dispatch({ selection: { anchor: pos }, effects: EditorView.scrollIntoView(pos, { y: 'center' }) });
    v.focus();
  }, [jump]);

  return (
    <div
      ref={box}
      className="lh-groovy-editor"
      data-testid="script-editor"
      style={{ border: '1px solid rgba(128,128,128,.35)', borderRadius: 6 }}
    />
  );
}
