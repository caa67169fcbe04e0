import { ImportOutlined, UploadOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { DbcFile } from '@loggerhead/contract/schemas/dbc.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Drawer, Input, Space, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../api/api-error.ts';
import { dbcApi } from '../../../api/dbc.api.ts';
import { dbcKeys, dbcListQuery, dbcMessagesQuery } from '../../../api/dbc.queries.ts';
import { errorText } from '../../../api/error-funnel.ts';
import { type ChooserColumn, ColumnChooserTable } from '../../../components/data-view/column-chooser-table.tsx';
import { saveBlob } from '../../../components/data-view/file-download.ts';
import { Paginator } from '../../../components/data-view/paginator.tsx';
import { type PageState, pageAllowed } from '../../../components/data-view/paging.ts';
import { formatBytes, formatDateTime } from '../../../lib/format.ts';
import { mayCall } from '../../../session/can.ts';
import { DbcMessagesView } from './dbc-messages-view.tsx';
import { DbcUploadDialog } from './dbc-upload-dialog.tsx';

/** Spec §9: DBC file lists page by 100 by default; the console's paginator offers 10-50. */
const FIRST: PageState = { page: 1, size: 10 };

/** The DBC files of the tenant: upload, replace, download, view messages and signals, delete. */
export function DbcFileList({ tenantId }: { tenantId: string }) {
  const { t, i18n } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [keyword, setKeyword] = useState<string | undefined>();
  const [paging, setPaging] = useState<PageState>(FIRST);
  const [target, setTarget] = useState<DbcFile | 'new' | null>(null);
  const [viewing, setViewing] = useState<DbcFile | null>(null);
  const list = useQuery(dbcListQuery(tenantId, { current_page: paging.page, page_size: paging.size, keyword }));
  const messages = useQuery(dbcMessagesQuery(tenantId, viewing?.id ?? null));

  const remove = useMutation({
    meta: { silent: true },
    mutationFn: (f: DbcFile) => dbcApi.remove(tenantId, f.id),
    onSuccess: () => {
      void message.success(t('dbc.delete.done'));
      return qc.invalidateQueries({ queryKey: dbcKeys.files() });
    },
    onError: (err, f) => {
      // In use: the translated refusal, how many channels hold the file, and the server's own words on hover.
      const inUse = err instanceof ApiError && err.errors[0]?.code === 'mapping.dbc-in-use';
      void qc.invalidateQueries({ queryKey: dbcKeys.files() });
      modal.error({
        title: t('dbc.delete.refused'),
        content: (
          <div data-testid="dbc-delete-error" title={err instanceof ApiError ? err.errors[0]?.message : undefined}>
            <div>{errorText(err, t, (k) => i18n.exists(k))}</div>
            {inUse && <Typography.Text type="secondary">{t('dbc.delete.boundCount', { count: f.bound_channels })}</Typography.Text>}
          </div>
        ),
        okText: t('common.action.ok'),
      });
    },
  });

  const columns: ChooserColumn<DbcFile>[] = [
    {
      key: 'name',
      title: t('dbc.col.name'),
      render: (f) => (
        <Typography.Link strong onClick={() => setViewing(f)} data-testid="dbc-name">
          {f.name}
        </Typography.Link>
      ),
    },
    { key: 'file_name', title: t('dbc.col.fileName'), ellipsis: true },
    { key: 'protocol', title: t('dbc.col.protocol'), align: 'right', width: 90 },
    { key: 'message_count', title: t('dbc.col.messages'), align: 'right', width: 90 },
    { key: 'signal_count', title: t('dbc.col.signals'), align: 'right', width: 90 },
    { key: 'size', title: t('dbc.col.size'), align: 'right', render: (f) => formatBytes(f.size) },
    { key: 'bound_channels', title: t('dbc.col.bound'), align: 'right', width: 100 },
    {
      key: 'warnings',
      title: t('dbc.col.warnings'),
      defaultHidden: true,
      render: (f) =>
        f.warnings.length ? (
          <Tooltip
            title={f.warnings
              .slice(0, 10)
              .map((w) => t('dbc.parse.at', { line: w.line, col: w.col, reason: w.reason }))
              .join('\n')}
          >
            <Typography.Text type="warning">{f.warnings.length}</Typography.Text>
          </Tooltip>
        ) : (
          0
        ),
    },
    { key: 'updated_at', title: t('dbc.col.updatedAt'), render: (f) => formatDateTime(f.updated_at) },
    {
      key: 'actions',
      title: t('dbc.col.actions'),
      always: true,
      fixed: 'right',
      render: (f) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setViewing(f)}>
            {t('dbc.action.view')}
          </Button>
          {mayCall(Routes.mapping.updateDbc) && (
            <Button type="link" size="small" onClick={() => setTarget(f)} data-testid="dbc-replace">
              {t('dbc.action.replace')}
            </Button>
          )}
          <Button
            type="link"
            size="small"
            onClick={() =>
              dbcApi
                .content(tenantId, f.id, f.file_name)
                .then((r) => saveBlob(r.blob, r.name))
                .catch((e) => message.error(errorText(e, t, (k) => i18n.exists(k))))
            }
          >
            {t('dbc.action.download')}
          </Button>
          {mayCall(Routes.mapping.removeDbc) && (
            <Button
              type="link"
              size="small"
              danger
              data-testid="dbc-delete"
              onClick={() =>
                modal.confirm({
                  title: t('dbc.delete.title'),
                  content: t('dbc.delete.confirm', { name: f.name }),
                  okText: t('dbc.action.delete'),
                  okButtonProps: { danger: true },
                  cancelText: t('common.action.cancel'),
                  onOk: () => remove.mutateAsync(f).catch(() => undefined),
                })
              }
            >
              {t('dbc.action.delete')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <ColumnChooserTable<DbcFile>
        configKey="dbc.files.table"
        testId="dbc-table"
        columns={columns}
        rows={list.data?.list ?? []}
        rowKey={(f) => f.id}
        loading={list.isFetching && !list.data}
        firstIndex={(paging.page - 1) * paging.size + 1}
        toolbar={
          <>
            <Input.Search
              allowClear
              placeholder={t('dbc.list.search')}
              style={{ width: 260 }}
              onSearch={(v) => {
                setKeyword(v.trim() || undefined);
                setPaging((p) => ({ page: 1, size: p.size }));
              }}
            />
            {mayCall(Routes.mapping.uploadDbc) && (
              <Button type="primary" icon={<UploadOutlined />} onClick={() => setTarget('new')} data-testid="dbc-upload">
                {t('dbc.list.upload')}
              </Button>
            )}
            {mayCall(Routes.mapping.uploadDbc) && (
              <Button icon={<ImportOutlined />} onClick={() => navigate('/Container/DBCImportPage')} data-testid="dbc-import">
                {t('dbc.list.import')}
              </Button>
            )}
          </>
        }
      />
      <div style={{ marginTop: 16 }}>
        <Paginator value={paging} total={list.data?.total ?? 0} onChange={(p) => pageAllowed(p.page, p.size) && setPaging(p)} />
      </div>
      <DbcUploadDialog tenantId={tenantId} target={target} onClose={() => setTarget(null)} />
      <Drawer
        open={Boolean(viewing)}
        onClose={() => setViewing(null)}
        size={Math.min(1100, window.innerWidth - 80)}
        title={viewing ? t('dbc.view.title', { name: viewing.name }) : ''}
        destroyOnHidden
      >
        {viewing && (
          <DbcMessagesView messages={messages.data ?? []} loading={messages.isPending} height={Math.max(360, window.innerHeight - 260)} />
        )}
      </Drawer>
    </>
  );
}
