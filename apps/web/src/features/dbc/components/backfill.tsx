import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { Backfill, BackfillRange } from '@loggerhead/contract/schemas/dbc.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox, Flex, Form, Progress, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { dbcApi } from '../../../api/dbc.api.ts';
import { dbcKeys } from '../../../api/dbc.queries.ts';
import { DateRange } from '../../../components/data-view/date-range.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { mayCall } from '../../../session/can.ts';

export interface BackfillValues {
  backfill?: boolean;
  backfillRange?: [number, number];
}

/** The last 24 hours: the range offered when the option is ticked. */
export const defaultBackfillRange = (): [number, number] => {
  const now = Date.now();
  return [now - 86_400_000, now];
};

/** The form's choice as the API's back-fill range (none unless ticked). */
export function backfillOf(v: BackfillValues): BackfillRange | undefined {
  return v.backfill && v.backfillRange ? { begin_time: v.backfillRange[0], end_time: v.backfillRange[1] } : undefined;
}

/** Form fields of the start option "also decode the stored frames" (default off) and its range. */
export function BackfillFields() {
  const { t } = useTranslation();
  const form = Form.useFormInstance<BackfillValues>();
  const on = Form.useWatch('backfill', form);
  return (
    <>
      <Form.Item name="backfill" valuePropName="checked" extra={on ? t('dbc.backfill.help') : undefined} style={{ marginBottom: 12 }}>
        <Checkbox
          data-testid="backfill-option"
          onChange={(e) => {
            if (e.target.checked && !form.getFieldValue('backfillRange')) form.setFieldValue('backfillRange', defaultBackfillRange());
          }}
        >
          {t('dbc.backfill.option')}
        </Checkbox>
      </Form.Item>
      {on && (
        <Form.Item
          name="backfillRange"
          label={t('dbc.backfill.range')}
          rules={[{ required: true, message: t('dbc.backfill.rangeRequired') }]}
        >
          <RangeField />
        </Form.Item>
      )}
    </>
  );
}

/** The range picker as a form control (the form gives value and onChange). */
function RangeField({ value, onChange }: { value?: [number, number]; onChange?: (r: [number, number]) => void }) {
  return <DateRange value={value ?? defaultBackfillRange()} onChange={(r) => onChange?.(r)} />;
}

/**
 * The channel's newest back-fill: progress while it runs (frames read of the range, polled once a
 * second), then its outcome.
 */
export function BackfillStatus({
  tenantId,
  thingsId,
  channel,
  canWrite,
}: {
  tenantId: string;
  thingsId: string;
  channel: number;
  canWrite: boolean;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const qc = useQueryClient();
  const q = useQuery({
    queryKey: [...dbcKeys.device(tenantId, thingsId), 'backfill', channel],
    queryFn: ({ signal }) => dbcApi.backfill(tenantId, thingsId, channel, signal),
    refetchInterval: (query) => (query.state.data?.state === 'running' ? 1_000 : false),
    meta: { silent: true },
  });
  const b = q.data;
  // When it finishes, the channel's signals and their sample counts changed.
  const was = useRef<Backfill['state'] | undefined>(undefined);
  useEffect(() => {
    if (was.current === 'running' && b && b.state !== 'running') {
      void qc.invalidateQueries({ queryKey: dbcKeys.series(tenantId, thingsId, channel) });
    }
    was.current = b?.state;
  }, [b, qc, tenantId, thingsId, channel]);
  const stop = useMutation({
    mutationFn: () => dbcApi.stopBackfill(tenantId, thingsId, channel),
    onSettled: () => q.refetch(),
  });
  if (!b) return null;
  const n = { done: formatNumber(b.done_frames, lang), total: formatNumber(b.total_frames, lang), samples: formatNumber(b.samples, lang) };
  const percent = b.total_frames ? Math.floor((100 * b.done_frames) / b.total_frames) : b.state === 'done' ? 100 : 0;
  return (
    <div data-testid="backfill-status" data-state={b.state}>
      {b.state === 'running' ? (
        <Flex vertical gap={0}>
          <Flex align="center" gap={8}>
            <Progress percent={percent} size="small" style={{ width: 160, margin: 0 }} />
            {canWrite && mayCall(Routes.mapping.stopBackfill) && (
              <Button type="link" size="small" onClick={() => stop.mutate()} loading={stop.isPending} data-testid="backfill-stop">
                {t('dbc.backfill.stop')}
              </Button>
            )}
          </Flex>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('dbc.backfill.running', n)}
          </Typography.Text>
        </Flex>
      ) : (
        <Typography.Text type={b.state === 'done' ? 'secondary' : 'warning'} style={{ fontSize: 12 }}>
          {b.state === 'failed' ? t('dbc.backfill.failed', { error: b.error ?? '' }) : t(`dbc.backfill.${b.state}`, n)}
        </Typography.Text>
      )}
    </div>
  );
}
