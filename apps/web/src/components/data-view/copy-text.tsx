import { CopyOutlined } from '@ant-design/icons';
import { App, Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';

/** Copies `text` to the clipboard (falls back to a hidden text area where the Clipboard API is missing). */
export async function copyToClipboard(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {}
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  document.execCommand('copy');
  area.remove();
}

export function CopyButton({ text, testId }: { text: string; testId?: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <Tooltip title={t('dataView.copy.action')}>
      <Button
        icon={<CopyOutlined />}
        data-testid={testId}
        aria-label={t('dataView.copy.action')}
        onClick={async () => {
          await copyToClipboard(text);
          void message.success(t('dataView.copy.done'));
        }}
      />
    </Tooltip>
  );
}
