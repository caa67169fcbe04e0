import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import type { TestScriptSummary } from '@loggerhead/contract/schemas/testmgmt.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Input, Popconfirm, Space, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveBlob } from '../../../components/data-view/file-download.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { can } from '../../../session/can.ts';
import { testApi } from '../api/testmgmt.api.ts';
import { scriptListQuery, testKeys } from '../api/testmgmt.queries.ts';
import { ScriptEditor } from './script-editor.tsx';

/** The tenant's analysis scripts: list, new, edit, delete, import and export. */
export function ScriptsTab({ tenantId }: { tenantId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [page, setPage] = useState({ current_page: 1, page_size: 10, name: undefined as string | undefined });
  const list = useQuery(scriptListQuery(tenantId, page));
  const [editing, setEditing] = useState<{ id: string | null } | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: testKeys.scripts(tenantId) });

  const remove = useMutation({
    mutationFn: (id: string) => testApi.deleteScript(tenantId, id),
    onSuccess: () => {
      message.success(t('test.deleted'));
      void refresh();
    },
  });
  const importFile = useMutation({
    mutationFn: (file: File) => testApi.importScript(tenantId, file),
    onSuccess: (s) => {
      message.success(t('test.script.imported', { name: s.name }));
      void refresh();
    },
  });
  const exportFile = useMutation({
    mutationFn: (id: string) => testApi.exportScript(tenantId, id),
    onSuccess: (f) => saveBlob(f.blob, f.name),
  });

  return (
    <>
      <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }} wrap>
        <Input.Search
          allowClear
          placeholder={t('test.script.search')}
          style={{ width: 240 }}
          onSearch={(v) => setPage((p) => ({ ...p, current_page: 1, name: v.trim() || undefined }))}
        />
        <Space>
          {can('test-mgmt:script:import') && (
            <Upload
              accept=".groovy,.json"
              showUploadList={false}
              beforeUpload={(file) => {
                importFile.mutate(file);
                return false;
              }}
            >
              <Button icon={<UploadOutlined />} loading={importFile.isPending} data-testid="script-import">
                {t('test.action.import')}
              </Button>
            </Upload>
          )}
          {can('test-mgmt:script:create') && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ id: null })} data-testid="script-new">
              {t('test.script.new')}
            </Button>
          )}
        </Space>
      </Space>
      <Table<TestScriptSummary>
        rowKey="id"
        size="middle"
        data-testid="script-table"
        loading={list.isFetching && !list.data}
        dataSource={list.data?.list ?? []}
        pagination={{
          current: page.current_page,
          pageSize: page.page_size,
          total: list.data?.total ?? 0,
          onChange: (current_page, page_size) => setPage((p) => ({ ...p, current_page, page_size })),
        }}
        columns={[
          {
            key: 'name',
            title: t('test.field.name'),
            render: (_, s) => (
              <Typography.Link onClick={() => setEditing({ id: s.id })} data-testid="script-name-link">
                {s.name}
              </Typography.Link>
            ),
          },
          { key: 'version', title: t('test.field.version'), render: (_, s) => `v${s.version}` },
          { key: 'routines', title: t('test.field.usedBy'), render: (_, s) => s.routines },
          { key: 'notes', title: t('test.field.notes'), ellipsis: true, render: (_, s) => s.notes || '--' },
          { key: 'updated_at', title: t('test.field.updatedAt'), render: (_, s) => formatDateTime(s.updated_at) },
          {
            key: 'actions',
            title: t('test.field.actions'),
            render: (_, s) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setEditing({ id: s.id })}>
                  {can('test-mgmt:script:update') ? t('test.action.edit') : t('test.action.view')}
                </Button>
                {can('test-mgmt:script:export') && (
                  <Button type="link" size="small" onClick={() => exportFile.mutate(s.id)}>
                    {t('test.action.export')}
                  </Button>
                )}
                {can('test-mgmt:script:delete') && (
                  <Popconfirm title={t('test.script.confirmDelete', { name: s.name })} onConfirm={() => remove.mutate(s.id)}>
                    <Button type="link" size="small" danger data-testid="script-delete">
                      {t('test.action.delete')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <ScriptEditor
        tenantId={tenantId}
        open={editing !== null}
        scriptId={editing?.id ?? null}
        onClose={() => setEditing(null)}
        onCreated={(id) => setEditing({ id })}
      />
    </>
  );
}
