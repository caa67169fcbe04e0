import { FORWARD_DATA_KINDS, FORWARD_DESTINATION_KINDS, type ForwardRule } from '@loggerhead/contract/schemas/forward.ts';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Checkbox, Divider, Form, Input, Radio, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/error-funnel.ts';
import { FormModal } from '../../../components/form-modal.tsx';
import { type ForwardDestinationInput, type ForwardRuleInput, forwardApi, forwardKeys } from '../api/forward.api.ts';

type Kind = (typeof FORWARD_DESTINATION_KINDS)[number];

interface DestFields {
  kind: Kind;
  url?: string;
  headers?: string;
  secret?: string;
  topic?: string;
  qos?: 0 | 1 | 2;
  username?: string;
  password?: string;
  token?: string;
  exchange?: string;
  routing_key?: string;
  subject?: string;
  stream?: string;
  table?: string;
  brokers?: string;
}

export interface RuleFormValues {
  name: string;
  description?: string;
  device_scope: 'all' | 'group' | 'labels';
  group_id?: string;
  label_ids?: string[];
  data_kinds: string[];
  channels?: string[];
  frame_ids?: string[];
  signals?: string[];
  /** A transform plugin applied before delivery; none: the captured message as it is. */
  transform_plugin_id?: string | null;
  dest: DestFields;
}

const DEFAULTS: Record<Kind, Partial<DestFields>> = {
  http: { url: 'https://' },
  mqtt: { url: 'mqtt://', topic: 'loggerhead/{tenant_id}/{things_id}/{kind}', qos: 1 },
  amqp: { url: 'amqp://', exchange: '', routing_key: 'loggerhead.{things_id}.{kind}' },
  nats: { url: 'nats://', subject: 'loggerhead.{things_id}.{kind}' },
  redis: { url: 'redis://', stream: 'loggerhead:{things_id}' },
  postgres: { url: 'postgres://', table: '' },
  kafka: { brokers: '', topic: 'loggerhead' },
};

const s = (v: unknown) => (typeof v === 'string' ? v : undefined);
const opt = (v: string | undefined) => (v?.trim() ? v.trim() : undefined);

/** The form's destination fields as the API takes them (only the fields of its kind). */
export function destinationOf(d: DestFields): ForwardDestinationInput {
  switch (d.kind) {
    case 'http': {
      const headers: Record<string, string> = {};
      for (const line of (d.headers ?? '').split('\n')) {
        const at = line.indexOf(':');
        if (at > 0) headers[line.slice(0, at).trim()] = line.slice(at + 1).trim();
      }
      return { kind: 'http', url: (d.url ?? '').trim(), headers, secret: opt(d.secret) };
    }
    case 'mqtt':
      return {
        kind: 'mqtt',
        url: (d.url ?? '').trim(),
        topic: opt(d.topic),
        qos: d.qos ?? 1,
        username: opt(d.username),
        password: opt(d.password),
      };
    case 'amqp':
      return {
        kind: 'amqp',
        url: (d.url ?? '').trim(),
        exchange: d.exchange?.trim() ?? '',
        routing_key: opt(d.routing_key),
        password: opt(d.password),
      };
    case 'nats':
      return {
        kind: 'nats',
        url: (d.url ?? '').trim(),
        subject: opt(d.subject),
        username: opt(d.username),
        password: opt(d.password),
        token: opt(d.token),
      };
    case 'redis':
      return { kind: 'redis', url: (d.url ?? '').trim(), stream: opt(d.stream), password: opt(d.password) };
    case 'postgres':
      return { kind: 'postgres', url: (d.url ?? '').trim(), table: (d.table ?? '').trim(), password: opt(d.password) };
    case 'kafka':
      return {
        kind: 'kafka',
        brokers: (d.brokers ?? '')
          .split(',')
          .map((b) => b.trim())
          .filter(Boolean),
        topic: (d.topic ?? '').trim(),
        username: opt(d.username),
        password: opt(d.password),
      };
  }
}

/** A stored rule's destination as the form's fields (secrets stay masked). */
function fieldsOf(d: Record<string, unknown>): DestFields {
  const kind = d.kind as Kind;
  return {
    kind,
    url: s(d.url),
    headers: d.headers
      ? Object.entries(d.headers as Record<string, string>)
          .map(([k, v]) => `${k}: ${v}`)
          .join('\n')
      : undefined,
    secret: s(d.secret),
    topic: s(d.topic),
    qos: d.qos as 0 | 1 | 2 | undefined,
    username: s(d.username),
    password: s(d.password),
    token: s(d.token),
    exchange: s(d.exchange),
    routing_key: s(d.routing_key),
    subject: s(d.subject),
    stream: s(d.stream),
    table: s(d.table),
    brokers: Array.isArray(d.brokers) ? (d.brokers as string[]).join(', ') : undefined,
  };
}

export function bodyOf(v: RuleFormValues): ForwardRuleInput {
  const ids = (v.frame_ids ?? []).map((x) => Number.parseInt(x.replace(/^0x/i, ''), 16)).filter((n) => Number.isFinite(n));
  const channels = (v.channels ?? []).map(Number).filter((n) => Number.isInteger(n));
  return {
    name: v.name.trim(),
    description: v.description?.trim() || null,
    device_scope: v.device_scope,
    group_id: v.device_scope === 'group' ? (v.group_id ?? null) : null,
    label_ids: v.device_scope === 'labels' ? (v.label_ids ?? []) : [],
    data_kinds: v.data_kinds as ForwardRuleInput['data_kinds'],
    filter: {
      ...(channels.length ? { channels } : {}),
      ...(ids.length ? { frame_ids: ids } : {}),
      ...(v.signals?.length ? { signals: v.signals } : {}),
    },
    destination: destinationOf(v.dest),
    transform_plugin_id: v.transform_plugin_id ?? null,
  };
}

interface Props {
  tenantId: string;
  /** null closed, 'new' to add, a rule to edit. */
  target: ForwardRule | 'new' | null;
  onClose: () => void;
}

/** Add or edit a forwarding rule: devices, data, filter and destination, with a connection test. */
export function ForwardRuleDialog({ tenantId, target, onClose }: Props) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<RuleFormValues>();
  const editing = target !== null && target !== 'new' ? target : null;
  const scope = Form.useWatch('device_scope', form);
  const kind = (Form.useWatch(['dest', 'kind'], form) ?? 'http') as Kind;
  const [testing, setTesting] = useState(false);
  const [tested, setTested] = useState<{ ok: boolean; text: string } | null>(null);
  const pickers = useQuery({
    queryKey: forwardKeys.pickers(tenantId),
    queryFn: async ({ signal }) => ({
      groups: (await forwardApi.groups(tenantId, signal)).list,
      labels: await forwardApi.labels(tenantId, signal),
      plugins: (await forwardApi.transformPlugins(tenantId, signal)).list,
    }),
    enabled: target !== null,
  });
  const tooLong = (max: number) => ({ max, message: t('forward.form.tooLong', { max }) });
  const required = (key: string) => ({ required: true, whitespace: true, message: t(key) });

  const runTest = async () => {
    setTested(null);
    setTesting(true);
    try {
      const r = await forwardApi.test(tenantId, destinationOf(form.getFieldValue('dest') as DestFields), editing?.id);
      setTested(
        r.ok
          ? { ok: true, text: t('forward.form.testOk', { ms: r.latency_ms }) }
          : { ok: false, text: t('forward.form.testFailed', { error: r.error ?? '' }) },
      );
    } catch (e) {
      void message.error(errorText(e, t, (k) => i18n.exists(k)));
    } finally {
      setTesting(false);
    }
  };

  const templateHelp = t('forward.form.templateHelp');
  const secretHelp = editing ? t('forward.form.secretHelp') : undefined;
  const url = (
    <Form.Item name={['dest', 'url']} label={t('forward.form.url')} rules={[required('forward.form.urlRequired'), tooLong(1024)]}>
      <Input data-testid="forward-url" />
    </Form.Item>
  );
  const password = (
    <Form.Item name={['dest', 'password']} label={t('forward.form.password')} extra={secretHelp}>
      <Input.Password autoComplete="new-password" />
    </Form.Item>
  );
  const username = (
    <Form.Item name={['dest', 'username']} label={t('forward.form.username')}>
      <Input autoComplete="off" />
    </Form.Item>
  );
  const tmpl = (name: string, label: string) => (
    <Form.Item name={['dest', name]} label={label} extra={templateHelp} rules={[tooLong(256)]}>
      <Input />
    </Form.Item>
  );

  return (
    <FormModal<RuleFormValues>
      open={target !== null}
      title={editing ? t('forward.form.editTitle') : t('forward.form.addTitle')}
      form={form}
      record={editing}
      width={720}
      name="forward-rule"
      initial={
        editing
          ? {
              name: editing.name,
              description: editing.description ?? '',
              device_scope: editing.device_scope,
              group_id: editing.group_id ?? undefined,
              label_ids: editing.label_ids,
              data_kinds: editing.data_kinds,
              channels: (editing.filter.channels ?? []).map(String),
              frame_ids: (editing.filter.frame_ids ?? []).map((n) => n.toString(16).toUpperCase()),
              signals: editing.filter.signals ?? [],
              transform_plugin_id: editing.transform_plugin_id,
              dest: fieldsOf(editing.destination),
            }
          : {
              name: '',
              description: '',
              device_scope: 'all',
              label_ids: [],
              data_kinds: ['signals'],
              channels: [],
              frame_ids: [],
              signals: [],
              dest: { kind: 'http', ...DEFAULTS.http },
            }
      }
      submit={(v) => {
        const body = bodyOf(v);
        return editing ? forwardApi.update(tenantId, editing.id, body) : forwardApi.create(tenantId, body);
      }}
      invalidate={forwardKeys.all}
      savedText={t('forward.form.saved')}
      fields={['name']}
      onClose={() => {
        setTested(null);
        onClose();
      }}
    >
      <Form.Item name="name" label={t('forward.form.name')} rules={[required('forward.form.nameRequired'), tooLong(50)]}>
        <Input data-testid="forward-name" />
      </Form.Item>
      <Form.Item name="description" label={t('forward.form.description')} rules={[tooLong(256)]}>
        <Input />
      </Form.Item>
      <Form.Item name="device_scope" label={t('forward.form.scope')}>
        <Radio.Group
          options={(['all', 'group', 'labels'] as const).map((v) => ({ value: v, label: t(`forward.scope.${v}`) }))}
          optionType="button"
        />
      </Form.Item>
      {scope === 'group' && (
        <Form.Item name="group_id" label={t('forward.form.group')} rules={[{ required: true, message: t('forward.form.groupRequired') }]}>
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            loading={pickers.isLoading}
            options={(pickers.data?.groups ?? []).map((g) => ({ value: g.id, label: g.name }))}
          />
        </Form.Item>
      )}
      {scope === 'labels' && (
        <Form.Item
          name="label_ids"
          label={t('forward.form.labels')}
          rules={[{ required: true, message: t('forward.form.labelsRequired') }]}
        >
          <Select
            mode="multiple"
            showSearch={{ optionFilterProp: 'label' }}
            loading={pickers.isLoading}
            options={(pickers.data?.labels ?? []).map((l) => ({ value: l.id, label: l.label }))}
          />
        </Form.Item>
      )}
      <Form.Item name="data_kinds" label={t('forward.form.kinds')} rules={[{ required: true, message: t('forward.form.kindsRequired') }]}>
        <Checkbox.Group
          options={FORWARD_DATA_KINDS.map((k) => ({ value: k, label: t(`forward.kind.${k}`) }))}
          data-testid="forward-kinds"
        />
      </Form.Item>
      <Divider titlePlacement="start" plain>
        {t('forward.form.filter')}
      </Divider>
      <Form.Item name="channels" label={t('forward.form.channels')}>
        <Select mode="tags" tokenSeparators={[',', ' ']} options={[0, 1, 2, 3].map((c) => ({ value: String(c), label: `CAN${c}` }))} />
      </Form.Item>
      <Form.Item name="frame_ids" label={t('forward.form.frameIds')}>
        <Select mode="tags" tokenSeparators={[',', ' ']} open={false} />
      </Form.Item>
      <Form.Item name="signals" label={t('forward.form.signals')}>
        <Select mode="tags" tokenSeparators={[',', ' ']} open={false} />
      </Form.Item>
      <Form.Item name="transform_plugin_id" label={t('forward.form.transform')} extra={t('forward.form.transformHelp')}>
        <Select
          allowClear
          data-testid="forward-transform"
          loading={pickers.isLoading}
          options={(pickers.data?.plugins ?? []).map((p) => ({ value: p.id, label: p.name }))}
        />
      </Form.Item>
      <Divider titlePlacement="start" plain>
        {t('forward.form.destination')}
      </Divider>
      <Form.Item name={['dest', 'kind']} label={t('forward.form.kind')}>
        <Select
          data-testid="forward-kind"
          options={FORWARD_DESTINATION_KINDS.map((k) => ({ value: k, label: k.toUpperCase() }))}
          onChange={(k: Kind) => {
            form.setFieldValue('dest', { kind: k, ...DEFAULTS[k] });
            setTested(null);
          }}
        />
      </Form.Item>
      {kind === 'http' && (
        <>
          {url}
          <Form.Item name={['dest', 'headers']} label={t('forward.form.headers')} extra={secretHelp}>
            <Input.TextArea rows={2} placeholder="Authorization: Bearer …" />
          </Form.Item>
          <Form.Item name={['dest', 'secret']} label={t('forward.form.secret')} extra={secretHelp}>
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        </>
      )}
      {kind === 'mqtt' && (
        <>
          {url}
          {tmpl('topic', t('forward.form.topic'))}
          <Form.Item name={['dest', 'qos']} label={t('forward.form.qos')}>
            <Radio.Group options={[0, 1, 2].map((q) => ({ value: q, label: String(q) }))} optionType="button" />
          </Form.Item>
          {username}
          {password}
        </>
      )}
      {kind === 'amqp' && (
        <>
          {url}
          <Form.Item name={['dest', 'exchange']} label={t('forward.form.exchange')}>
            <Input />
          </Form.Item>
          {tmpl('routing_key', t('forward.form.routingKey'))}
          {password}
        </>
      )}
      {kind === 'nats' && (
        <>
          {url}
          {tmpl('subject', t('forward.form.subject'))}
          {username}
          {password}
        </>
      )}
      {kind === 'redis' && (
        <>
          {url}
          {tmpl('stream', t('forward.form.stream'))}
          {password}
        </>
      )}
      {kind === 'postgres' && (
        <>
          {url}
          <Form.Item name={['dest', 'table']} label={t('forward.form.table')} rules={[required('forward.form.urlRequired')]}>
            <Input />
          </Form.Item>
          {password}
        </>
      )}
      {kind === 'kafka' && (
        <>
          <Form.Item name={['dest', 'brokers']} label={t('forward.form.brokers')} rules={[required('forward.form.urlRequired')]}>
            <Input placeholder="kafka1:9092, kafka2:9092" />
          </Form.Item>
          {tmpl('topic', t('forward.form.topic'))}
          {username}
          {password}
        </>
      )}
      <Form.Item>
        <Button onClick={runTest} loading={testing} data-testid="forward-test">
          {t('forward.form.test')}
        </Button>
      </Form.Item>
      {tested && <Alert type={tested.ok ? 'success' : 'error'} showIcon title={tested.text} data-testid="forward-test-result" />}
    </FormModal>
  );
}
