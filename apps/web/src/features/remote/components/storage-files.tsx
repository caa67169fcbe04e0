import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { RecallFileEntry } from '@loggerhead/contract/schemas/recall.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Flex, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateRange } from '../../../components/data-view/date-range.tsx';
import { Paginator } from '../../../components/data-view/paginator.tsx';
import { firstPage, type PageState, rowNumber } from '../../../components/data-view/paging.ts';
import { formatDateTime, formatRecallSize } from '../../../lib/format.ts';
import { mayCall } from '../../../session/can.ts';
import { commandApi } from '../api/command.api.ts';
import { recallApi } from '../api/recall.api.ts';
import { isFinal, recallListQuery, remoteKeys, tenantPackageQuery } from '../api/remote.queries.ts';
import { batchLimit, canRecall } from '../lib/recall-rules.ts';
import { CommandStateTag } from './command-list.tsx';

const DAY = 24 * 3600 * 1000;

/** Files on the device's SD card (spec §4): time filter and paging (each page is a device command), recall, delete, batch recall. */
export function StorageFiles({ tenantId, thingId, onRecall }: { tenantId: string; thingId: string; onRecall: (taskId: string) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [range, setRange] = useState<[number, number]>(() => [Date.now() - 7 * DAY, Date.now()]);
  const [paging, setPaging] = useState<PageState>(firstPage());
  const [corr, setCorr] = useState<string | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const pkg = useQuery(tenantPackageQuery(tenantId));
  const limit = batchLimit(pkg.data?.max_batch_recall_size);
  const result = useQuery(recallListQuery(tenantId, thingId, corr));

  const list = useMutation({
    mutationFn: (p: PageState) =>
      recallApi.list(tenantId, thingId, { current_page: p.page, page_size: p.size, filter: { starttime: range[0], endtime: range[1] } }),
    onSuccess: (r) => {
      setSelected([]);
      setCorr(r.command.correlation_id);
      client.setQueryData(recallListQuery(tenantId, thingId, r.command.correlation_id).queryKey, r);
    },
  });
  const query = (p: PageState) => {
    setPaging(p);
    list.mutate(p);
  };
  const recall = useMutation({
    mutationFn: (f: RecallFileEntry) => recallApi.recall(tenantId, thingId, { filename: f.name, size: f.size, time: f.time }),
    onSuccess: (task) => onRecall(task.id),
  });
  const batch = useMutation({
    mutationFn: (files: RecallFileEntry[]) =>
      recallApi.batch(
        tenantId,
        thingId,
        files.map((f) => ({ filename: f.name, size: f.size })),
      ),
    onSuccess: (r) => {
      message.success(t('remote.recall.batchStarted', { count: r.tasks.length }));
      setSelected([]);
      client.invalidateQueries({ queryKey: remoteKeys.device(tenantId, thingId) });
    },
  });
  const remove = useMutation({
    mutationFn: async (f: RecallFileEntry) => {
      let c = await recallApi.deleteOnDevice(tenantId, thingId, f.name, f.size);
      message.info(t('remote.recall.deleteIssued'));
      // The device answers later (spec §7: up to 100 s): follow the command, then list the card again.
      while (!isFinal(c.state)) {
        await new Promise((r) => setTimeout(r, 1_000));
        c = await commandApi.get(tenantId, thingId, c.correlation_id);
      }
      return c;
    },
    onSuccess: (c) => {
      client.invalidateQueries({ queryKey: remoteKeys.device(tenantId, thingId) });
      if (c.state === 'answered' && c.code === 0) {
        message.success(t('remote.recall.deleted'));
        query(paging);
      } else message.error(c.message || t(`remote.state.${c.state}`));
    },
  });

  const data = result.data;
  const waiting = list.isPending || (data !== undefined && !isFinal(data.command.state));
  const files = data?.list ?? [];
  return (
    <Card
      size="small"
      title={t('remote.storage.title')}
      data-testid="storage-files"
      extra={data && <CommandStateTag state={data.command.state} />}
    >
      <Flex gap={12} wrap align="center" style={{ marginBottom: 12 }}>
        <DateRange value={range} onChange={setRange} disabled={waiting} />
        {mayCall(Routes.recall.list) && (
          <Button type="primary" loading={waiting} onClick={() => query(firstPage(paging.size))}>
            {t('remote.storage.query')}
          </Button>
        )}
        {mayCall(Routes.recall.batch) && (
          <Button
            disabled={selected.length === 0 || selected.length > limit}
            loading={batch.isPending}
            onClick={() => batch.mutate(files.filter((f) => selected.includes(f.name)))}
          >
            {t('remote.recall.batch', { count: selected.length, max: limit })}
          </Button>
        )}
      </Flex>
      {data?.code && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          message={t(`errors.${data.code}`, { defaultValue: data.command.message ?? data.code })}
        />
      )}
      <Table<RecallFileEntry>
        size="small"
        rowKey="name"
        loading={waiting}
        dataSource={files}
        pagination={false}
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => {
            if (keys.length > limit) message.warning(t('remote.recall.batchLimit', { max: limit }));
            setSelected((keys as string[]).slice(0, limit));
          },
          getCheckboxProps: (f) => ({ disabled: !canRecall(f.size) }),
        }}
        columns={[
          { key: 'n', title: '#', width: 56, render: (_v, _r, i) => rowNumber(paging.page, paging.size, i) },
          { key: 'name', title: t('remote.storage.name'), render: (_v, f) => <span className="lh-mono">{f.name}</span> },
          { key: 'size', title: t('remote.storage.size'), width: 120, render: (_v, f) => formatRecallSize(f.size) },
          {
            key: 'time',
            title: t('remote.storage.time'),
            width: 180,
            render: (_v, f) => (f.time === null ? '--' : formatDateTime(f.time)),
          },
          {
            key: 'actions',
            title: t('remote.storage.actions'),
            width: 170,
            render: (_v, f) => (
              <Space size={4}>
                {mayCall(Routes.recall.recall) && (
                  <Button size="small" type="link" disabled={!canRecall(f.size)} onClick={() => recall.mutate(f)}>
                    {t('remote.recall.recall')}
                  </Button>
                )}
                {mayCall(Routes.recall.deleteOnDevice) && (
                  <Popconfirm
                    title={t('remote.storage.deleteConfirm', { name: f.name })}
                    disabled={!canRecall(f.size)}
                    onConfirm={() => remove.mutate(f)}
                  >
                    <Button
                      size="small"
                      type="link"
                      danger
                      disabled={!canRecall(f.size)}
                      loading={remove.isPending && remove.variables?.name === f.name}
                    >
                      {t('remote.storage.delete')}
                    </Button>
                  </Popconfirm>
                )}
                {f.size === 0 && <Tag>{t('remote.storage.empty')}</Tag>}
              </Space>
            ),
          },
        ]}
      />
      <Flex justify="space-between" align="center" style={{ marginTop: 12 }}>
        <Typography.Text type="secondary">{corr ? '' : t('remote.storage.hint')}</Typography.Text>
        <Paginator value={paging} total={data?.total ?? 0} onChange={query} disabled={waiting} />
      </Flex>
    </Card>
  );
}
