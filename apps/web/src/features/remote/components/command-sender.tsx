import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { MAX_CAN_COMMAND_FRAMES, Operations } from '@loggerhead/contract/schemas/command.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Checkbox, Flex, Input, InputNumber, Radio, Space, Table, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { commandApi } from '../api/command.api.ts';
import { remoteKeys } from '../api/remote.queries.ts';
import { canAddFrame, type FrameRow, frameErrors, toCommandFrames } from '../lib/can-frames.ts';

interface Props {
  thingId: string;
  tenantId: string;
}

/** Command sending (spec §2 device management): up to 100 CAN / CAN FD frames, once or periodic. */
export function CommandSender({ thingId, tenantId }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const nextKey = useRef(2);
  const [rows, setRows] = useState<FrameRow[]>([{ key: 1, channel: 0, id: '', ext: false, fd: false, brs: false, data: '' }]);
  const [mode, setMode] = useState<'once' | 'periodic'>('once');
  const [period, setPeriod] = useState<number | null>(1000);
  const [count, setCount] = useState<number | null>(null);

  const errors = rows.map(frameErrors);
  const valid = rows.length > 0 && errors.every((e) => e.length === 0) && (mode === 'once' || (period ?? 0) >= 1);

  const update = (key: number, patch: Partial<FrameRow>) => setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const add = () => {
    if (!canAddFrame(rows.length)) return;
    const key = nextKey.current++;
    setRows((rs) => [...rs, { key, channel: 0, id: '', ext: false, fd: false, brs: false, data: '' }]);
  };

  const refresh = () => client.invalidateQueries({ queryKey: remoteKeys.device(tenantId, thingId) });
  const send = useMutation({
    mutationFn: () =>
      commandApi.issue(tenantId, thingId, {
        operation_name: Operations.sendCan,
        operation_params: {
          frames: toCommandFrames(rows),
          mode,
          ...(mode === 'periodic' ? { period_ms: period ?? 1000, ...(count ? { count } : {}) } : {}),
        },
      }),
    onSuccess: () => {
      message.success(t('remote.commands.issued'));
      refresh();
    },
  });
  const stop = useMutation({
    mutationFn: () => commandApi.issue(tenantId, thingId, { operation_name: Operations.stopCan, operation_params: {} }),
    onSuccess: () => {
      message.success(t('remote.commands.issued'));
      refresh();
    },
  });

  return (
    <Card size="small" title={t('remote.send.title')} data-testid="command-sender">
      <Table<FrameRow>
        size="small"
        rowKey="key"
        pagination={false}
        dataSource={rows}
        scroll={{ y: 320 }}
        columns={[
          { key: 'n', title: '#', width: 48, render: (_v, _r, i) => i + 1 },
          {
            key: 'channel',
            title: t('remote.frames.channel'),
            width: 80,
            render: (_v, r) => (
              <InputNumber
                size="small"
                min={0}
                max={15}
                style={{ width: '100%' }}
                value={r.channel}
                aria-label={t('remote.frames.channel')}
                onChange={(v) => update(r.key, { channel: v ?? 0 })}
              />
            ),
          },
          {
            key: 'id',
            title: t('remote.frames.id'),
            width: 130,
            render: (_v, r) => (
              <Input
                size="small"
                className="lh-mono"
                value={r.id}
                placeholder={r.ext ? '1FFFFFFF' : '7FF'}
                aria-label={t('remote.frames.id')}
                status={r.id !== '' && errors[rows.indexOf(r)]?.some((e) => e.startsWith('id')) ? 'error' : undefined}
                onChange={(e) => update(r.key, { id: e.target.value })}
              />
            ),
          },
          {
            key: 'flags',
            title: t('remote.frames.flags'),
            width: 250,
            render: (_v, r) => (
              <Space size={4} style={{ whiteSpace: 'nowrap' }}>
                <Checkbox checked={r.ext} onChange={(e) => update(r.key, { ext: e.target.checked })}>
                  {t('remote.frames.ext')}
                </Checkbox>
                <Checkbox checked={r.fd} onChange={(e) => update(r.key, { fd: e.target.checked, brs: e.target.checked && r.brs })}>
                  FD
                </Checkbox>
                <Checkbox checked={r.brs} disabled={!r.fd} onChange={(e) => update(r.key, { brs: e.target.checked })}>
                  BRS
                </Checkbox>
              </Space>
            ),
          },
          {
            key: 'data',
            title: t('remote.frames.data'),
            render: (_v, r) => {
              const errs = errors[rows.indexOf(r)] ?? [];
              const shown = errs.filter((e) => r.id !== '' || !e.startsWith('id'));
              return (
                <>
                  <Input
                    size="small"
                    className="lh-mono"
                    value={r.data}
                    placeholder="11 22 33"
                    aria-label={t('remote.frames.data')}
                    status={errs.some((e) => !e.startsWith('id') && e !== 'brsNeedsFd') ? 'error' : undefined}
                    onChange={(e) => update(r.key, { data: e.target.value })}
                  />
                  {shown.length > 0 && (
                    <Typography.Text type="danger" style={{ fontSize: 12 }}>
                      {shown.map((e) => t(`remote.frames.error.${e}`)).join('; ')}
                    </Typography.Text>
                  )}
                </>
              );
            },
          },
          {
            key: 'del',
            width: 48,
            render: (_v, r) => (
              <Button
                size="small"
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('remote.frames.remove')}
                disabled={rows.length === 1}
                onClick={() => setRows((rs) => rs.filter((x) => x.key !== r.key))}
              />
            ),
          },
        ]}
      />
      <Flex gap={12} wrap align="center" style={{ marginTop: 12 }}>
        <Button size="small" icon={<PlusOutlined />} disabled={!canAddFrame(rows.length)} onClick={add}>
          {t('remote.frames.add')}
        </Button>
        <Typography.Text type="secondary">{t('remote.frames.count', { count: rows.length, max: MAX_CAN_COMMAND_FRAMES })}</Typography.Text>
        <Radio.Group value={mode} onChange={(e) => setMode(e.target.value)}>
          <Radio value="once">{t('remote.send.once')}</Radio>
          <Radio value="periodic">{t('remote.send.periodic')}</Radio>
        </Radio.Group>
        {mode === 'periodic' && (
          <>
            <InputNumber
              size="small"
              min={1}
              max={86_400_000}
              value={period}
              onChange={setPeriod}
              addonAfter="ms"
              aria-label={t('remote.send.period')}
              placeholder={t('remote.send.period')}
            />
            <InputNumber
              size="small"
              min={1}
              max={1_000_000}
              value={count}
              onChange={setCount}
              aria-label={t('remote.send.count')}
              placeholder={t('remote.send.countEndless')}
              style={{ width: 160 }}
            />
          </>
        )}
        <Button type="primary" size="small" disabled={!valid} loading={send.isPending} onClick={() => send.mutate()}>
          {t('remote.send.submit')}
        </Button>
        <Button size="small" loading={stop.isPending} onClick={() => stop.mutate()}>
          {t('remote.send.stop')}
        </Button>
      </Flex>
    </Card>
  );
}
