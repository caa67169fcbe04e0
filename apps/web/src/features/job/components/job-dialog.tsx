import type { Job } from '@loggerhead/contract/schemas/jobs.ts';
import { useQuery } from '@tanstack/react-query';
import { DatePicker, Form, Input, InputNumber, Radio, Select, Space, Switch } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/form-modal.tsx';
import { type JobBody, jobApi, jobKeys } from '../api/job.api.ts';

interface Values {
  name: string;
  execution_method: 0 | 1;
  cron_expression: string;
  start_time: Dayjs | null;
  end_time: Dayjs | null;
  retry_times: number;
  retry_period: number;
  handler_action_id: 'device-command' | 'group-command';
  things_ids: string[];
  group_id?: string;
  operation_name: string;
  operation_params: string;
  status: boolean;
}

const BLANK: Values = {
  name: '',
  execution_method: 0,
  cron_expression: '0 * * * *',
  start_time: null,
  end_time: null,
  retry_times: 0,
  retry_period: 60,
  handler_action_id: 'device-command',
  things_ids: [],
  operation_name: '',
  operation_params: '{}',
  status: true,
};

function toValues(j: Job): Values {
  const p = j.handler_custom_param as Record<string, unknown>;
  return {
    name: j.name,
    execution_method: j.execution_method,
    cron_expression: j.cron_expression,
    start_time: j.start_time === null ? null : dayjs(j.start_time),
    end_time: j.end_time === null ? null : dayjs(j.end_time),
    retry_times: j.retry_times,
    retry_period: j.retry_period,
    handler_action_id: j.handler_action_id,
    things_ids: (p.things_ids as string[] | undefined) ?? [],
    group_id: p.group_id as string | undefined,
    operation_name: String(p.operation_name ?? ''),
    operation_params: JSON.stringify(p.operation_params ?? {}, null, 2),
    status: j.status === 1,
  };
}

function toBody(v: Values): JobBody {
  const params = JSON.parse(v.operation_params || '{}') as Record<string, unknown>;
  const common = { operation_name: v.operation_name.trim(), operation_params: params };
  return {
    name: v.name.trim(),
    execution_method: v.execution_method,
    // A job that runs once still carries an expression (the contract's shape); it is not used.
    cron_expression: v.cron_expression.trim() || '0 * * * *',
    start_time: v.start_time ? v.start_time.valueOf() : null,
    end_time: v.end_time ? v.end_time.valueOf() : null,
    retry_times: v.retry_times,
    retry_period: v.retry_period,
    handler_action_id: v.handler_action_id,
    handler_custom_param:
      v.handler_action_id === 'group-command' ? { group_id: v.group_id, ...common } : { things_ids: v.things_ids, ...common },
    status: v.status ? 1 : 0,
  };
}

/** Adds or edits a scheduled job: when it runs (cron in UTC, or once), what it does, its retries. */
export function JobDialog({ tenantId, job, open, onClose }: { tenantId: string; job: Job | null; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const method = Form.useWatch('execution_method', form);
  const action = Form.useWatch('handler_action_id', form);
  const actions = useQuery({
    queryKey: jobKeys.actions(),
    queryFn: ({ signal }) => jobApi.actions(signal),
    enabled: open,
    staleTime: 600_000,
  });
  const devices = useQuery({
    queryKey: jobKeys.devices(tenantId),
    queryFn: ({ signal }) => jobApi.devices(tenantId, signal),
    enabled: open,
    staleTime: 60_000,
    meta: { silent: true },
  });
  const groups = useQuery({
    queryKey: [...jobKeys.all, 'groups', tenantId],
    queryFn: ({ signal }) => jobApi.groups(tenantId, signal),
    enabled: open && action === 'group-command',
    staleTime: 60_000,
    meta: { silent: true },
  });
  return (
    <FormModal<Values>
      open={open}
      title={job ? t('job.dialog.edit') : t('job.dialog.new')}
      form={form}
      record={job}
      initial={job ? toValues(job) : BLANK}
      submit={(v) => (job ? jobApi.update(tenantId, job.id, toBody(v)) : jobApi.create(tenantId, toBody(v)))}
      invalidate={jobKeys.all}
      savedText={t('job.dialog.saved')}
      fields={['name', 'cron_expression', 'start_time', 'end_time']}
      onClose={onClose}
      name="job"
      width={680}
    >
      <Form.Item name="name" label={t('job.field.name')} rules={[{ required: true, max: 64 }]}>
        <Input maxLength={64} />
      </Form.Item>
      <Form.Item name="execution_method" label={t('job.field.execution_method')}>
        <Radio.Group>
          <Radio value={0}>{t('job.method.0')}</Radio>
          <Radio value={1}>{t('job.method.1')}</Radio>
        </Radio.Group>
      </Form.Item>
      {method !== 1 && (
        <Form.Item
          name="cron_expression"
          label={t('job.field.cron_expression')}
          extra={t('job.field.cronHelp')}
          rules={[{ required: true, pattern: /^\S+(\s+\S+){4}$/ }]}
        >
          <Input style={{ fontFamily: 'monospace' }} />
        </Form.Item>
      )}
      <Space size="large">
        <Form.Item name="start_time" label={t('job.field.start_time')} rules={[{ required: method === 1 }]}>
          <DatePicker showTime />
        </Form.Item>
        <Form.Item name="end_time" label={t('job.field.end_time')}>
          <DatePicker showTime />
        </Form.Item>
      </Space>
      <Form.Item name="handler_action_id" label={t('job.field.handler_action_id')} rules={[{ required: true }]}>
        <Select options={(actions.data ?? []).map((a) => ({ value: a.id, label: t(`job.actionName.${a.id}`), title: a.description }))} />
      </Form.Item>
      {action === 'group-command' ? (
        <Form.Item name="group_id" label={t('job.field.group_id')} rules={[{ required: true }]}>
          <Select
            showSearch
            optionFilterProp="label"
            loading={groups.isFetching}
            options={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))}
          />
        </Form.Item>
      ) : (
        <Form.Item name="things_ids" label={t('job.field.things_ids')} rules={[{ required: true, type: 'array', min: 1, max: 100 }]}>
          <Select
            mode="multiple"
            showSearch
            optionFilterProp="label"
            loading={devices.isFetching}
            options={(devices.data ?? []).map((d) => ({ value: d.id, label: `${d.name} (${d.third_things_id})` }))}
          />
        </Form.Item>
      )}
      <Form.Item name="operation_name" label={t('job.field.operation_name')} rules={[{ required: true, max: 128 }]}>
        <Input placeholder="common_fn.send_can" />
      </Form.Item>
      <Form.Item
        name="operation_params"
        label={t('job.field.operation_params')}
        rules={[
          {
            validator: (_r, v: string) => {
              try {
                const o = JSON.parse(v || '{}');
                if (o && typeof o === 'object' && !Array.isArray(o)) return Promise.resolve();
              } catch {
                // falls through to the refusal
              }
              return Promise.reject(new Error(t('job.field.paramsInvalid')));
            },
          },
        ]}
      >
        <Input.TextArea rows={3} style={{ fontFamily: 'monospace' }} />
      </Form.Item>
      <Space size="large">
        <Form.Item name="retry_times" label={t('job.field.retry_times')}>
          <InputNumber min={0} max={10} precision={0} />
        </Form.Item>
        <Form.Item name="retry_period" label={t('job.field.retry_period')}>
          <InputNumber min={1} max={3600} precision={0} />
        </Form.Item>
        <Form.Item name="status" label={t('job.field.status')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Space>
    </FormModal>
  );
}
