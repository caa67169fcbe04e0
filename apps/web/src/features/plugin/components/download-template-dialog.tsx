import { EXPORT_FORMATS } from '@loggerhead/contract/schemas/data.ts';
import { type DownloadTemplate, MAX_TEMPLATE_DEVICES } from '@loggerhead/contract/schemas/data-service.ts';
import { useQuery } from '@tanstack/react-query';
import { Form, Input, InputNumber, Radio, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { parseIdList } from '../../../components/data-view/can-text.ts';
import { DateRange } from '../../../components/data-view/date-range.tsx';
import { FormModal } from '../../../components/form-modal.tsx';
import { can } from '../../../session/can.ts';
import { dataServiceApi, dataServiceKeys } from '../api/data-service.api.ts';
import { pluginListQuery } from '../api/plugin.api.ts';
import { bodyOf, initialOf, parseChannels, type TemplateValues } from './template-form.ts';

interface Props {
  tenantId: string;
  /** null closed, 'new' to add, a template to edit. */
  target: DownloadTemplate | 'new' | null;
  onClose: () => void;
}

/** The fixed range as a form control (the form gives it its value). */
function RangeField({ value, onChange }: { value?: [number, number]; onChange?: (range: [number, number]) => void }) {
  const now = Date.now();
  return <DateRange value={value ?? [now - 86_400_000, now]} onChange={(r) => onChange?.(r)} />;
}

/** Adds or edits a download template: its devices, what to export from them, the format and the range. */
export function DownloadTemplateDialog({ tenantId, target, onClose }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<TemplateValues>();
  const editing = target !== null && target !== 'new' ? target : null;
  const open = target !== null;
  const format = Form.useWatch('format', form);
  const mode = Form.useWatch('range_mode', form);
  const [keyword, setKeyword] = useState<string | undefined>();
  const devices = useQuery({
    queryKey: dataServiceKeys.devices(tenantId, keyword),
    queryFn: ({ signal }) => dataServiceApi.devices(tenantId, keyword, signal),
    enabled: open,
  });
  const mayPlugin = can('data-mgmt:plugin:query');
  const plugins = useQuery({
    ...pluginListQuery(tenantId, { current_page: 1, page_size: 100, type: 'export' }),
    enabled: open && format === 'csv' && mayPlugin,
  });
  const required = [{ required: true, message: t('plugin.form.required') }];

  return (
    <FormModal<TemplateValues>
      open={open}
      title={t(editing ? 'plugin.template.editTitle' : 'plugin.template.addTitle')}
      form={form}
      record={editing}
      initial={initialOf(editing, Date.now())}
      submit={(v) =>
        editing ? dataServiceApi.updateTemplate(tenantId, editing.id, bodyOf(v)) : dataServiceApi.createTemplate(tenantId, bodyOf(v))
      }
      invalidate={dataServiceKeys.templates}
      savedText={t('plugin.template.saved')}
      fields={['name', 'things_ids', 'plugin_id', 'last_hours']}
      onClose={onClose}
      name="download-template"
      width={640}
    >
      <Form.Item
        name="name"
        label={t('plugin.template.name')}
        rules={[...required, { whitespace: true, message: t('plugin.form.required') }]}
      >
        <Input maxLength={64} data-testid="template-name" />
      </Form.Item>
      <Form.Item
        name="things_ids"
        label={t('plugin.template.devices')}
        rules={[
          ...required,
          { type: 'array', max: MAX_TEMPLATE_DEVICES, message: t('plugin.template.tooManyDevices', { max: MAX_TEMPLATE_DEVICES }) },
        ]}
      >
        <Select
          mode="multiple"
          showSearch
          filterOption={false}
          placeholder={t('plugin.form.devicesSearch')}
          onSearch={(v) => setKeyword(v.trim() || undefined)}
          loading={devices.isFetching}
          options={(devices.data?.list ?? []).map((d) => ({ value: d.id, label: `${d.name} (${d.third_things_id})` }))}
          data-testid="template-devices"
        />
      </Form.Item>
      <Form.Item name="format" label={t('plugin.template.format')} rules={required}>
        <Select options={EXPORT_FORMATS.map((f) => ({ value: f, label: t(`device.export.fmt.${f}`) }))} data-testid="template-format" />
      </Form.Item>
      {format === 'csv' && mayPlugin && (
        <Form.Item name="plugin_id" label={t('device.export.plugin')} extra={t('device.export.pluginHelp')}>
          <Select
            allowClear
            placeholder={t('device.export.pluginNone')}
            loading={plugins.isFetching}
            options={(plugins.data?.list ?? []).map((p) => ({ value: p.id, label: p.name }))}
            data-testid="template-plugin"
          />
        </Form.Item>
      )}
      <Form.Item
        name="channels"
        label={t('plugin.template.channels')}
        extra={t('plugin.template.channelsHelp')}
        rules={[
          {
            validator: async (_r, v: string) =>
              parseChannels(v) ? undefined : Promise.reject(new Error(t('plugin.template.channelsBad'))),
          },
        ]}
      >
        <Input placeholder="0, 1" data-testid="template-channels" />
      </Form.Item>
      <Form.Item
        name="ids"
        label={t('plugin.template.ids')}
        extra={t('plugin.template.idsHelp')}
        rules={[
          {
            validator: async (_r, v: string) => (parseIdList(v ?? '') ? undefined : Promise.reject(new Error(t('plugin.template.idsBad')))),
          },
        ]}
      >
        <Input placeholder="123, 18FEF100" data-testid="template-ids" />
      </Form.Item>
      <Form.Item name="range_mode" label={t('plugin.template.range')}>
        <Radio.Group
          optionType="button"
          options={[
            { value: 'last', label: t('plugin.template.rangeLast') },
            { value: 'fixed', label: t('plugin.template.rangeFixed') },
          ]}
        />
      </Form.Item>
      {mode === 'fixed' ? (
        <Form.Item name="fixed" rules={required}>
          <RangeField />
        </Form.Item>
      ) : (
        <Form.Item name="last_hours" label={t('plugin.template.lastHours')} rules={required}>
          <InputNumber min={1} max={24 * 366} precision={0} style={{ width: 160 }} data-testid="template-last-hours" />
        </Form.Item>
      )}
    </FormModal>
  );
}
