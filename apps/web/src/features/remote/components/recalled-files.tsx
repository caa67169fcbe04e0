import { Routes } from '@loggerhead/contract/routes/index.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Popconfirm, Progress, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatRecallSize } from '../../../lib/format.ts';
import { mayCall } from '../../../session/can.ts';
import { type RecalledFile, recallApi } from '../api/recall.api.ts';
import { recalledFilesQuery, recallTasksQuery, remoteKeys } from '../api/remote.queries.ts';
import { isRecallRunning } from '../lib/recall-rules.ts';

/** Files recalled from this device (file manager): download, import into history, delete; running recalls above. */
export function RecalledFiles({ tenantId, thingId }: { tenantId: string; thingId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const files = useQuery(recalledFilesQuery(tenantId, thingId));
  const tasks = useQuery(recallTasksQuery(tenantId, thingId));
  const refresh = () => client.invalidateQueries({ queryKey: remoteKeys.device(tenantId, thingId) });
  const download = useMutation({ mutationFn: (f: RecalledFile) => recallApi.download(f.name) });
  const importIt = useMutation({
    mutationFn: (f: RecalledFile) => recallApi.importToHistory(tenantId, f.name),
    onSuccess: () => message.success(t('remote.recalled.imported')),
  });
  const remove = useMutation({ mutationFn: (f: RecalledFile) => recallApi.removeRecalled(tenantId, f.name), onSuccess: refresh });
  const running = (tasks.data ?? []).filter(isRecallRunning);
  const cancel = useMutation({ mutationFn: (id: string) => recallApi.cancel(tenantId, thingId, id), onSettled: refresh });

  return (
    <Card size="small" title={t('remote.recalled.title')} data-testid="recalled-files">
      {running.length > 0 && (
        <Space direction="vertical" style={{ width: '100%', marginBottom: 12 }}>
          {running.map((task) => (
            <Space key={task.id} style={{ width: '100%' }}>
              <Tag>{t(`remote.recall.state.${task.state}`)}</Tag>
              <span className="lh-mono">{task.filename}</span>
              <Progress percent={Math.round(task.process_rate)} size="small" style={{ width: 200 }} status="active" />
              {mayCall(Routes.recall.cancel) && (
                <Button size="small" type="link" danger onClick={() => cancel.mutate(task.id)}>
                  {t('remote.recall.cancel')}
                </Button>
              )}
            </Space>
          ))}
        </Space>
      )}
      <Table<RecalledFile>
        size="small"
        rowKey="name"
        loading={files.isPending}
        dataSource={files.data ?? []}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        columns={[
          { key: 'name', title: t('remote.storage.name'), render: (_v, f) => <span className="lh-mono">{f.filename}</span> },
          { key: 'size', title: t('remote.storage.size'), width: 120, render: (_v, f) => formatRecallSize(f.size) },
          {
            key: 'time',
            title: t('remote.storage.time'),
            width: 180,
            render: (_v, f) => (f.time === null ? '--' : formatDateTime(f.time)),
          },
          { key: 'stored', title: t('remote.recalled.stored'), width: 180, render: (_v, f) => formatDateTime(f.stored_at) },
          {
            key: 'actions',
            title: t('remote.storage.actions'),
            width: 260,
            render: (_v, f) => (
              <Space size={4}>
                <Button
                  size="small"
                  type="link"
                  loading={download.isPending && download.variables?.name === f.name}
                  onClick={() => download.mutate(f)}
                >
                  {t('remote.recalled.download')}
                </Button>
                {mayCall(Routes.recall.importToHistory) && (
                  <Button
                    size="small"
                    type="link"
                    loading={importIt.isPending && importIt.variables?.name === f.name}
                    onClick={() => importIt.mutate(f)}
                  >
                    {t('remote.recalled.import')}
                  </Button>
                )}
                {mayCall(Routes.recall.remove) && (
                  <Popconfirm title={t('remote.storage.deleteConfirm', { name: f.filename })} onConfirm={() => remove.mutateAsync(f)}>
                    <Button size="small" type="link" danger>
                      {t('remote.storage.delete')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}
