import { Routes } from '@loggerhead/contract/routes/index.ts';
import { Operations } from '@loggerhead/contract/schemas/command.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Flex, InputNumber, Radio } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CanFramesTable } from '../../../components/can-frames-table.tsx';
import { emptyFrameRow, type FrameRow, frameErrors, toCommandFrames } from '../../../lib/can-frames.ts';
import { mayCall } from '../../../session/can.ts';
import { commandApi } from '../api/command.api.ts';
import { remoteKeys } from '../api/remote.queries.ts';

interface Props {
  thingId: string;
  tenantId: string;
}

/** Command sending (spec §2 device management): up to 100 CAN / CAN FD frames, once or periodic. */
export function CommandSender({ thingId, tenantId }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [rows, setRows] = useState<FrameRow[]>([emptyFrameRow(1)]);
  const [mode, setMode] = useState<'once' | 'periodic'>('once');
  const [period, setPeriod] = useState<number | null>(1000);
  const [count, setCount] = useState<number | null>(null);

  const errors = rows.map(frameErrors);
  const valid = rows.length > 0 && errors.every((e) => e.length === 0) && (mode === 'once' || (period ?? 0) >= 1);

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
      <CanFramesTable rows={rows} onChange={setRows} />
      <Flex gap={12} wrap align="center" style={{ marginTop: 12 }}>
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
        {mayCall(Routes.command.issue) && (
          <Button type="primary" size="small" disabled={!valid} loading={send.isPending} onClick={() => send.mutate()}>
            {t('remote.send.submit')}
          </Button>
        )}
        {mayCall(Routes.command.issue) && (
          <Button size="small" loading={stop.isPending} onClick={() => stop.mutate()}>
            {t('remote.send.stop')}
          </Button>
        )}
      </Flex>
    </Card>
  );
}
