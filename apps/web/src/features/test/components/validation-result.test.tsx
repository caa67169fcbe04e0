// @vitest-environment happy-dom
import { EditorState } from '@codemirror/state';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeLang, loadFeatureMessages } from '../../../i18n/setup.ts';
import GroovyEditor, { toDiagnostics } from './groovy-editor.tsx';
import { ValidationResult } from './validation-result.tsx';

beforeAll(async () => {
  // As the route guard does before a page shows.
  await loadFeatureMessages('en');
  await changeLang('en');
});
afterEach(cleanup);

const SOURCE = "def a = 1\ndef b = 2\nmetric('x', a +* b)\n";

describe('the script editor shows what Validate answered', () => {
  it('lists each compile error with its line and column; clicking one asks the editor to go there', () => {
    const onJump = vi.fn();
    render(
      <ValidationResult
        result={{
          valid: false,
          errors: [
            { line: 3, column: 16, message: 'Unexpected input: +*' },
            { line: 0, column: 0, message: 'General error' },
          ],
        }}
        onJump={onJump}
      />,
    );
    expect(screen.getByTestId('validation-errors').textContent).toContain('2 compile error(s)');
    const items = screen.getAllByTestId('validation-error');
    expect(items).toHaveLength(2);
    expect(items[0].textContent).toBe('Line 3, column 16 Unexpected input: +*');
    // An error without a position has no link, only its message.
    expect(items[1].textContent).toBe('General error');
    expect(screen.getAllByTestId('validation-error-at')).toHaveLength(1);
    fireEvent.click(screen.getByTestId('validation-error-at'));
    expect(onJump).toHaveBeenCalledWith(3, 16);
  });

  it('says the script compiles, and that the check is stale once the text changed', () => {
    const { rerender } = render(<ValidationResult result={{ valid: true, errors: [] }} />);
    expect(screen.getByTestId('validation-ok').textContent).toContain('Valid: the script compiles');
    expect(screen.queryByTestId('validation-errors')).toBeNull();
    rerender(<ValidationResult result={{ valid: true, errors: [] }} stale />);
    expect(screen.getByTestId('validation-ok').textContent).toContain('validate again');
  });

  it('shows nothing before the first validation', () => {
    const { container } = render(<ValidationResult result={null} />);
    expect(container.textContent).toBe('');
  });

  it('marks the error at its line and column in the text (the whole line without a column)', () => {
    const doc = EditorState.create({ doc: SOURCE }).doc;
    const [at, whole] = toDiagnostics(doc, [
      { line: 3, column: 15, message: 'Unexpected input' },
      { line: 2, column: 0, message: 'no column' },
    ]);
    expect(SOURCE.slice(at.from, at.to)).toBe('+* b)');
    expect(SOURCE.slice(whole.from, whole.to)).toBe('def b = 2');
    expect(at.severity).toBe('error');
    // A line past the end marks the last line rather than failing.
    const [past] = toDiagnostics(doc, [{ line: 99, column: 0, message: 'x' }]);
    expect(past.from).toBe(doc.line(doc.lines).from);
  });

  it('the editor shows line numbers and marks the erroneous line in the gutter', async () => {
    const { container, rerender } = render(<GroovyEditor value={SOURCE} onChange={() => {}} />);
    expect([...container.querySelectorAll('.cm-lineNumbers .cm-gutterElement')].map((e) => e.textContent)).toEqual(
      expect.arrayContaining(['1', '2', '3']),
    );
    expect(container.querySelector('.cm-lint-marker-error')).toBeNull();
    await act(async () => {
      rerender(<GroovyEditor value={SOURCE} onChange={() => {}} problems={[{ line: 3, column: 15, message: 'Unexpected input' }]} />);
    });
    await waitFor(() => expect(container.querySelector('.cm-lintRange-error')?.textContent).toBe('+* b)'));
    expect(container.querySelectorAll('.cm-lint-marker-error')).toHaveLength(1);
  });
});
