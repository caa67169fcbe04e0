import { HMI_BOUND_TYPES, type HmiAction, type HmiBinding, type HmiWidget } from '@loggerhead/contract/schemas/hmi.ts';
import { useQuery } from '@tanstack/react-query';
import { Button, Divider, Form, Input, InputNumber, Radio, Select, Space, Tag } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { bindingsQuery, dbcMessagesQuery, strategyQuery } from '../../../api/dbc.queries.ts';
import { deviceListQuery } from '../../../api/things.queries.ts';
import { hmiApi, hmiKeys } from '../api/hmi.api.ts';

/** A device picker searching the tenant's devices by name or ID. */
function DevicePicker({
  tenantId,
  value,
  onChange,
  testId,
}: {
  tenantId: string;
  value: string | undefined;
  onChange: (id: string) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const devices = useQuery(deviceListQuery(tenantId, { current_page: 1, page_size: 50, keyword: keyword || undefined }));
  const options = (devices.data?.list ?? []).map((d) => ({ value: d.id, label: `${d.name} (${d.third_things_id})` }));
  if (value && !options.some((o) => o.value === value)) options.unshift({ value, label: value });
  return (
    <Select
      showSearch
      filterOption={false}
      onSearch={setKeyword}
      value={value}
      onChange={onChange}
      options={options}
      loading={devices.isFetching}
      placeholder={t('hmi.panel.device')}
      data-testid={testId}
      style={{ width: '100%' }}
    />
  );
}

/** The signals a channel's binding decodes: its strategy's, or every signal of its DBC file. */
function useBoundSignals(tenantId: string, thingsId: string | undefined, channel: number | undefined) {
  const bindings = useQuery({ ...bindingsQuery(tenantId, thingsId ?? ''), enabled: Boolean(thingsId) });
  const binding = bindings.data?.find((b) => b.channel === channel);
  const messages = useQuery(dbcMessagesQuery(tenantId, binding?.dbc_id ?? null));
  const strategy = useQuery(strategyQuery(tenantId, binding?.strategy_id ?? null));
  const signals = useMemo(() => {
    const kept = binding?.strategy_id ? new Set((strategy.data?.signals ?? []).map((s) => `${s.message}.${s.signal}`)) : null;
    return (messages.data ?? []).flatMap((m) =>
      m.signals.map((s) => ({ ref: `${m.name}.${s.name}`, unit: s.unit, min: s.min, max: s.max })).filter((s) => !kept || kept.has(s.ref)),
    );
  }, [messages.data, strategy.data, binding?.strategy_id]);
  return { channels: (bindings.data ?? []).map((b) => b.channel), signals };
}

/** A JSON object typed in a text box: kept as text until it parses. */
function JsonObjectInput({
  value,
  onChange,
  testId,
}: {
  value: Record<string, unknown>;
  onChange: (v: Record<string, unknown>) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(() => JSON.stringify(value, null, 1));
  const [bad, setBad] = useState(false);
  useEffect(() => setText(JSON.stringify(value, null, 1)), [value]);
  return (
    <Form.Item validateStatus={bad ? 'error' : undefined} help={bad ? t('hmi.panel.badJson') : undefined} style={{ marginBottom: 0 }}>
      <Input.TextArea
        value={text}
        autoSize={{ minRows: 2, maxRows: 8 }}
        data-testid={testId}
        onChange={(e) => setText(e.target.value)}
        onBlur={() => {
          try {
            const v = JSON.parse(text || '{}');
            if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('not an object');
            setBad(false);
            onChange(v);
          } catch {
            setBad(true);
          }
        }}
      />
    </Form.Item>
  );
}

function BindingFields({ tenantId, w, onChange }: { tenantId: string; w: HmiWidget; onChange: (p: Partial<HmiWidget>) => void }) {
  const { t } = useTranslation();
  const b = w.binding;
  const source = b?.source ?? 'signal';
  const thingsId = b?.things_id;
  const channel = b?.source === 'signal' ? b.channel : undefined;
  const bound = useBoundSignals(tenantId, source === 'signal' ? thingsId : undefined, channel);
  const twin = useQuery({
    queryKey: hmiKeys.twin(tenantId, thingsId ?? ''),
    queryFn: ({ signal }) => hmiApi.twin(tenantId, thingsId as string, signal),
    enabled: source === 'property' && Boolean(thingsId),
    meta: { silent: true },
  });
  const set = (next: HmiBinding) => onChange({ binding: next });
  return (
    <>
      <Form.Item label={t('hmi.panel.device')}>
        <DevicePicker
          tenantId={tenantId}
          value={thingsId}
          testId="hmi-binding-device"
          onChange={(id) =>
            set(
              source === 'signal' ? { source, things_id: id, channel: 0, signal: '' } : { source: 'property', things_id: id, property: '' },
            )
          }
        />
      </Form.Item>
      <Form.Item label={t('hmi.panel.source')}>
        <Radio.Group
          value={source}
          optionType="button"
          onChange={(e) =>
            thingsId &&
            set(
              e.target.value === 'signal'
                ? { source: 'signal', things_id: thingsId, channel: 0, signal: '' }
                : { source: 'property', things_id: thingsId, property: '' },
            )
          }
          options={[
            { value: 'signal', label: t('hmi.panel.sourceSignal') },
            { value: 'property', label: t('hmi.panel.sourceProperty') },
          ]}
        />
      </Form.Item>
      {b?.source === 'signal' && (
        <Space.Compact style={{ width: '100%', marginBottom: 16 }}>
          <Select
            style={{ width: 100 }}
            value={b.channel}
            onChange={(c) => set({ ...b, channel: c, signal: '' })}
            options={(bound.channels.length ? bound.channels : [b.channel]).map((c) => ({ value: c, label: `CAN${c}` }))}
            aria-label={t('hmi.panel.channel')}
            data-testid="hmi-binding-channel"
          />
          <Select
            showSearch
            style={{ flex: 1 }}
            value={b.signal || undefined}
            placeholder={t('hmi.panel.signal')}
            notFoundContent={t('hmi.panel.noSignals')}
            onChange={(ref) => {
              const s = bound.signals.find((x) => x.ref === ref);
              const scale = w.type === 'gauge' && s && s.max > s.min && w.min === 0 && w.max === 100 ? { min: s.min, max: s.max } : {};
              onChange({ binding: { ...b, signal: ref }, ...(s?.unit && !w.unit ? { unit: s.unit } : {}), ...scale });
            }}
            options={bound.signals.map((s) => ({ value: s.ref, label: s.unit ? `${s.ref} (${s.unit})` : s.ref }))}
            data-testid="hmi-binding-signal"
          />
        </Space.Compact>
      )}
      {b?.source === 'property' && (
        <Form.Item label={t('hmi.panel.property')}>
          <Select
            showSearch
            value={b.property || undefined}
            onChange={(p) => set({ ...b, property: p })}
            options={(twin.data?.properties ?? []).map((p) => ({ value: p.path, label: `${p.name} (${p.path})` }))}
            data-testid="hmi-binding-property"
          />
        </Form.Item>
      )}
    </>
  );
}

function ActionFields({ tenantId, w, onChange }: { tenantId: string; w: HmiWidget; onChange: (p: Partial<HmiWidget>) => void }) {
  const { t } = useTranslation();
  const a = w.action;
  const kind = a?.kind ?? 'command';
  const set = (next: HmiAction) => onChange({ action: next });
  return (
    <>
      <Form.Item label={t('hmi.panel.actionKind')}>
        <Radio.Group
          value={kind}
          optionType="button"
          onChange={(e) =>
            a &&
            set(
              e.target.value === 'command'
                ? { kind: 'command', things_id: a.things_id, operation_name: '', operation_params: {} }
                : { kind: 'twin', things_id: a.things_id, desired: {} },
            )
          }
          options={[
            { value: 'command', label: t('hmi.panel.actionCommand') },
            { value: 'twin', label: t('hmi.panel.actionTwin') },
          ]}
        />
      </Form.Item>
      <Form.Item label={t('hmi.panel.device')}>
        <DevicePicker
          tenantId={tenantId}
          value={a?.things_id}
          testId="hmi-action-device"
          onChange={(id) =>
            set(
              a ? { ...a, things_id: id } : { kind: 'command', things_id: id, operation_name: 'common_fn.send_can', operation_params: {} },
            )
          }
        />
      </Form.Item>
      {a?.kind === 'command' && (
        <>
          <Form.Item label={t('hmi.panel.operation')}>
            <Input
              value={a.operation_name}
              onChange={(e) => set({ ...a, operation_name: e.target.value })}
              data-testid="hmi-action-operation"
            />
          </Form.Item>
          <Form.Item label={t('hmi.panel.params')}>
            <JsonObjectInput value={a.operation_params} onChange={(v) => set({ ...a, operation_params: v })} testId="hmi-action-params" />
          </Form.Item>
        </>
      )}
      {a?.kind === 'twin' && (
        <Form.Item label={t('hmi.panel.desired')}>
          <JsonObjectInput value={a.desired} onChange={(v) => set({ ...a, desired: v })} testId="hmi-action-desired" />
        </Form.Item>
      )}
    </>
  );
}

/** The selected widget's settings: label, cells, binding, scale, threshold, action, text or picture. */
export function WidgetPanel({
  tenantId,
  w,
  onChange,
  onRemove,
}: {
  tenantId: string;
  w: HmiWidget;
  onChange: (p: Partial<HmiWidget>) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const num = (v: number | null) => (v === null ? undefined : v);
  return (
    <Form layout="vertical" size="small" data-testid="hmi-widget-panel">
      <Space style={{ marginBottom: 8 }}>
        <Tag color="blue">{t(`hmi.type.${w.type}`)}</Tag>
        <Tag>{w.id}</Tag>
      </Space>
      <Form.Item label={t('hmi.panel.label')}>
        <Input value={w.label} maxLength={64} onChange={(e) => onChange({ label: e.target.value })} data-testid="hmi-widget-label" />
      </Form.Item>
      <Space wrap size={4} style={{ marginBottom: 12 }}>
        {(['x', 'y', 'w', 'h'] as const).map((k) => (
          <InputNumber
            key={k}
            addonBefore={k}
            size="small"
            min={k === 'w' || k === 'h' ? 1 : 0}
            value={w[k]}
            onChange={(v) => v !== null && onChange({ [k]: v })}
            style={{ width: 136 }}
          />
        ))}
      </Space>
      {HMI_BOUND_TYPES.includes(w.type) && (
        <>
          <Divider plain>{t('hmi.panel.binding')}</Divider>
          <BindingFields tenantId={tenantId} w={w} onChange={onChange} />
          <Space>
            <Form.Item label={t('hmi.panel.unit')}>
              <Input
                value={w.unit}
                maxLength={16}
                onChange={(e) => onChange({ unit: e.target.value || undefined })}
                style={{ width: 90 }}
              />
            </Form.Item>
            <Form.Item label={t('hmi.panel.decimals')}>
              <InputNumber min={0} max={6} value={w.decimals} onChange={(v) => onChange({ decimals: num(v) })} />
            </Form.Item>
          </Space>
        </>
      )}
      {w.type === 'gauge' && (
        <Space>
          <Form.Item label={t('hmi.panel.min')}>
            <InputNumber value={w.min} onChange={(v) => onChange({ min: num(v) })} data-testid="hmi-gauge-min" />
          </Form.Item>
          <Form.Item label={t('hmi.panel.max')}>
            <InputNumber value={w.max} onChange={(v) => onChange({ max: num(v) })} data-testid="hmi-gauge-max" />
          </Form.Item>
        </Space>
      )}
      {w.type === 'lamp' && (
        <Form.Item label={t('hmi.panel.threshold')}>
          <InputNumber value={w.threshold} onChange={(v) => onChange({ threshold: num(v) })} />
        </Form.Item>
      )}
      {w.type === 'button' && (
        <>
          <Divider plain>{t('hmi.panel.action')}</Divider>
          <ActionFields tenantId={tenantId} w={w} onChange={onChange} />
        </>
      )}
      {w.type === 'text' && (
        <Form.Item label={t('hmi.panel.text')}>
          <Input.TextArea value={w.text} maxLength={2000} autoSize={{ minRows: 2 }} onChange={(e) => onChange({ text: e.target.value })} />
        </Form.Item>
      )}
      {w.type === 'image' && (
        <Form.Item label={t('hmi.panel.imageUrl')} extra={t('hmi.panel.imageHelp')}>
          <Input value={w.image_url} onChange={(e) => onChange({ image_url: e.target.value.trim() || undefined })} />
        </Form.Item>
      )}
      <Button danger block onClick={onRemove} data-testid="hmi-widget-remove">
        {t('hmi.panel.remove')}
      </Button>
    </Form>
  );
}
