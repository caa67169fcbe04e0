import {
  MAX_PANEL_SIGNALS,
  PANEL_CHART_TYPES,
  PANEL_DESCRIPTION_MAX,
  PANEL_NAME_MAX,
  PANEL_WINDOWS,
  type Panel,
  type PanelBody,
  type PanelChartType,
  type PanelWindow,
} from '@loggerhead/contract/schemas/dashboard.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Form, Input, Modal, Radio, Select, Tag } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { bindingsQuery, dbcMessagesQuery, strategyQuery } from '../../../api/dbc.queries.ts';
import { deviceListQuery } from '../../../api/things.queries.ts';
import { useServerErrors } from '../../../components/widgets/use-server-errors.ts';
import { dashboardApi } from '../api/dashboard.api.ts';
import { dashboardKeys } from '../api/dashboard.queries.ts';
import { descriptionProblem, panelNameProblem, signalsProblem } from '../lib/panels.ts';

interface Values {
  name: string;
  description?: string;
  chart_type: PanelChartType;
  x_axis_type: PanelWindow;
  things_id?: string;
  channel?: number;
  signals: string[];
}

const FIELDS = ['name', 'description', 'chart_type', 'x_axis_type', 'things_id', 'channel', 'signals'] as const;

/** The signals a channel's binding decodes: the strategy's, or every signal of the DBC file. */
function useBoundSignals(tenantId: string, thingsId: string | undefined, channel: number | undefined) {
  const bindings = useQuery({ ...bindingsQuery(tenantId, thingsId ?? ''), enabled: Boolean(thingsId) });
  const binding = bindings.data?.find((b) => b.channel === channel);
  const messages = useQuery(dbcMessagesQuery(tenantId, binding?.dbc_id ?? null));
  const strategy = useQuery(strategyQuery(tenantId, binding?.strategy_id ?? null));
  const options = useMemo(() => {
    const kept = binding?.strategy_id ? new Set((strategy.data?.signals ?? []).map((s) => `${s.message}.${s.signal}`)) : null;
    return (messages.data ?? []).flatMap((m) =>
      m.signals
        .map((s) => ({ ref: `${m.name}.${s.name}`, unit: s.unit }))
        .filter((s) => !kept || kept.has(s.ref))
        .map((s) => ({ value: s.ref, label: s.ref, title: s.ref, unit: s.unit })),
    );
  }, [messages.data, strategy.data, binding?.strategy_id]);
  return {
    bindings: bindings.data,
    bindingsLoading: bindings.isFetching,
    options,
    signalsLoading: messages.isFetching || strategy.isFetching,
  };
}

/** Add or change a panel: name, description, chart type, window, device, bound channel, signals of its DBC. */
export function PanelDialog({
  tenantId,
  dashboardId,
  target,
  onClose,
}: {
  tenantId: string;
  dashboardId: string;
  target: Panel | 'new' | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<Values>();
  const errors = useServerErrors();
  const editing = target && target !== 'new' ? target : null;
  const open = Boolean(target);
  const chart = Form.useWatch('chart_type', form) ?? 'line';
  const thingsId = Form.useWatch('things_id', form);
  const channel = Form.useWatch('channel', form);
  const [keyword, setKeyword] = useState('');
  const devices = useQuery({
    ...deviceListQuery(tenantId, { current_page: 1, page_size: 50, keyword: keyword || undefined }),
    enabled: open,
  });
  const bound = useBoundSignals(tenantId, thingsId, channel);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    errors.clear();
    setKeyword('');
    form.setFieldsValue(
      editing
        ? {
            name: editing.name,
            description: editing.description,
            chart_type: editing.chart_type,
            x_axis_type: editing.x_axis_type,
            things_id: editing.things_id,
            channel: editing.channel,
            signals: editing.signals.map((s) => `${s.message}.${s.signal}`),
          }
        : { chart_type: 'line', x_axis_type: '1h', signals: [] },
    );
  }, [open, editing, form, errors.clear]);

  // The device of an edited panel stays choosable even when it is not among the first results.
  const deviceOptions = useMemo(() => {
    const list = (devices.data?.list ?? []).map((d) => ({ value: d.id, label: `${d.name} (${d.third_things_id})` }));
    if (editing && !list.some((o) => o.value === editing.things_id)) list.unshift({ value: editing.things_id, label: editing.things_name });
    return list;
  }, [devices.data, editing]);

  const save = useMutation({
    meta: { silent: true },
    mutationFn: (v: Values) => {
      const body: PanelBody = {
        name: v.name.trim(),
        description: v.description?.trim() ?? '',
        chart_type: v.chart_type,
        x_axis_type: v.x_axis_type,
        things_id: v.things_id as string,
        channel: v.channel as number,
        signals: v.signals.map((ref) => {
          const dot = ref.indexOf('.');
          return { message: ref.slice(0, dot), signal: ref.slice(dot + 1) };
        }),
      };
      return editing ? dashboardApi.update(tenantId, dashboardId, editing.id, body) : dashboardApi.create(tenantId, dashboardId, body);
    },
    onSuccess: () => {
      void message.success(t('dashboard.form.saved'));
      void qc.invalidateQueries({ queryKey: dashboardKeys.all });
      onClose();
    },
    onError: (err) => errors.show(form, err, FIELDS),
  });

  const nameMsg = { required: t('dashboard.form.nameRequired'), length: t('dashboard.form.nameLength') };
  const signalsMsg = {
    required: t('dashboard.form.signalsRequired'),
    max: t('dashboard.form.signalsMax', { max: MAX_PANEL_SIGNALS }),
    one: t('dashboard.form.signalsOne'),
  };
  const noChannel = Boolean(thingsId) && bound.bindings !== undefined && bound.bindings.length === 0;

  return (
    <Modal
      open={open}
      width={640}
      title={editing ? t('dashboard.form.editTitle') : t('dashboard.form.addTitle')}
      okText={t('common.action.ok')}
      cancelText={t('common.action.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<Values> form={form} name="dashboard-panel" layout="vertical" onFinish={(v) => save.mutate(v)}>
        <Form.Item
          name="name"
          label={t('dashboard.form.name')}
          required
          rules={[
            {
              validator: (_r, v: string | undefined) => {
                const p = panelNameProblem(v);
                return p ? Promise.reject(new Error(nameMsg[p])) : Promise.resolve();
              },
            },
          ]}
        >
          <Input data-testid="panel-name" count={{ show: true, max: PANEL_NAME_MAX }} />
        </Form.Item>
        <Form.Item
          name="description"
          label={t('dashboard.form.description')}
          rules={[
            {
              validator: (_r, v: string | undefined) =>
                descriptionProblem(v) ? Promise.reject(new Error(t('dashboard.form.descriptionLength'))) : Promise.resolve(),
            },
          ]}
        >
          <Input.TextArea
            data-testid="panel-description"
            showCount
            maxLength={PANEL_DESCRIPTION_MAX}
            autoSize={{ minRows: 1, maxRows: 3 }}
          />
        </Form.Item>
        <div className="lh-dash__form-row">
          <Form.Item name="chart_type" label={t('dashboard.form.chartType')}>
            <Radio.Group
              optionType="button"
              data-testid="panel-chart-type"
              onChange={(e) => {
                // A number or gauge panel keeps the first signal of a line panel's list.
                if (e.target.value !== 'line') form.setFieldValue('signals', (form.getFieldValue('signals') ?? []).slice(0, 1));
              }}
              options={PANEL_CHART_TYPES.map((c) => ({ value: c, label: t(`dashboard.chart.${c}`) }))}
            />
          </Form.Item>
          {chart === 'line' && (
            <Form.Item name="x_axis_type" label={t('dashboard.form.window')}>
              <Select
                data-testid="panel-window"
                style={{ minWidth: 160 }}
                options={PANEL_WINDOWS.map((w) => ({ value: w, label: t(`dashboard.window.${w}`), title: t(`dashboard.window.${w}`) }))}
              />
            </Form.Item>
          )}
        </div>
        <Form.Item
          name="things_id"
          label={t('dashboard.form.device')}
          rules={[{ required: true, message: t('dashboard.form.deviceRequired') }]}
        >
          <Select
            data-testid="panel-device"
            showSearch
            filterOption={false}
            onSearch={setKeyword}
            loading={devices.isFetching}
            placeholder={t('dashboard.form.devicePlaceholder')}
            options={deviceOptions.map((o) => ({ ...o, title: o.label }))}
            onChange={() => form.setFieldsValue({ channel: undefined, signals: [] })}
          />
        </Form.Item>
        <Form.Item
          name="channel"
          label={t('dashboard.form.channel')}
          rules={[{ required: true, message: t('dashboard.form.channelRequired') }]}
          extra={noChannel ? t('dashboard.form.channelNone') : undefined}
        >
          <Select
            data-testid="panel-channel"
            disabled={!thingsId}
            loading={bound.bindingsLoading}
            placeholder={t('dashboard.form.channelPlaceholder')}
            options={(bound.bindings ?? []).map((b) => {
              const label = t('dashboard.form.channelOption', { channel: b.channel, dbc: b.strategy_name ?? b.dbc_name });
              return { value: b.channel, label, title: label };
            })}
            onChange={() => form.setFieldValue('signals', [])}
          />
        </Form.Item>
        <Form.Item
          name="signals"
          label={t('dashboard.form.signals')}
          required
          dependencies={['chart_type']}
          // One signal (a plain select) for number and gauge panels; the form keeps a list either way.
          normalize={(v: string[] | string | undefined) => (Array.isArray(v) ? v : v ? [v] : [])}
          getValueProps={(v: string[] | undefined) => ({ value: chart === 'line' ? (v ?? []) : v?.[0] })}
          rules={[
            {
              validator: (_r, v: string[] | undefined) => {
                const p = signalsProblem(form.getFieldValue('chart_type') ?? 'line', v?.length ?? 0);
                return p ? Promise.reject(new Error(signalsMsg[p])) : Promise.resolve();
              },
            },
          ]}
        >
          <Select
            data-testid="panel-signals"
            mode={chart === 'line' ? 'multiple' : undefined}
            showSearch
            allowClear
            disabled={channel === undefined || channel === null}
            loading={bound.signalsLoading}
            maxCount={chart === 'line' ? MAX_PANEL_SIGNALS : undefined}
            optionFilterProp="label"
            maxTagCount="responsive"
            placeholder={t('dashboard.form.signalsPlaceholder')}
            options={bound.options}
            optionRender={(o) => (
              <span>
                {o.value} {o.data.unit && <Tag bordered={false}>{o.data.unit}</Tag>}
              </span>
            )}
          />
        </Form.Item>
      </Form>
      {errors.general && <Alert type="error" showIcon message={errors.general} />}
    </Modal>
  );
}
