import {
  STATISTICS_METHOD_INFO,
  STATISTICS_METHODS,
  type StatisticsMethod,
  type StatisticsTask,
} from '@loggerhead/contract/schemas/statistics.ts';
import { useQuery } from '@tanstack/react-query';
import { Form, Input, InputNumber, Radio, Select, Switch } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/form-modal.tsx';
import { type StatisticsTaskBody, statisticsApi, statisticsKeys } from '../api/statistics.api.ts';

interface Values {
  name: string;
  method: StatisticsMethod;
  things_ids: string[];
  signals: string[];
  period: 'hour' | 'day';
  utc_offset: number;
  percentile?: number;
  threshold?: number;
  max_gap_s?: number;
  enabled: boolean;
}

const SIGNAL = /^([^.\s]+)\.([^.\s]+)$/;

function initialOf(r: StatisticsTask | null): Values {
  if (!r)
    return {
      name: '',
      method: 'mean',
      things_ids: [],
      signals: [],
      period: 'day',
      utc_offset: -new Date().getTimezoneOffset(),
      enabled: true,
    };
  return {
    name: r.name,
    method: r.method,
    things_ids: r.things_ids,
    signals: r.signals.map((s) => `${s.message}.${s.signal}`),
    period: r.period,
    utc_offset: r.utc_offset,
    percentile: r.params.percentile,
    threshold: r.params.threshold,
    max_gap_s: r.params.max_gap_s,
    enabled: r.status === 1,
  };
}

function bodyOf(v: Values): StatisticsTaskBody {
  const uses = STATISTICS_METHOD_INFO[v.method].params as string[];
  const params: StatisticsTaskBody['params'] = {};
  if (uses.includes('percentile') && v.percentile !== undefined && v.percentile !== null) params.percentile = v.percentile;
  if (uses.includes('threshold') && v.threshold !== undefined && v.threshold !== null) params.threshold = v.threshold;
  if (uses.includes('max_gap_s') && v.max_gap_s !== undefined && v.max_gap_s !== null) params.max_gap_s = v.max_gap_s;
  return {
    name: v.name.trim(),
    method: v.method,
    params,
    things_ids: v.things_ids,
    signals:
      STATISTICS_METHOD_INFO[v.method].source === 'gps'
        ? []
        : v.signals.map((s) => {
            const m = SIGNAL.exec(s.trim()) as RegExpExecArray;
            return { message: m[1], signal: m[2] };
          }),
    period: v.period,
    utc_offset: v.utc_offset,
    status: v.enabled ? 1 : 0,
  };
}

/** Adds or edits a statistics task: its method and parameters, devices, signals and window. */
export function StatisticsTaskDialog({
  tenantId,
  record,
  open,
  onClose,
}: {
  tenantId: string;
  record: StatisticsTask | null;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const method = Form.useWatch('method', form) ?? 'mean';
  const [keyword, setKeyword] = useState<string | undefined>();
  const devices = useQuery({
    queryKey: statisticsKeys.devices(tenantId, keyword),
    queryFn: ({ signal }) => statisticsApi.devices(tenantId, keyword, signal),
    enabled: open,
  });
  const info = STATISTICS_METHOD_INFO[method];
  const required = [{ required: true, message: t('statistics.form.required') }];

  return (
    <FormModal<Values>
      open={open}
      title={t(record ? 'statistics.form.editTitle' : 'statistics.form.addTitle')}
      form={form}
      record={record}
      initial={initialOf(record)}
      submit={(v) => (record ? statisticsApi.update(tenantId, record.id, bodyOf(v)) : statisticsApi.create(tenantId, bodyOf(v)))}
      invalidate={statisticsKeys.all}
      savedText={t('statistics.form.saved')}
      fields={['name', 'signals', 'things_ids']}
      onClose={onClose}
      name="statistics-task"
      width={620}
    >
      <Form.Item name="name" label={t('statistics.form.name')} rules={required}>
        <Input maxLength={64} />
      </Form.Item>
      <Form.Item name="method" label={t('statistics.form.method')} rules={required}>
        <Select options={STATISTICS_METHODS.map((m) => ({ value: m, label: t(`statistics.method.${m}`) }))} />
      </Form.Item>
      {info.params.includes('percentile') && (
        <Form.Item name="percentile" label={t('statistics.form.percentile')} rules={required}>
          <InputNumber min={0} max={100} style={{ width: 160 }} />
        </Form.Item>
      )}
      {info.params.includes('threshold') && (
        <Form.Item name="threshold" label={t('statistics.form.threshold')}>
          <InputNumber placeholder="0" style={{ width: 160 }} />
        </Form.Item>
      )}
      {info.params.includes('max_gap_s') && (
        <Form.Item name="max_gap_s" label={t('statistics.form.maxGap')}>
          <InputNumber min={1} max={86400} placeholder="60" style={{ width: 160 }} />
        </Form.Item>
      )}
      <Form.Item name="things_ids" label={t('statistics.form.devices')} rules={required}>
        <Select
          mode="multiple"
          showSearch
          filterOption={false}
          placeholder={t('statistics.form.devicesSearch')}
          onSearch={(v) => setKeyword(v.trim() || undefined)}
          loading={devices.isFetching}
          options={(devices.data?.list ?? []).map((d) => ({ value: d.id, label: `${d.name} (${d.third_things_id})` }))}
          data-testid="statistics-devices"
        />
      </Form.Item>
      {info.source === 'signal' && (
        <Form.Item
          name="signals"
          label={t('statistics.form.signals')}
          extra={t('statistics.form.signalsHelp')}
          rules={[
            ...required,
            {
              validator: (_r, v: string[] | undefined) =>
                (v ?? []).every((s) => SIGNAL.test(s.trim()))
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('statistics.form.signalsBad'))),
            },
          ]}
        >
          <Select mode="tags" tokenSeparators={[',', ' ']} open={false} data-testid="statistics-signals" />
        </Form.Item>
      )}
      <Form.Item name="period" label={t('statistics.form.period')}>
        <Radio.Group
          options={[
            { value: 'hour', label: t('statistics.period.hour') },
            { value: 'day', label: t('statistics.period.day') },
          ]}
        />
      </Form.Item>
      <Form.Item name="utc_offset" label={t('statistics.form.utcOffset')} extra={t('statistics.form.utcOffsetHelp')}>
        <InputNumber min={-720} max={840} style={{ width: 160 }} />
      </Form.Item>
      <Form.Item name="enabled" label={t('statistics.form.status')} valuePropName="checked">
        <Switch />
      </Form.Item>
    </FormModal>
  );
}
