import { DisconnectOutlined, LinkOutlined, PauseCircleOutlined, PlayCircleOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { BackfillRange, ChannelBinding, ParsingState } from '@loggerhead/contract/schemas/dbc.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Badge, Button, Form, Modal, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dbcApi } from '../../../api/dbc.api.ts';
import { dbcKeys } from '../../../api/dbc.queries.ts';
import { EMPTY, formatDateTime } from '../../../lib/format.ts';
import { mayCall } from '../../../session/can.ts';
import { BackfillFields, BackfillStatus, type BackfillValues, backfillOf } from './backfill.tsx';
import { BindDialog } from './bind-dialog.tsx';

interface Row {
  channel: number;
  binding?: ChannelBinding;
}

/**
 * Spec §4 DBC parsing per CAN channel: bind to a DBC file or strategy, start, pause (no more
 * decoding, no more capacity used), unbind (after confirmation: the channel's dashboards and
 * decoded data go).
 */
export function ChannelBindings({
  tenantId,
  thingsId,
  channels,
  bindings,
  canWrite,
  loading,
}: {
  tenantId: string;
  thingsId: string;
  channels: number;
  bindings: ChannelBinding[];
  canWrite: boolean;
  loading?: boolean;
}) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const [binding, setBinding] = useState<number | null>(null);
  const byChannel = new Map(bindings.map((b) => [b.channel, b]));
  const rows: Row[] = Array.from({ length: channels }, (_, channel) => ({ channel, binding: byChannel.get(channel) }));
  const refresh = () => qc.invalidateQueries({ queryKey: dbcKeys.device(tenantId, thingsId) });

  const [starting, setStarting] = useState<number | null>(null);
  const setState = useMutation({
    mutationFn: (v: { channel: number; state: ParsingState; backfill?: BackfillRange }) =>
      dbcApi.setState(tenantId, thingsId, v.channel, v.state, v.backfill),
    onSuccess: (b, v) => {
      const channel = `CAN${b.channel}`;
      void message.success(
        b.state === 'started'
          ? t(v.backfill ? 'dbc.backfill.started' : 'dbc.parsing.started', { channel })
          : t('dbc.parsing.paused', { channel }),
      );
      setStarting(null);
      return refresh();
    },
  });
  const unbind = useMutation({
    mutationFn: (channel: number) => dbcApi.unbind(tenantId, thingsId, channel),
    onSuccess: () => {
      void message.success(t('dbc.parsing.unbound'));
      void qc.invalidateQueries({ queryKey: dbcKeys.files() });
      void qc.invalidateQueries({ queryKey: dbcKeys.strategies() });
      return refresh();
    },
  });

  return (
    <>
      <Table<Row>
        size="small"
        rowKey="channel"
        loading={loading}
        pagination={false}
        dataSource={rows}
        data-testid="channel-bindings"
        onRow={(r) => ({ 'data-testid': `binding-CAN${r.channel}` }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          { key: 'channel', title: t('dbc.parsing.channel'), width: 90, render: (_v, r) => <strong>CAN{r.channel}</strong> },
          {
            key: 'target',
            title: t('dbc.parsing.target'),
            render: (_v, r) =>
              r.binding ? (
                r.binding.strategy_name ? (
                  <span>
                    {t('dbc.parsing.viaStrategy', { strategy: r.binding.strategy_name })}{' '}
                    <Typography.Text type="secondary">({r.binding.dbc_name})</Typography.Text>
                  </span>
                ) : (
                  r.binding.dbc_name
                )
              ) : (
                <Typography.Text type="secondary">{t('dbc.parsing.unboundText')}</Typography.Text>
              ),
          },
          {
            key: 'state',
            title: t('dbc.parsing.state'),
            width: 260,
            render: (_v, r) =>
              !r.binding ? (
                EMPTY
              ) : (
                <>
                  {r.binding.state === 'started' ? (
                    <Badge status="processing" text={<span data-testid="parsing-state">{t('dbc.parsing.stateStarted')}</span>} />
                  ) : (
                    <Badge status="warning" text={<span data-testid="parsing-state">{t('dbc.parsing.statePaused')}</span>} />
                  )}
                  <BackfillStatus tenantId={tenantId} thingsId={thingsId} channel={r.channel} canWrite={canWrite} />
                </>
              ),
          },
          {
            key: 'updated',
            title: t('dbc.col.updatedAt'),
            width: 180,
            render: (_v, r) => (r.binding ? formatDateTime(r.binding.updated_at) : EMPTY),
          },
          {
            key: 'actions',
            title: t('dbc.col.actions'),
            width: 320,
            render: (_v, r) => (
              <Space size={0} wrap>
                {mayCall(Routes.mapping.bind) && (
                  <Button
                    type="link"
                    size="small"
                    icon={<LinkOutlined />}
                    disabled={!canWrite}
                    onClick={() => setBinding(r.channel)}
                    data-testid="binding-bind"
                  >
                    {r.binding ? t('dbc.parsing.rebind') : t('dbc.parsing.bind')}
                  </Button>
                )}
                {r.binding?.state === 'paused' && mayCall(Routes.mapping.setState) && (
                  <Button
                    type="link"
                    size="small"
                    icon={<PlayCircleOutlined />}
                    disabled={!canWrite}
                    loading={setState.isPending && setState.variables?.channel === r.channel}
                    onClick={() => setStarting(r.channel)}
                    data-testid="binding-start"
                  >
                    {t('dbc.parsing.start')}
                  </Button>
                )}
                {r.binding?.state === 'started' && mayCall(Routes.mapping.setState) && (
                  <Button
                    type="link"
                    size="small"
                    icon={<PauseCircleOutlined />}
                    disabled={!canWrite}
                    loading={setState.isPending && setState.variables?.channel === r.channel}
                    onClick={() => setState.mutate({ channel: r.channel, state: 'paused' })}
                    data-testid="binding-pause"
                  >
                    {t('dbc.parsing.pause')}
                  </Button>
                )}
                {r.binding && mayCall(Routes.mapping.unbind) && (
                  <Button
                    type="link"
                    size="small"
                    danger
                    icon={<DisconnectOutlined />}
                    disabled={!canWrite}
                    data-testid="binding-unbind"
                    onClick={() =>
                      modal.confirm({
                        title: t('dbc.parsing.unbindTitle', { channel: `CAN${r.channel}` }),
                        content: t('dbc.parsing.unbindConfirm'),
                        okText: t('dbc.parsing.unbind'),
                        okButtonProps: { danger: true },
                        cancelText: t('common.action.cancel'),
                        onOk: () => unbind.mutateAsync(r.channel),
                      })
                    }
                  >
                    {t('dbc.parsing.unbind')}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      <StartDialog
        channel={starting}
        pending={setState.isPending}
        onClose={() => setStarting(null)}
        onStart={(channel, backfill) => setState.mutate({ channel, state: 'started', backfill })}
      />
      <BindDialog
        tenantId={tenantId}
        thingsId={thingsId}
        channel={binding}
        current={binding === null ? undefined : byChannel.get(binding)}
        onClose={() => setBinding(null)}
      />
    </>
  );
}

/** Start parsing a paused channel; optionally (default off) decode the frames it already holds. */
function StartDialog({
  channel,
  pending,
  onClose,
  onStart,
}: {
  channel: number | null;
  pending: boolean;
  onClose: () => void;
  onStart: (channel: number, backfill?: BackfillRange) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<BackfillValues>();
  return (
    <Modal
      open={channel !== null}
      title={t('dbc.start.title', { channel: `CAN${channel ?? ''}` })}
      okText={t('dbc.parsing.start')}
      cancelText={t('common.action.cancel')}
      confirmLoading={pending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('dbc.start.text')}</Typography.Paragraph>
      <Form<BackfillValues>
        form={form}
        name="dbc-start"
        layout="vertical"
        preserve={false}
        initialValues={{ backfill: false }}
        onFinish={(v) => channel !== null && onStart(channel, backfillOf(v))}
      >
        <BackfillFields />
      </Form>
    </Modal>
  );
}
