import { SettingOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Flex, Popover, Spin, Table, type TableProps } from 'antd';
import type { ColumnType } from 'antd/es/table';
import { type Key, lazy, type ReactNode, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { columnPrefsApi, columnPrefsKeys, columnPrefsQuery } from './column-prefs.ts';
import { cellText, checkChoice, defaultChoice, parseChoice } from './table-columns.ts';

const ColumnChooserPanel = lazy(() => import('./column-chooser-panel.tsx'));

export interface ChooserColumn<T> {
  /** The column prop; also what the saved choice lists. */
  key: string;
  title: ReactNode;
  /** Cell content; without it the row's value under `key` is printed ("--" when empty). */
  render?: (row: T, index: number) => ReactNode;
  width?: number;
  align?: 'left' | 'right' | 'center';
  /** Always shown and not offered in the chooser (e.g. the action column). */
  always?: boolean;
  defaultHidden?: boolean;
  fixed?: 'left' | 'right';
  ellipsis?: boolean;
}

export interface ColumnChooserTableProps<T> {
  /** User-config key the choice is saved under (letters, digits, `_` and `.`). */
  configKey: string;
  columns: ChooserColumn<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  loading?: boolean;
  /** 1-based number of the first row on this page (spec §3: rows carry a 1-based index). */
  firstIndex?: number;
  /** Left side of the tool bar (filters, buttons). */
  toolbar?: ReactNode;
  onRowClick?: (row: T) => void;
  testId?: string;
  /** Spec §3 column type `selection`: rows can be checked (batch actions). */
  rowSelection?: TableProps<T>['rowSelection'];
}

/**
 * The table of spec §2 with a column chooser (320 × 350, all or only selected, at most 30
 * columns) whose choice is saved per user; empty cells print "--" and rows are numbered.
 */
export function ColumnChooserTable<T extends object>(props: ColumnChooserTableProps<T>) {
  const { t } = useTranslation();
  const saved = useQuery(columnPrefsQuery(props.configKey));
  const chosen = useMemo(() => parseChoice(saved.data, props.columns) ?? defaultChoice(props.columns), [saved.data, props.columns]);

  const columns: ColumnType<T>[] = [
    {
      key: '__index',
      title: t('dataView.table.index'),
      width: 64,
      align: 'center',
      fixed: 'left',
      render: (_v, _row, i) => (props.firstIndex ?? 1) + i,
    },
    ...props.columns
      .filter((c) => c.always || chosen.includes(c.key))
      .map(
        (c): ColumnType<T> => ({
          key: c.key,
          title: c.title,
          width: c.width,
          align: c.align,
          fixed: c.fixed,
          ellipsis: c.ellipsis,
          render: (_v, row, i) => {
            if (c.render) return c.render(row, i);
            return cellText((row as Record<string, unknown>)[c.key]);
          },
        }),
      ),
  ];

  return (
    <div data-testid={props.testId}>
      <Flex justify="space-between" align="center" gap={8} wrap style={{ marginBottom: 12 }}>
        <Flex gap={8} wrap align="center" style={{ flex: 1 }}>
          {props.toolbar}
        </Flex>
        <ColumnChooser configKey={props.configKey} columns={props.columns} chosen={chosen} />
      </Flex>
      <Table<T>
        size="middle"
        columns={columns}
        dataSource={props.rows}
        rowKey={(r) => props.rowKey(r) as Key}
        loading={props.loading}
        pagination={false}
        rowSelection={props.rowSelection}
        scroll={{ x: 'max-content' }}
        onRow={props.onRowClick ? (row) => ({ onClick: () => props.onRowClick?.(row), style: { cursor: 'pointer' } }) : undefined}
      />
    </div>
  );
}

function ColumnChooser<T>({ configKey, columns, chosen }: { configKey: string; columns: ChooserColumn<T>[]; chosen: string[] }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<string[]>(chosen);
  const optional = columns.filter((c) => !c.always);

  const save = useMutation({
    mutationFn: (keys: string[]) => columnPrefsApi.put(configKey, keys),
    onSuccess: (entry) => {
      qc.setQueryData(columnPrefsKeys.table(configKey), entry.value);
      void message.success(t('dataView.table.saveSuccessfully'));
      setOpen(false);
    },
  });

  const submit = (keys: string[]) => {
    const problem = checkChoice(keys);
    if (problem === 'saveMax') return void message.warning(t('dataView.table.saveMax'));
    if (problem === 'empty') return;
    save.mutate(optional.filter((c) => keys.includes(c.key)).map((c) => c.key));
  };

  // The panel (its switch and check boxes) loads when the pop-over first renders it, at its first opening.
  const content = (
    <Suspense fallback={<Spin size="small" />}>
      <ColumnChooserPanel
        columns={columns}
        draft={draft}
        onDraft={setDraft}
        saving={save.isPending}
        onReset={() => setDraft(defaultChoice(columns))}
        onSave={() => submit(draft)}
      />
    </Suspense>
  );

  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      open={open}
      onOpenChange={(o) => {
        if (o) setDraft(chosen);
        setOpen(o);
      }}
      content={content}
    >
      <Button icon={<SettingOutlined />} data-testid="column-chooser-button">
        {t('dataView.table.columns')}
      </Button>
    </Popover>
  );
}
