import { Transfer } from 'antd';
import type { ReactElement, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface PickerItem {
  key: string;
  title: string;
  description?: string;
  disabled?: boolean;
}

/** Spec §9: the transfer picker shows 20 rows a page. */
export const TRANSFER_PAGE_SIZE = 20;

/**
 * Two lists, available and chosen, with search and paging (spec §2 transfer picker).
 * The chosen keys are the value, so it works as a Form.Item control.
 */
export function TransferPicker({
  items,
  value,
  onChange,
  titles,
  height = 320,
  render,
  disabled,
  testId,
}: {
  items: PickerItem[];
  value?: string[];
  onChange?: (keys: string[]) => void;
  titles?: [ReactNode, ReactNode];
  height?: number;
  render?: (item: PickerItem) => string | ReactElement;
  disabled?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <div data-testid={testId}>
      <Transfer<PickerItem>
        dataSource={items}
        targetKeys={value ?? []}
        onChange={(keys) => onChange?.(keys.map(String))}
        titles={titles ?? [t('widgets.transfer.available'), t('widgets.transfer.chosen')]}
        showSearch={{ placeholder: t('widgets.transfer.search') }}
        filterOption={(input, item) => `${item.title} ${item.description ?? ''}`.toLowerCase().includes(input.trim().toLowerCase())}
        render={(item) => render?.(item) ?? (item.description ? `${item.title} (${item.description})` : item.title)}
        pagination={{ pageSize: TRANSFER_PAGE_SIZE, simple: true }}
        actions={[t('widgets.transfer.add'), t('widgets.transfer.remove')]}
        disabled={disabled}
        locale={{
          itemUnit: t('widgets.transfer.item'),
          itemsUnit: t('widgets.transfer.items'),
          notFoundContent: t('widgets.transfer.empty'),
        }}
        styles={{ section: { width: '100%', height } }}
        style={{ width: '100%' }}
      />
    </div>
  );
}
