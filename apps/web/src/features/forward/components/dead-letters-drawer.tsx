import type { ForwardRule } from '@loggerhead/contract/schemas/forward.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Drawer, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Paginator } from '../../../components/data-view/paginator.tsx';
import { firstPage, type PageState } from '../../../components/data-view/paging.ts';
import { EMPTY, formatDateTime } from '../../../lib/format.ts';
import { can } from '../../../session/can.ts';
import { forwardApi, forwardKeys } from '../api/forward.api.ts';

interface Props {
  tenantId: string;
  rule: ForwardRule | null;
  onClose: () => void;
}

/** A rule's dead letters: what the destination never took, with the last error; replayed or discarded. */
export function DeadLettersDrawer({ tenantId, rule, onClose }: Props) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const [paging, setPaging] = useState<PageState>(firstPage(20));
  const [selected, setSelected] = useState<string[]>([]);
  const id = rule?.id ?? '';
  const q = { current_page: paging.page, page_size: paging.size };
  const list = useQuery({
    queryKey: forwardKeys.deadLetters(tenantId, id, q),
    queryFn: ({ signal }) => forwardApi.deadLetters(tenantId, id, q, signal),
    enabled: rule !== null,
  });
  const done = () => {
    setSelected([]);
    return qc.invalidateQueries({ queryKey: forwardKeys.all });
  };
  const replay = useMutation({
    mutationFn: (ids?: string[]) => forwardApi.replay(tenantId, id, ids),
    onSuccess: (r) => {
      void message.success(t('forward.dead.replayed', { count: r.count }));
      return done();
    },
  });
  const discard = useMutation({
    mutationFn: (ids?: string[]) => forwardApi.discard(tenantId, id, ids),
    onSuccess: (r) => {
      void message.success(t('forward.dead.discarded', { count: r.count }));
      return done();
    },
  });
  const mayHandle = can('alert:things-forward:handle');
  const rows = list.data?.list ?? [];
  return (
    <Drawer
      open={rule !== null}
      onClose={onClose}
      size="large"
      title={t('forward.dead.title', { name: rule?.name ?? '' })}
      extra={
        mayHandle && (
          <Space>
            <Button disabled={!selected.length} loading={replay.isPending} onClick={() => replay.mutate(selected)}>
              {t('forward.dead.replaySelected', { count: selected.length })}
            </Button>
            <Button
              type="primary"
              disabled={!list.data?.total}
              loading={replay.isPending}
              onClick={() => replay.mutate(undefined)}
              data-testid="replay-all"
            >
              {t('forward.dead.replayAll')}
            </Button>
            <Button
              danger
              disabled={!list.data?.total}
              onClick={() =>
                modal.confirm({
                  title: t('forward.dead.discardAll'),
                  content: t('forward.dead.discardConfirm'),
                  okButtonProps: { danger: true },
                  cancelText: t('common.action.cancel'),
                  onOk: () => discard.mutateAsync(selected.length ? selected : undefined),
                })
              }
            >
              {t('forward.dead.discardAll')}
            </Button>
          </Space>
        )
      }
    >
      <Table
        size="small"
        rowKey="id"
        data-testid="dead-letter-table"
        loading={list.isFetching && !list.data}
        dataSource={rows}
        pagination={false}
        rowSelection={mayHandle ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]) } : undefined}
        columns={[
          { key: 'id', dataIndex: 'id', title: t('forward.dead.col.id') },
          { key: 'things_id', title: t('forward.dead.col.device'), render: (_, d) => d.things_id ?? EMPTY, ellipsis: true },
          { key: 'kind', title: t('forward.dead.col.kind'), render: (_, d) => t(`forward.kind.${d.kind}`, { defaultValue: d.kind }) },
          { key: 'attempts', dataIndex: 'attempts', title: t('forward.dead.col.attempts') },
          {
            key: 'error',
            title: t('forward.dead.col.error'),
            render: (_, d) => <Typography.Text type="danger">{d.error ?? EMPTY}</Typography.Text>,
          },
          { key: 'failed_at', title: t('forward.dead.col.failedAt'), render: (_, d) => formatDateTime(d.failed_at) },
        ]}
      />
      <div style={{ marginTop: 16 }}>
        <Paginator value={paging} total={list.data?.total ?? 0} onChange={setPaging} />
      </div>
    </Drawer>
  );
}
