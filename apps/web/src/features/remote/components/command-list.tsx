import { Routes } from '@loggerhead/contract/routes/index.ts';
import { COMMAND_STATES, type Command, type CommandState, Operations } from '@loggerhead/contract/schemas/command.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Paginator } from '../../../components/data-view/paginator.tsx';
import { firstPage, type PageState, rowNumber } from '../../../components/data-view/paging.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { mayCall } from '../../../session/can.ts';
import { commandApi } from '../api/command.api.ts';
import { commandsQuery, remoteKeys } from '../api/remote.queries.ts';

export const STATE_COLOURS: Record<CommandState, string> = {
  queued: 'default',
  sent: 'processing',
  delivered: 'blue',
  answered: 'success',
  failed: 'error',
  timeout: 'warning',
  expired: 'default',
  cancelled: 'default',
};

export function CommandStateTag({ state }: { state: CommandState }) {
  const { t } = useTranslation();
  return <Tag color={STATE_COLOURS[state]}>{t(`remote.state.${state}`)}</Tag>;
}

/** The device's command list with each command's honest state; refreshes while open. */
export function CommandList({ thingId, tenantId }: { thingId: string; tenantId: string }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [state, setState] = useState<CommandState | undefined>();
  const [operation, setOperation] = useState<string | undefined>();
  const [paging, setPaging] = useState<PageState>(firstPage());
  const commands = useQuery(
    commandsQuery(tenantId, thingId, { current_page: paging.page, page_size: paging.size, state, operation_name: operation }),
  );
  const cancel = useMutation({
    mutationFn: (corr: string) => commandApi.cancel(tenantId, thingId, corr),
    onSettled: () => client.invalidateQueries({ queryKey: remoteKeys.device(tenantId, thingId) }),
  });
  return (
    <Card
      size="small"
      title={t('remote.commands.title')}
      extra={
        <Space>
          {/* UDS and flashing relay many requests: the operation filter finds the user's own commands among them. */}
          <Select
            allowClear
            size="small"
            style={{ width: 220 }}
            placeholder={t('remote.commands.allOperations')}
            aria-label={t('remote.commands.operation')}
            data-testid="command-operation-filter"
            value={operation}
            onChange={(v) => {
              setOperation(v);
              setPaging((p) => firstPage(p.size));
            }}
            options={Object.values(Operations).map((o) => ({ value: o, label: o }))}
          />
          <Select
            allowClear
            size="small"
            style={{ width: 150 }}
            placeholder={t('remote.commands.allStates')}
            aria-label={t('remote.commands.state')}
            value={state}
            onChange={(v) => {
              setState(v);
              setPaging((p) => firstPage(p.size));
            }}
            options={COMMAND_STATES.map((s) => ({ value: s, label: t(`remote.state.${s}`) }))}
          />
        </Space>
      }
    >
      <Table<Command>
        size="small"
        data-testid="command-list"
        rowKey="id"
        loading={commands.isPending}
        dataSource={commands.data?.list ?? []}
        pagination={false}
        columns={[
          { key: 'n', title: '#', width: 56, render: (_v, _r, i) => rowNumber(paging.page, paging.size, i) },
          { key: 'created', title: t('remote.commands.created'), width: 170, render: (_v, r) => formatDateTime(r.created_at) },
          { key: 'op', title: t('remote.commands.operation'), render: (_v, r) => <span className="lh-mono">{r.operation_name}</span> },
          { key: 'state', title: t('remote.commands.state'), width: 110, render: (_v, r) => <CommandStateTag state={r.state} /> },
          {
            key: 'answer',
            title: t('remote.commands.answer'),
            render: (_v, r) =>
              r.code === null ? (
                '--'
              ) : (
                <Typography.Text type={r.code === 0 ? undefined : 'danger'}>
                  {r.code}
                  {r.message ? ` ${r.message}` : ''}
                </Typography.Text>
              ),
          },
          {
            key: 'answered',
            title: t('remote.commands.answered'),
            width: 170,
            render: (_v, r) => (r.answered_at ? formatDateTime(r.answered_at) : '--'),
          },
          {
            key: 'actions',
            width: 90,
            render: (_v, r) =>
              r.state === 'queued'
                ? mayCall(Routes.command.cancel) && (
                    <Button
                      size="small"
                      type="link"
                      loading={cancel.isPending && cancel.variables === r.correlation_id}
                      onClick={() => cancel.mutate(r.correlation_id)}
                    >
                      {t('remote.commands.cancel')}
                    </Button>
                  )
                : null,
          },
        ]}
      />
      <div style={{ marginTop: 12 }}>
        <Paginator value={paging} total={commands.data?.total ?? 0} onChange={setPaging} />
      </div>
    </Card>
  );
}
