import { Routes } from '@loggerhead/contract/routes/index.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Flex, Form, Input, Progress, Select, Space, Steps, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ecuApi, type UdsTransportInput } from '../../../api/ecu.api.ts';
import { ecuFilesQuery } from '../../../api/ecu.queries.ts';
import { reasonText } from '../../../api/error-funnel.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { mayCall } from '../../../session/can.ts';
import { flashJobQuery, remoteKeys } from '../api/remote.queries.ts';
import { TransportForm, type TransportValues, toTransport } from './transport-form.tsx';

/** The flashing sequence the server runs through the device (same order as the UDS flasher); the job names its step. */
export const FLASH_STEPS = [
  'extended-session',
  'security-seed',
  'security-key',
  'programming-session',
  'erase',
  'request-download',
  'transfer',
  'transfer-exit',
  'check',
  'reset',
] as const;

export function flashStepIndex(step: string | null): number {
  const i = FLASH_STEPS.indexOf((step ?? '') as (typeof FLASH_STEPS)[number]);
  return i < 0 ? 0 : i;
}

/** ECU upgrade (spec §2): pick an ECU and a firmware package, run the flashing sequence with per-step progress, cancel. */
export function EcuUpgradePanel({ tenantId, thingId }: { tenantId: string; thingId: string }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const [form] = Form.useForm<TransportValues>();
  const [firmware, setFirmware] = useState<string | undefined>();
  const [address, setAddress] = useState('0');
  // The job is kept in the address (?job=…): a flash that runs on is found again after a reload or a visit elsewhere.
  const [params, setParams] = useSearchParams();
  const jobId = params.get('job');
  const setJobId = (id: string) =>
    setParams(
      (p) => {
        p.set('job', id);
        return p;
      },
      { replace: true },
    );
  const files = useQuery(ecuFilesQuery(tenantId, 'firmware'));
  const job = useQuery(flashJobQuery(tenantId, thingId, jobId));
  const addressOk = /^(0x)?[0-9a-fA-F]{1,8}$/.test(address.trim());
  const start = useMutation({
    mutationFn: (transport: UdsTransportInput) =>
      ecuApi.flash(tenantId, thingId, {
        transport,
        address: Number.parseInt(address.trim().replace(/^0x/i, ''), 16),
        ...(firmware ? { firmware_file_id: firmware } : {}),
      }),
    onSuccess: (j) => setJobId(j.id),
  });
  const cancel = useMutation({
    mutationFn: () => ecuApi.cancelFlash(tenantId, thingId, jobId as string),
    onSettled: () => client.invalidateQueries({ queryKey: remoteKeys.device(tenantId, thingId) }),
  });
  const j = job.data;
  const running = j?.state === 'running' || start.isPending;
  const current = flashStepIndex(j?.step ?? null);
  return (
    <Flex vertical gap={16}>
      <Card size="small" title={t('remote.ecuUpgrade.target')}>
        <TransportForm form={form} tenantId={tenantId} requireEcu />
        <Space wrap>
          <Select
            allowClear
            style={{ width: 380 }}
            placeholder={t('remote.ecuUpgrade.ecuPackage')}
            value={firmware}
            onChange={setFirmware}
            loading={files.isPending}
            options={(files.data ?? []).map((f) => ({ value: f.id, label: `${f.name} (${f.file_name})` }))}
            aria-label={t('remote.ecuUpgrade.firmware')}
          />
          <Input
            className="lh-mono"
            addonBefore={t('remote.ecuUpgrade.address')}
            aria-label={t('remote.ecuUpgrade.address')}
            value={address}
            status={addressOk ? undefined : 'error'}
            onChange={(e) => setAddress(e.target.value)}
            style={{ width: 240 }}
          />
          {mayCall(Routes.uds.flash) && (
            <Button
              type="primary"
              disabled={running || !addressOk}
              loading={start.isPending}
              onClick={() =>
                void form.validateFields().then(
                  (v) => start.mutate(toTransport(v)),
                  () => undefined,
                )
              }
            >
              {t('remote.ecuUpgrade.start')}
            </Button>
          )}
          {j?.state === 'running' && mayCall(Routes.uds.cancelFlash) && (
            <Button danger loading={cancel.isPending} onClick={() => cancel.mutate()}>
              {t('remote.ecuUpgrade.cancel')}
            </Button>
          )}
        </Space>
      </Card>
      {j && (
        <Card
          size="small"
          title={t('remote.ecuUpgrade.progress')}
          data-testid="ecu-flash-job"
          extra={
            <Tag color={{ running: 'processing', done: 'success', failed: 'error', cancelled: 'default' }[j.state]}>
              {t(`remote.ecuUpgrade.state.${j.state}`)}
            </Tag>
          }
        >
          <Steps
            size="small"
            current={j.state === 'done' ? FLASH_STEPS.length : current}
            status={j.state === 'failed' ? 'error' : j.state === 'running' ? 'process' : j.state === 'done' ? 'finish' : 'wait'}
            items={FLASH_STEPS.map((s) => ({ title: t(`remote.ecuUpgrade.step.${s}`) }))}
          />
          <Progress
            style={{ marginTop: 16 }}
            percent={j.progress}
            status={j.state === 'failed' ? 'exception' : j.state === 'done' ? 'success' : 'active'}
          />
          {j.finished_at && <div>{formatDateTime(j.finished_at)}</div>}
          {j.state === 'failed' && (
            <Alert
              type="error"
              showIcon
              message={t('remote.ecuUpgrade.failed')}
              description={reasonText(j.reason, t, (k) => i18n.exists(k)) || undefined}
              style={{ marginTop: 12 }}
            />
          )}
        </Card>
      )}
    </Flex>
  );
}
