import { App, Button } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/api-error.ts';
import { errorText } from '../../api/error-funnel.ts';

/** Spec §4, §9: after a code is sent the button waits 60 s. */
export const CODE_COUNTDOWN_SECONDS = 60;

interface Props {
  /**
   * Sends the code. Resolve to start the countdown; throw to stay enabled. A thrown
   * call failure goes to `onError` when given, else to a message.
   */
  onSend: () => Promise<unknown>;
  onError?: (e: unknown) => void;
  disabled?: boolean;
  block?: boolean;
  size?: 'small' | 'middle' | 'large';
  testId?: string;
}

export function CodeButton({ onSend, onError, disabled, block, size, testId }: Props) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);

  const click = async () => {
    setSending(true);
    try {
      await onSend();
      message.success(t('widgets.codeButton.sent'));
      setLeft(CODE_COUNTDOWN_SECONDS);
    } catch (e) {
      // The server still remembers the last code: wait out what it says is left.
      const seconds = e instanceof ApiError && e.code === 'code.too-soon' ? Number(e.errors[0]?.details?.seconds) : 0;
      if (seconds > 0) setLeft(Math.min(Math.ceil(seconds), CODE_COUNTDOWN_SECONDS));
      // Anything but a call failure (e.g. the form refused the number) is already shown by the form.
      if (onError) onError(e);
      else if (e instanceof ApiError && e.kind !== 'canceled') message.error(errorText(e, t, (k) => i18n.exists(k)));
    } finally {
      setSending(false);
    }
  };

  return (
    <Button
      onClick={() => void click()}
      disabled={disabled || left > 0}
      loading={sending}
      block={block}
      size={size}
      data-testid={testId ?? 'code-button'}
      style={{ minWidth: 128 }}
    >
      {left > 0 ? t('widgets.codeButton.resend', { seconds: left }) : t('widgets.codeButton.send')}
    </Button>
  );
}
