import { Routes } from '@loggerhead/contract/routes/index.ts';
import { useMutation } from '@tanstack/react-query';
import { Alert, App, Button, Card, Flex, Form, Input, InputNumber, Popconfirm, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type DtcList, ecuApi, type UdsResult, type UdsTransportInput } from '../../../api/ecu.api.ts';
import { errorText } from '../../../api/error-funnel.ts';
import { isPdu, normaliseBytes, udsPdu } from '../../../lib/uds-pdu.ts';
import { mayCall } from '../../../session/can.ts';
import { TransportForm, type TransportValues, toTransport } from './transport-form.tsx';

interface LogEntry {
  key: number;
  label: string;
  result?: UdsResult;
  error?: string;
}

const hexNum = (s: string, max: number) => {
  const v = Number.parseInt(s.replace(/^0x/i, ''), 16);
  return /^(0x)?[0-9a-fA-F]{1,8}$/.test(s.trim()) && v <= max ? v : null;
};

/** UDS diagnosis (spec §2/§5): diagnostic services relayed through the device, DTCs with names, raw requests. */
export function UdsPanel({ tenantId, thingId }: { tenantId: string; thingId: string }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<TransportValues>();
  const [log, setLog] = useState<LogEntry[]>([]);
  const [dtcs, setDtcs] = useState<DtcList | null>(null);
  const [session, setSession] = useState(3);
  const [reset, setReset] = useState(1);
  const [did, setDid] = useState('F190');
  const [didData, setDidData] = useState('');
  const [level, setLevel] = useState(1);
  const [key, setKey] = useState('');
  const [rid, setRid] = useState('FF00');
  const [ridSub, setRidSub] = useState<1 | 2 | 3>(1);
  const [ridOpt, setRidOpt] = useState('');
  const [raw, setRaw] = useState('');

  const errorMessage = (e: unknown) => errorText(e, t, (k) => i18n.exists(k));
  /** The transport, or null (the form shows what is wrong) — so an invalid form never reaches the server. */
  const transport = () => form.validateFields().then(toTransport, () => null);
  const push = (e: Omit<LogEntry, 'key'>) => setLog((l) => [{ ...e, key: Date.now() + Math.random() }, ...l].slice(0, 50));
  const send = useMutation({
    mutationFn: async (v: { label: string; pdu: string; transport: UdsTransportInput }) => ({
      ...v,
      result: await ecuApi.request(tenantId, thingId, v.transport, v.pdu),
    }),
    meta: { silent: true },
    onSuccess: (r) => push({ label: `${r.label}: ${r.pdu}`, result: r.result }),
    onError: (e, v) => push({ label: `${v.label}: ${v.pdu}`, error: errorMessage(e) }),
  });
  const readDtc = useMutation({
    mutationFn: (tr: UdsTransportInput) => ecuApi.readDtcs(tenantId, thingId, tr, 0xff),
    onSuccess: setDtcs,
  });
  const clearDtc = useMutation({
    mutationFn: (tr: UdsTransportInput) => ecuApi.clearDtcs(tenantId, thingId, tr),
    onSuccess: () => {
      message.success(t('remote.uds.cleared'));
      setDtcs(null);
    },
  });
  const run = (label: string, pdu: string | null) => {
    if (!pdu || !isPdu(pdu)) {
      message.error(t('remote.uds.badBytes'));
      return;
    }
    void transport().then((tr) => tr && send.mutate({ label, pdu, transport: tr }));
  };
  const bytes = (s: string) => normaliseBytes(s);

  // Every service here is a request through the device: without its key there is nothing to press.
  if (!mayCall(Routes.uds.request)) return <Alert type="info" showIcon title={t('common.notAllowed')} data-testid="not-allowed" />;

  return (
    <Flex vertical gap={16}>
      <Card size="small" title={t('remote.uds.transport')}>
        <TransportForm form={form} tenantId={tenantId} />
      </Card>
      <Card size="small" title={t('remote.uds.services')} data-testid="uds-services">
        <Flex vertical gap={8}>
          <Space wrap>
            <Typography.Text strong>{t('remote.uds.session')}</Typography.Text>
            <Select
              size="small"
              value={session}
              onChange={setSession}
              style={{ width: 160 }}
              options={[1, 2, 3].map((v) => ({ value: v, label: t(`remote.uds.session.${v}`) }))}
            />
            <Button size="small" loading={send.isPending} onClick={() => run(t('remote.uds.session'), udsPdu.session(session))}>
              {t('remote.uds.send')}
            </Button>
            <Typography.Text strong>{t('remote.uds.reset')}</Typography.Text>
            <Select
              size="small"
              value={reset}
              onChange={setReset}
              style={{ width: 140 }}
              options={[1, 2, 3].map((v) => ({ value: v, label: t(`remote.uds.reset.${v}`) }))}
            />
            <Button size="small" loading={send.isPending} onClick={() => run(t('remote.uds.reset'), udsPdu.reset(reset))}>
              {t('remote.uds.send')}
            </Button>
            <Button size="small" loading={send.isPending} onClick={() => run(t('remote.uds.testerPresent'), udsPdu.testerPresent())}>
              {t('remote.uds.testerPresent')}
            </Button>
          </Space>
          <Space wrap>
            <Typography.Text strong>DID</Typography.Text>
            <Input
              size="small"
              className="lh-mono"
              value={did}
              onChange={(e) => setDid(e.target.value)}
              style={{ width: 90 }}
              aria-label="DID"
            />
            <Button
              size="small"
              loading={send.isPending}
              onClick={() => {
                const d = hexNum(did, 0xffff);
                run(t('remote.uds.readDid'), d === null ? null : udsPdu.readDid(d));
              }}
            >
              {t('remote.uds.readDid')}
            </Button>
            <Input
              size="small"
              className="lh-mono"
              value={didData}
              placeholder={t('remote.uds.data')}
              onChange={(e) => setDidData(e.target.value)}
              style={{ width: 220 }}
              aria-label={t('remote.uds.data')}
            />
            <Button
              size="small"
              loading={send.isPending}
              onClick={() => {
                const d = hexNum(did, 0xffff);
                const b = bytes(didData);
                run(t('remote.uds.writeDid'), d === null || !b ? null : udsPdu.writeDid(d, b));
              }}
            >
              {t('remote.uds.writeDid')}
            </Button>
          </Space>
          <Space wrap>
            <Typography.Text strong>{t('remote.uds.security')}</Typography.Text>
            <InputNumber
              size="small"
              min={1}
              max={0x7d}
              step={2}
              value={level}
              onChange={(v) => setLevel(v ?? 1)}
              aria-label={t('remote.uds.level')}
            />
            <Button
              size="small"
              loading={send.isPending}
              onClick={() => run(t('remote.uds.seed'), level % 2 === 1 ? udsPdu.requestSeed(level) : null)}
            >
              {t('remote.uds.seed')}
            </Button>
            <Input
              size="small"
              className="lh-mono"
              value={key}
              placeholder={t('remote.uds.key')}
              onChange={(e) => setKey(e.target.value)}
              style={{ width: 200 }}
              aria-label={t('remote.uds.key')}
            />
            <Button
              size="small"
              loading={send.isPending}
              onClick={() => {
                const b = bytes(key);
                run(t('remote.uds.sendKey'), level % 2 === 1 && b ? udsPdu.sendKey(level, b) : null);
              }}
            >
              {t('remote.uds.sendKey')}
            </Button>
          </Space>
          <Space wrap>
            <Typography.Text strong>{t('remote.uds.routine')}</Typography.Text>
            <Select
              size="small"
              value={ridSub}
              onChange={setRidSub}
              style={{ width: 130 }}
              options={([1, 2, 3] as const).map((v) => ({ value: v, label: t(`remote.uds.routine.${v}`) }))}
            />
            <Input
              size="small"
              className="lh-mono"
              value={rid}
              onChange={(e) => setRid(e.target.value)}
              style={{ width: 90 }}
              aria-label="RID"
            />
            <Input
              size="small"
              className="lh-mono"
              value={ridOpt}
              placeholder={t('remote.uds.data')}
              onChange={(e) => setRidOpt(e.target.value)}
              style={{ width: 200 }}
              aria-label={t('remote.uds.data')}
            />
            <Button
              size="small"
              loading={send.isPending}
              onClick={() => {
                const r = hexNum(rid, 0xffff);
                const b = bytes(ridOpt);
                run(t('remote.uds.routine'), r === null || b === null ? null : udsPdu.routine(ridSub, r, b));
              }}
            >
              {t('remote.uds.send')}
            </Button>
          </Space>
          <Space wrap>
            <Typography.Text strong>{t('remote.uds.raw')}</Typography.Text>
            <Input
              size="small"
              className="lh-mono"
              value={raw}
              placeholder="22 F1 90"
              status={raw && !isPdu(raw) ? 'error' : undefined}
              onChange={(e) => setRaw(e.target.value)}
              style={{ width: 320 }}
              aria-label={t('remote.uds.raw')}
            />
            <Button
              size="small"
              type="primary"
              loading={send.isPending}
              disabled={!isPdu(raw)}
              onClick={() => run(t('remote.uds.raw'), raw.trim())}
            >
              {t('remote.uds.send')}
            </Button>
            {raw && !isPdu(raw) && <Typography.Text type="danger">{t('remote.uds.badBytes')}</Typography.Text>}
          </Space>
        </Flex>
      </Card>
      <Card
        size="small"
        title={t('remote.uds.dtc')}
        extra={
          <Space>
            <Button size="small" loading={readDtc.isPending} onClick={() => void transport().then((tr) => tr && readDtc.mutate(tr))}>
              {t('remote.uds.readDtc')}
            </Button>
            {mayCall(Routes.uds.clearDtcs) && (
              <Popconfirm title={t('remote.uds.clearConfirm')} onConfirm={() => transport().then((tr) => tr && clearDtc.mutateAsync(tr))}>
                <Button size="small" danger loading={clearDtc.isPending}>
                  {t('remote.uds.clearDtc')}
                </Button>
              </Popconfirm>
            )}
          </Space>
        }
      >
        <Table
          size="small"
          rowKey="hex"
          data-testid="uds-dtcs"
          dataSource={dtcs?.dtcs ?? []}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          locale={dtcs ? { emptyText: t('remote.uds.noDtc') } : undefined}
          columns={[
            { key: 'code', title: t('remote.uds.dtcCode'), width: 110, render: (_v, d) => <span className="lh-mono">{d.code}</span> },
            { key: 'hex', title: 'HEX', width: 100, render: (_v, d) => <span className="lh-mono">{d.hex}</span> },
            { key: 'name', title: t('remote.uds.dtcName'), render: (_v, d) => d.name ?? '--' },
            {
              key: 'status',
              title: t('remote.uds.dtcStatus'),
              render: (_v, d) => (
                <Space size={2} wrap>
                  <Tag className="lh-mono">0x{d.status.toString(16).toUpperCase().padStart(2, '0')}</Tag>
                  {d.status_names.map((s) => (
                    <Tag key={s}>{s}</Tag>
                  ))}
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <Card size="small" title={t('remote.uds.log')}>
        <Table<LogEntry>
          size="small"
          rowKey="key"
          data-testid="uds-log"
          dataSource={log}
          pagination={false}
          columns={[
            { key: 'req', title: t('remote.uds.request'), render: (_v, e) => <span className="lh-mono">{e.label}</span> },
            {
              key: 'res',
              title: t('remote.uds.response'),
              render: (_v, e) =>
                e.error ? (
                  <Typography.Text type="danger">{e.error}</Typography.Text>
                ) : e.result ? (
                  <Space size={4} wrap>
                    <Tag color={e.result.positive ? 'success' : 'error'}>
                      {e.result.positive ? t('remote.uds.positive') : t('remote.uds.negative')}
                    </Tag>
                    <span className="lh-mono">{e.result.response || '--'}</span>
                    {e.result.nrc !== null && (
                      <Typography.Text type="danger">
                        NRC 0x{e.result.nrc.toString(16).toUpperCase().padStart(2, '0')} {e.result.nrc_name ?? ''}
                      </Typography.Text>
                    )}
                  </Space>
                ) : null,
            },
          ]}
        />
      </Card>
    </Flex>
  );
}
