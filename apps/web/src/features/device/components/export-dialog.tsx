import { EXPORT_FORMATS, type ExportFormat } from '@loggerhead/contract/schemas/data.ts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Descriptions, Form, Modal, Radio, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { can } from '../../../session/can.ts';
import { deviceApi, type FramesFilter } from '../api/device.api.ts';
import { deviceKeys } from '../api/device.queries.ts';
import { idsText } from './frame-filter-bar.tsx';

interface Props {
  open: boolean;
  tenantId: string;
  thingsId: string;
  filter: FramesFilter;
  onClose: () => void;
  /** The export task was created: the progress dialog takes over. */
  onStarted: (task: { id: string; format: ExportFormat }) => void;
}

interface Values {
  format: ExportFormat;
  /** An export plugin writing each CSV row in its own format (decision 0160); none: plain CSV. */
  plugin_id?: string;
}

/** The export file-format picker of spec §2 (format required, spec §5); a CSV export may go through an export plugin. */
export function ExportDialog({ open, tenantId, thingsId, filter, onClose, onStarted }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const format = Form.useWatch('format', form);
  const mayPlugin = can('data-mgmt:plugin:query');
  const plugins = useQuery({
    queryKey: deviceKeys.exportPlugins(tenantId),
    queryFn: ({ signal }) => deviceApi.exportPlugins(tenantId, signal),
    enabled: open && format === 'csv' && mayPlugin,
  });
  const start = useMutation({
    mutationFn: (v: Values) =>
      deviceApi.createDownload(tenantId, thingsId, {
        format: v.format,
        begin_time: filter.begin_time,
        end_time: filter.end_time,
        channels: filter.channels.length ? filter.channels : undefined,
        ids: filter.ids.length ? filter.ids : undefined,
        plugin_id: v.format === 'csv' && v.plugin_id ? v.plugin_id : undefined,
      }),
    onSuccess: (task, v) => onStarted({ id: task.id, format: v.format }),
  });
  const filters = [filter.channels.map((c) => `CAN${c}`).join(', '), idsText(filter.ids)].filter(Boolean).join(' · ');
  return (
    <Modal
      open={open}
      title={t('device.export.title')}
      okText={t('device.export.start')}
      cancelText={t('common.action.cancel')}
      confirmLoading={start.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Descriptions column={1} size="small" style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('device.export.range')}>
          {formatDateTime(filter.begin_time)} ~ {formatDateTime(filter.end_time)}
        </Descriptions.Item>
        <Descriptions.Item label={t('device.export.filters')}>{filters || t('device.export.none')}</Descriptions.Item>
      </Descriptions>
      <Form<Values> form={form} layout="vertical" name="export-format" onFinish={(v) => start.mutate(v)}>
        <Form.Item name="format" label={t('device.export.format')} rules={[{ required: true, message: t('device.export.formatRequired') }]}>
          <Radio.Group style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
            {EXPORT_FORMATS.map((f) => (
              <Radio key={f} value={f} data-testid={`format-${f}`}>
                {t(`device.export.fmt.${f}`)}
              </Radio>
            ))}
          </Radio.Group>
        </Form.Item>
        {format === 'csv' && mayPlugin && (
          <Form.Item name="plugin_id" label={t('device.export.plugin')} extra={t('device.export.pluginHelp')}>
            <Select
              allowClear
              placeholder={t('device.export.pluginNone')}
              loading={plugins.isFetching}
              options={(plugins.data?.list ?? []).map((p) => ({
                value: p.id,
                label: p.file_extension ? `${p.name} (.${p.file_extension})` : p.name,
              }))}
              data-testid="export-plugin"
            />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
