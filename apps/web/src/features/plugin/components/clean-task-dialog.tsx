import type { CleanTask } from '@loggerhead/contract/schemas/data-service.ts';
import { useQuery } from '@tanstack/react-query';
import { Form, Input, InputNumber, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/form-modal.tsx';
import { dataServiceApi, dataServiceKeys } from '../api/data-service.api.ts';

interface Values {
  name: string;
  things_id: string;
  keep_days: number;
}

interface Props {
  tenantId: string;
  /** null closed, 'new' to add, a task to edit. */
  target: CleanTask | 'new' | null;
  onClose: () => void;
}

/** Adds or edits a clean task: the device and how many days of its data to keep. */
export function CleanTaskDialog({ tenantId, target, onClose }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const editing = target !== null && target !== 'new' ? target : null;
  const open = target !== null;
  const [keyword, setKeyword] = useState<string | undefined>();
  const devices = useQuery({
    queryKey: dataServiceKeys.devices(tenantId, keyword),
    queryFn: ({ signal }) => dataServiceApi.devices(tenantId, keyword, signal),
    enabled: open,
  });
  const options = (devices.data?.list ?? []).map((d) => ({ value: d.id, label: `${d.name} (${d.third_things_id})` }));
  // The task's own device stays named while the picker lists others.
  if (editing && !options.some((o) => o.value === editing.things_id))
    options.unshift({ value: editing.things_id, label: editing.things_name ?? editing.things_id });
  const required = [{ required: true, message: t('plugin.form.required') }];
  const body = (v: Values) => ({ name: v.name.trim(), things_id: v.things_id, keep_days: v.keep_days });

  return (
    <FormModal<Values>
      open={open}
      title={t(editing ? 'plugin.clean.editTitle' : 'plugin.clean.addTitle')}
      form={form}
      record={editing}
      initial={
        editing
          ? { name: editing.name, things_id: editing.things_id, keep_days: editing.keep_days }
          : { name: '', things_id: '', keep_days: 90 }
      }
      submit={(v) =>
        editing ? dataServiceApi.updateCleanTask(tenantId, editing.id, body(v)) : dataServiceApi.createCleanTask(tenantId, body(v))
      }
      invalidate={dataServiceKeys.cleanTasks}
      savedText={t('plugin.clean.saved')}
      fields={['name', 'things_id', 'keep_days']}
      onClose={onClose}
      name="clean-task"
      width={520}
    >
      <Form.Item name="name" label={t('plugin.clean.name')} rules={[...required, { whitespace: true, message: t('plugin.form.required') }]}>
        <Input maxLength={64} data-testid="clean-name" />
      </Form.Item>
      <Form.Item name="things_id" label={t('plugin.clean.device')} rules={required}>
        <Select
          showSearch
          filterOption={false}
          placeholder={t('plugin.form.devicesSearch')}
          onSearch={(v) => setKeyword(v.trim() || undefined)}
          loading={devices.isFetching}
          options={options}
          data-testid="clean-device"
        />
      </Form.Item>
      <Form.Item name="keep_days" label={t('plugin.clean.keepDays')} extra={t('plugin.clean.keepDaysHelp')} rules={required}>
        <InputNumber
          min={1}
          max={3650}
          precision={0}
          style={{ width: 160 }}
          addonAfter={t('plugin.clean.days')}
          data-testid="clean-keep-days"
        />
      </Form.Item>
    </FormModal>
  );
}
