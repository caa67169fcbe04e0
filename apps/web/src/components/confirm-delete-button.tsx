import { App, Button } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  /** The action's name, on the link and on the dialog's danger button. */
  label: string;
  title: string;
  /** The question, naming what goes (and what goes with it). */
  content: ReactNode;
  /** Deletes; the dialog stays open until it settles. */
  onConfirm: () => Promise<unknown>;
}

/** A list row's delete: a danger link that asks first, in a dialog whose OK button is the danger one. */
export function ConfirmDeleteButton({ label, title, content, onConfirm }: Props) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  return (
    <Button
      type="link"
      size="small"
      danger
      onClick={() =>
        modal.confirm({
          title,
          content,
          okText: label,
          okButtonProps: { danger: true },
          cancelText: t('common.action.cancel'),
          onOk: onConfirm,
        })
      }
    >
      {label}
    </Button>
  );
}
