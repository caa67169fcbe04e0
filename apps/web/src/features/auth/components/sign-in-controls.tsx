import EyeInvisibleOutlined from '@ant-design/icons-svg/es/asn/EyeInvisibleOutlined';
import EyeOutlined from '@ant-design/icons-svg/es/asn/EyeOutlined';
import type { IconDefinition } from '@ant-design/icons-svg/es/types';
import { type ButtonHTMLAttributes, type InputHTMLAttributes, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SvgIcon } from '../../../components/svg-icon.tsx';

/*
 * The sign-in page's controls in plain markup, drawn like Ant Design's large ones (login.css):
 * the page's first load does without Ant Design's form engine and inputs.
 */

/** A field's error line, under it; the input names it with `aria-describedby`. */
export function FieldError({ id, text }: { id: string; text: string | null }) {
  return text ? (
    <div id={id} className="lh-field__error">
      {text}
    </div>
  ) : null;
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'prefix'> & {
  id: string;
  icon?: IconDefinition;
  /** The validation message shown under the field; the field is marked invalid. */
  error?: string | null;
  /** Shown after the input, inside its box (the password's eye). */
  suffix?: ReactNode;
};

/** A text input with its icon, as Ant Design's `<Input size="large" prefix={…} />`. */
export function TextInput({ id, icon, error, suffix, className, ...rest }: InputProps) {
  return (
    <span className={`lh-input${error ? ' lh-input--error' : ''}${className ? ` ${className}` : ''}`}>
      {icon && <SvgIcon icon={icon} className="lh-input__prefix" />}
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}_help` : undefined} {...rest} />
      {suffix}
    </span>
  );
}

/** A password input with the button that shows or hides it. */
export function PasswordInput(props: InputProps) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <TextInput
      {...props}
      type={visible ? 'text' : 'password'}
      suffix={
        <button
          type="button"
          className="lh-input__suffix"
          aria-label={t(visible ? 'auth.login.password.hide' : 'auth.login.password.show')}
          aria-pressed={visible}
          onClick={() => setVisible((v) => !v)}
        >
          <SvgIcon icon={visible ? EyeOutlined : EyeInvisibleOutlined} />
        </button>
      }
    />
  );
}

/** A button; `loading` shows the spinner and ignores clicks, as Ant Design's does. */
export function Button({
  variant = 'default',
  block,
  loading,
  className,
  children,
  onClick,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: 'primary' | 'default'; block?: boolean; loading?: boolean }) {
  const classes = ['lh-button', 'lh-button--large', `lh-button--${variant}`];
  if (block) classes.push('lh-button--block');
  if (loading) classes.push('lh-button--loading');
  if (className) classes.push(className);
  return (
    <button
      type="button"
      className={classes.join(' ')}
      aria-busy={loading || undefined}
      onClick={(e) => {
        if (loading) e.preventDefault();
        else onClick?.(e);
      }}
      {...rest}
    >
      {loading && <span className="lh-spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}
