import { EXPORT_FORMATS, type ExportFormat } from '@loggerhead/contract/schemas/data.ts';
import { useMutation } from '@tanstack/react-query';
import { Descriptions, Form, Modal, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { deviceApi, type FramesFilter } from '../api/device.api.ts';
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

/** The export file-format picker of spec §2 (format required, spec §5). */
export function ExportDialog({ open, tenantId, thingsId, filter, onClose, onStarted }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ format: ExportFormat }>();
  const start = useMutation({
    mutationFn: (format: ExportFormat) =>
      deviceApi.createDownload(tenantId, thingsId, {
        format,
        begin_time: filter.begin_time,
        end_time: filter.end_time,
        channels: filter.channels.length ? filter.channels : undefined,
        ids: filter.ids.length ? filter.ids : undefined,
      }),
    onSuccess: (task, format) => onStarted({ id: task.id, format }),
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
      <Form form={form} layout="vertical" name="export-format" onFinish={(v) => start.mutate(v.format)}>
        <Form.Item name="format" label={t('device.export.format')} rules={[{ required: true, message: t('device.export.formatRequired') }]}>
          <Radio.Group style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
            {EXPORT_FORMATS.map((f) => (
              <Radio key={f} value={f} data-testid={`format-${f}`}>
                {t(`device.export.fmt.${f}`)}
              </Radio>
            ))}
          </Radio.Group>
        </Form.Item>
      </Form>
    </Modal>
  );
}
