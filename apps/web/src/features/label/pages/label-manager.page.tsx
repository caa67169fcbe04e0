import { PlusOutlined } from '@ant-design/icons';
import type { Label } from '@loggerhead/contract/schemas/org.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { labelKeys, labelListQuery, labelsApi } from '../../../api/labels.api.ts';
import { thingKeys } from '../../../api/things.queries.ts';
import { type ChooserColumn, ColumnChooserTable } from '../../../components/data-view/column-chooser-table.tsx';
import { Paginator } from '../../../components/data-view/paginator.tsx';
import { firstPage, type PageState } from '../../../components/data-view/paging.ts';
import { EMPTY, formatDateTime } from '../../../lib/format.ts';
import { can } from '../../../session/can.ts';
import { useSession } from '../../../session/use-session.ts';
import { LabelFormDialog } from '../components/label-form-dialog.tsx';

/** The tenant's label registry (spec §1 labels, §3 label): the labels devices may carry, and how many carry each. */
export default function LabelManagerPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const { tenantId } = useSession();
  const [keyword, setKeyword] = useState<string | undefined>();
  const [paging, setPaging] = useState<PageState>(firstPage(20));
  const [target, setTarget] = useState<Label | 'new' | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const list = useQuery(labelListQuery(tenantId, { current_page: paging.page, page_size: paging.size, keyword }));

  const remove = useMutation({
    mutationFn: (ids: string[]) => labelsApi.remove(tenantId as string, ids),
    onSuccess: (r) => {
      setSelected([]);
      void message.success(t('label.delete.done', { count: r.deleted, things: r.things_updated }));
      void qc.invalidateQueries({ queryKey: thingKeys.devices() });
      return qc.invalidateQueries({ queryKey: labelKeys.all });
    },
  });

  const confirmDelete = (labels: Label[]) =>
    modal.confirm({
      title: t('label.delete.title'),
      content: t('label.delete.confirm', {
        names: labels.map((l) => l.label).join(', '),
        things: labels.reduce((n, l) => n + l.things_count, 0),
      }),
      okText: t('label.action.delete'),
      okButtonProps: { danger: true },
      cancelText: t('common.action.cancel'),
      onOk: () => remove.mutateAsync(labels.map((l) => l.id)),
    });

  const mayUpdate = can('tenant:label:update');
  const mayDelete = can('tenant:label:delete');
  const rows = list.data?.list ?? [];

  const columns: ChooserColumn<Label>[] = [
    { key: 'label', title: t('label.col.label'), render: (l) => <Typography.Text strong>{l.label}</Typography.Text> },
    { key: 'label_value', title: t('label.col.value'), render: (l) => l.label_value || EMPTY },
    { key: 'description', title: t('label.col.description'), ellipsis: true, width: 240, render: (l) => l.description || EMPTY },
    { key: 'things_count', title: t('label.col.things') },
    { key: 'updated_at', title: t('label.col.updatedAt'), render: (l) => formatDateTime(l.updated_at) },
    {
      key: 'actions',
      title: t('label.col.actions'),
      always: true,
      fixed: 'right',
      render: (l) => (
        <Space size={0}>
          {mayUpdate && (
            <Button type="link" size="small" onClick={() => setTarget(l)}>
              {t('label.action.edit')}
            </Button>
          )}
          {mayDelete && (
            <Button type="link" size="small" danger onClick={() => confirmDelete([l])}>
              {t('label.action.delete')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card
      variant="borderless"
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('label.manager.title')}
        </Typography.Title>
      }
      extra={
        <Space>
          {mayDelete && (
            <Button danger disabled={!selected.length} onClick={() => confirmDelete(rows.filter((r) => selected.includes(r.id)))}>
              {t('label.action.deleteSelected', { count: selected.length })}
            </Button>
          )}
          {can('tenant:label:create') && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setTarget('new')} data-testid="add-label">
              {t('label.list.add')}
            </Button>
          )}
        </Space>
      }
    >
      <ColumnChooserTable<Label>
        configKey="label.manager.table"
        testId="label-table"
        columns={columns}
        rows={rows}
        rowKey={(l) => l.id}
        loading={list.isFetching && !list.data}
        firstIndex={(paging.page - 1) * paging.size + 1}
        rowSelection={mayDelete ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]) } : undefined}
        toolbar={
          <Input.Search
            allowClear
            placeholder={t('label.list.search')}
            style={{ width: 280 }}
            onSearch={(v) => {
              setKeyword(v.trim() || undefined);
              setPaging((p) => firstPage(p.size));
            }}
          />
        }
      />
      <div style={{ marginTop: 16 }}>
        <Paginator value={paging} total={list.data?.total ?? 0} onChange={setPaging} />
      </div>
      {tenantId && <LabelFormDialog tenantId={tenantId} target={target} onClose={() => setTarget(null)} />}
    </Card>
  );
}
