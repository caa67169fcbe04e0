import type { FnOperation } from '@loggerhead/contract/schemas/models.ts';
import type { TwinProperty } from '@loggerhead/contract/schemas/twin.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, type ButtonProps, Card, Empty, Flex, Form, Modal, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { eventsQuery, modelApi, modelBlocksQuery, modelKeys, twinQuery } from '../api/model.api.ts';
import { parseTyped, showValue, TypedInput, VALUE_TYPE_KEYS } from './typed-value.tsx';

const time = (ms: number | null | undefined) => (ms ? new Date(ms).toLocaleString() : '--');

/**
 * A device's data as its info model says (decision 0123): the status properties as a live table with
 * their reported and desired values, the model's events as a log, its operations as commands with
 * typed parameter forms.
 */
export function DeviceModelView({ tenantId, thingsId, modelId }: { tenantId: string; thingsId: string; modelId: string }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const twin = useQuery(twinQuery(tenantId, thingsId));
  const events = useQuery(eventsQuery(tenantId, thingsId));
  const blocks = useQuery(modelBlocksQuery(tenantId, modelId));
  const [drafts, setDrafts] = useState<Record<string, unknown>>({});
  const [op, setOp] = useState<{ block: string; op: FnOperation } | null>(null);
  const [opForm] = Form.useForm();
  const lang = i18n.language.startsWith('zh') ? 'zh_CN' : 'en_US';

  const setDesired = useMutation({
    mutationFn: (desired: Record<string, unknown>) => modelApi.setDesired(tenantId, thingsId, desired),
    onSuccess: (tw) => {
      qc.setQueryData(modelKeys.twin(tenantId, thingsId), tw);
      setDrafts({});
      message.success(t('device-type.model.twin.sent'));
    },
  });
  const operate = useMutation({
    mutationFn: (v: { name: string; params: Record<string, unknown> }) => modelApi.operate(tenantId, thingsId, v.name, v.params),
    onSuccess: (c) => {
      message.success(t('device-type.model.op.sent', { state: c.state }));
      setOp(null);
    },
  });

  const hasOps = blocks.data?.some((b) => b.json_schema.operations.length) ?? false;
  if (twin.data && twin.data.properties.length === 0 && !hasOps) return <Empty description={t('device-type.model.twin.noModel')} />;
  const tw = twin.data;

  const submitDesired = (p: TwinProperty) => {
    const parsed = parseTyped(p.data_type, drafts[p.path]);
    if (!parsed.ok) {
      message.error(t('device-type.model.twin.badValue'));
      return;
    }
    setDesired.mutate({ [p.path]: parsed.value });
  };

  return (
    <Flex vertical gap={16}>
      <Card
        size="small"
        title={t('device-type.model.twin.properties')}
        extra={
          tw && (
            <Typography.Text type="secondary" data-testid="twin-version">
              {t('device-type.model.twin.version', { desired: tw.desired_version, acked: tw.acked_version })}
              {tw.ack_code !== null && tw.ack_code !== 0 && <Tag color="red">{tw.ack_message ?? tw.ack_code}</Tag>}
            </Typography.Text>
          )
        }
      >
        <Table<TwinProperty>
          data-testid="twin-table"
          rowKey="path"
          size="small"
          pagination={false}
          loading={twin.isPending}
          dataSource={tw?.properties ?? []}
          columns={[
            { key: 'block', title: t('device-type.model.twin.block'), dataIndex: 'block' },
            { key: 'identifier', title: t('device-type.model.prop.identifier'), dataIndex: 'identifier' },
            { key: 'name', title: t('device-type.model.prop.name'), render: (_v, p) => p.i18n?.[lang] || p.name },
            {
              key: 'type',
              title: t('device-type.model.prop.type'),
              render: (_v, p) => t(`device-type.model.type.${VALUE_TYPE_KEYS[p.data_type]}`),
            },
            {
              key: 'reported',
              title: t('device-type.model.twin.reported'),
              render: (_v, p) => <span data-testid={`reported-${p.path}`}>{showValue(tw?.reported[p.path]?.value)}</span>,
            },
            { key: 'at', title: t('device-type.model.twin.reportedAt'), render: (_v, p) => time(tw?.reported[p.path]?.ts) },
            {
              key: 'desired',
              title: t('device-type.model.twin.desired'),
              render: (_v, p) =>
                p.read_only ? (
                  <Typography.Text type="secondary">{t('device-type.model.prop.readOnly')}</Typography.Text>
                ) : (
                  <Flex gap={6} align="center">
                    <span data-testid={`desired-${p.path}`}>{showValue(tw?.desired[p.path])}</span>
                    {tw && p.path in tw.delta && <Tag color="orange">{t('device-type.model.twin.pending')}</Tag>}
                    <TypedInput
                      dataType={p.data_type}
                      value={drafts[p.path]}
                      onChange={(v) => setDrafts((d) => ({ ...d, [p.path]: v }))}
                      testId={`desired-input-${p.path}`}
                    />
                    <Button
                      size="small"
                      onClick={() => submitDesired(p)}
                      loading={setDesired.isPending}
                      data-testid={`desired-set-${p.path}`}
                    >
                      {t('device-type.model.twin.set')}
                    </Button>
                  </Flex>
                ),
            },
          ]}
        />
      </Card>
      <Card size="small" title={t('device-type.model.op.title')}>
        <Flex gap={8} wrap>
          {(blocks.data ?? []).flatMap((b) =>
            b.json_schema.operations.map((o) => (
              <Button
                key={`${b.name}.${o.identifier}`}
                onClick={() => setOp({ block: b.name, op: o })}
                data-testid={`op-${b.name}.${o.identifier}`}
              >
                {o.i18n?.[lang] || o.name}
              </Button>
            )),
          )}
          {!hasOps && <Typography.Text type="secondary">--</Typography.Text>}
        </Flex>
      </Card>
      <Card size="small" title={t('device-type.model.events.title')}>
        <Table
          data-testid="model-events"
          rowKey="id"
          size="small"
          dataSource={events.data?.list ?? []}
          pagination={{ pageSize: 10, size: 'small' }}
          columns={[
            { key: 'ts', title: t('device-type.model.events.time'), render: (_v, e) => time(e.ts) },
            { key: 'event', title: t('device-type.model.events.event'), render: (_v, e) => `${e.block}.${e.event}` },
            {
              key: 'type',
              title: t('device-type.model.events.type'),
              render: (_v, e) => (e.event_type ? <Tag>{e.event_type}</Tag> : '--'),
            },
            {
              key: 'data',
              title: t('device-type.model.events.data'),
              render: (_v, e) => <Typography.Text code>{JSON.stringify(e.data)}</Typography.Text>,
            },
          ]}
        />
      </Card>
      {op && (
        <Modal
          open
          title={`${op.op.name} (${op.block}.${op.op.identifier})`}
          onCancel={() => setOp(null)}
          onOk={() => opForm.submit()}
          okButtonProps={{ loading: operate.isPending, 'data-testid': 'op-send' } as ButtonProps}
          destroyOnHidden
        >
          <Form
            form={opForm}
            layout="vertical"
            preserve={false}
            onFinish={(v: Record<string, unknown>) => {
              const params: Record<string, unknown> = {};
              for (const p of op.op.params) {
                if (v[p.identifier] === undefined || v[p.identifier] === null || v[p.identifier] === '') continue;
                const r = parseTyped(p.data_type, v[p.identifier]);
                if (!r.ok) {
                  opForm.setFields([{ name: p.identifier, errors: [t('device-type.model.twin.badValue')] }]);
                  return;
                }
                params[p.identifier] = r.value;
              }
              operate.mutate({ name: `${op.block}.${op.op.identifier}`, params });
            }}
          >
            {op.op.params.map((p) => (
              <Form.Item
                key={p.identifier}
                name={p.identifier}
                label={`${p.i18n?.[lang] || p.name} (${t(`device-type.model.type.${VALUE_TYPE_KEYS[p.data_type]}`)})`}
                rules={p.required ? [{ required: true }] : []}
              >
                <TypedInput dataType={p.data_type} testId={`op-param-${p.identifier}`} />
              </Form.Item>
            ))}
          </Form>
        </Modal>
      )}
    </Flex>
  );
}
