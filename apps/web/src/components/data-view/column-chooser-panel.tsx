import { Button, Checkbox, Flex, Segmented, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChooserColumn } from './column-chooser-table.tsx';
import { MAX_CHOSEN_COLUMNS } from './table-columns.ts';

/**
 * The column chooser's pop-over (column-chooser-table.tsx): all or only the chosen optional
 * columns, ticked in `draft`; reset to the default choice, or save.
 */
export default function ColumnChooserPanel({
  columns,
  draft,
  onDraft,
  saving,
  onReset,
  onSave,
}: {
  columns: readonly Pick<ChooserColumn<unknown>, 'key' | 'title' | 'always'>[];
  draft: string[];
  onDraft: (keys: string[]) => void;
  saving: boolean;
  onReset: () => void;
  onSave: () => void;
}) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<'all' | 'selected'>('all');
  const optional = columns.filter((c) => !c.always);
  const listed = mode === 'all' ? optional : optional.filter((c) => draft.includes(c.key));
  return (
    <Flex vertical gap={8} style={{ width: 320, height: 350 }} data-testid="column-chooser">
      <Flex justify="space-between" align="center">
        <Segmented
          size="small"
          value={mode}
          onChange={(v) => setMode(v as 'all' | 'selected')}
          options={[
            { value: 'all', label: t('dataView.table.showAll') },
            { value: 'selected', label: t('dataView.table.showSelected') },
          ]}
        />
        <Typography.Text type={draft.length > MAX_CHOSEN_COLUMNS ? 'danger' : 'secondary'}>
          {t('dataView.table.selected', { count: draft.length, max: MAX_CHOSEN_COLUMNS })}
        </Typography.Text>
      </Flex>
      <div style={{ flex: 1, overflowY: 'auto', border: '1px solid rgba(5,5,5,0.06)', borderRadius: 6, padding: '4px 8px' }}>
        <Checkbox.Group value={draft} onChange={(v) => onDraft(v as string[])} style={{ display: 'flex', flexDirection: 'column' }}>
          {listed.map((c) => (
            <Checkbox key={c.key} value={c.key} style={{ padding: '4px 0' }}>
              {c.title}
            </Checkbox>
          ))}
        </Checkbox.Group>
      </div>
      <Flex justify="flex-end" gap={8}>
        <Button size="small" onClick={onReset}>
          {t('dataView.table.reset')}
        </Button>
        <Button size="small" type="primary" loading={saving} disabled={draft.length === 0} onClick={onSave}>
          {t('dataView.table.save')}
        </Button>
      </Flex>
    </Flex>
  );
}
