import { Input, type InputRef } from 'antd';
import { type ClipboardEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { backspace, boxesOf, completeCode, typeInto } from './code-input.logic.ts';

interface Props {
  /** The complete code, or empty (Form.Item passes these). */
  value?: string;
  onChange?: (code: string) => void;
  id?: string;
  length?: number;
  disabled?: boolean;
  autoFocus?: boolean;
  status?: 'error' | 'warning' | '';
}

/**
 * Six single boxes for an SMS or e-mail code (spec §2, §5). The form receives the code
 * only when all boxes hold a digit, and '' while one is empty.
 */
export function CodeInput({ value, onChange, id, length = 6, disabled, autoFocus, status }: Props) {
  const { t } = useTranslation();
  const [digits, setDigits] = useState(() => boxesOf(value, length));
  // The latest boxes, ahead of React's render: fast typing moves focus before the next render.
  const current = useRef(digits);
  const refs = useRef<(InputRef | null)[]>([]);
  // What we last told the form; a different value coming back is a reset or a preset from outside.
  const emitted = useRef<string | undefined>(value);

  useEffect(() => {
    if (value === emitted.current) return;
    emitted.current = value;
    current.current = boxesOf(value, length);
    setDigits(current.current);
  }, [value, length]);

  const apply = (next: string[], focus: number) => {
    current.current = next;
    setDigits(next);
    const code = completeCode(next);
    if (code !== (emitted.current ?? '')) {
      emitted.current = code;
      onChange?.(code);
    }
    refs.current[focus]?.focus();
  };

  const onKeyDown = (i: number) => (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (/^\d$/.test(e.key)) {
      // Typing the digit a box already holds changes nothing, so no change event would move on.
      e.preventDefault();
      const s = typeInto(current.current, i, e.key);
      apply(s.digits, s.focus);
    } else if (e.key === 'Backspace') {
      e.preventDefault();
      const s = backspace(current.current, i);
      apply(s.digits, s.focus);
    } else if (e.key === 'ArrowLeft' && i > 0) refs.current[i - 1]?.focus();
    else if (e.key === 'ArrowRight' && i < length - 1) refs.current[i + 1]?.focus();
  };

  const onPaste = (i: number) => (e: ClipboardEvent<HTMLInputElement>) => {
    e.preventDefault();
    const s = typeInto(current.current, i, e.clipboardData.getData('text'));
    apply(s.digits, s.focus);
  };

  return (
    <fieldset
      className="lh-code-input"
      id={id}
      aria-label={t('widgets.codeInput.label')}
      style={{ display: 'flex', gap: 8, border: 0, padding: 0, margin: 0, minWidth: 0 }}
    >
      {digits.map((d, i) => (
        <Input
          // biome-ignore lint/suspicious/noArrayIndexKey: the boxes are positions, they never reorder.
          key={i}
          ref={(el) => {
            refs.current[i] = el;
          }}
          value={d}
          disabled={disabled}
          autoFocus={autoFocus && i === 0}
          status={status}
          inputMode="numeric"
          autoComplete={i === 0 ? 'one-time-code' : 'off'}
          aria-label={t('widgets.codeInput.digit', { n: i + 1 })}
          data-testid={`code-box-${i}`}
          maxLength={2}
          style={{ width: 40, textAlign: 'center', paddingInline: 0 }}
          onFocus={(e) => e.target.select()}
          onKeyDown={onKeyDown(i)}
          onPaste={onPaste(i)}
          onChange={(e) => {
            const s = typeInto(current.current, i, e.target.value);
            apply(s.digits, s.focus);
          }}
        />
      ))}
    </fieldset>
  );
}
