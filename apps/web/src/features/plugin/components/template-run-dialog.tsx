import type { ExportFormat } from '@loggerhead/contract/schemas/data.ts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Flex, List, Modal, Progress, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { reasonText } from '../../../api/error-funnel.ts';
import { EXPORT_EXTENSIONS, phaseOf, statusKey } from '../../../components/data-view/download-status.ts';
import { saveBlob } from '../../../components/data-view/file-download.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { DOWNLOAD_POLL_MS, dataServiceApi, dataServiceKeys } from '../api/data-service.api.ts';

export interface TemplateRun {
  name: string;
  format: ExportFormat;
  begin_time: number;
  end_time: number;
  downloads: { things_id: string; id: string }[];
}

/** One device's export of a run: its progress as the device's export dialog shows it, and its file when done. */
function RunRow({
  tenantId,
  thingsId,
  taskId,
  format,
  label,
}: {
  tenantId: string;
  thingsId: string;
  taskId: string;
  format: ExportFormat;
  label: string;
}) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const progress = useQuery({
    queryKey: dataServiceKeys.export(tenantId, thingsId, taskId),
    queryFn: ({ signal }) => dataServiceApi.exportProgress(tenantId, thingsId, taskId, signal),
    refetchInterval: (q) =>
      q.state.data && phaseOf(q.state.data.status, q.state.data.process_rate) !== 'running' ? false : DOWNLOAD_POLL_MS,
    gcTime: 0,
  });
  const p = progress.data;
  const phase = p ? phaseOf(p.status, p.process_rate) : 'running';
  const fetchFile = useMutation({
    mutationFn: () => dataServiceApi.exportFile(tenantId, thingsId, taskId, `${thingsId}.${EXPORT_EXTENSIONS[format]}`),
    onSuccess: ({ blob, name }) => {
      saveBlob(blob, p?.file_name ?? name);
      void message.success(t('device.progress.downloading'));
    },
  });
  // As the export dialog does: the file is fetched once, when the export is done.
  const fetched = useRef(false);
  const startFetch = fetchFile.mutate;
  useEffect(() => {
    if (phase !== 'done' || fetched.current) return;
    fetched.current = true;
    startFetch();
  }, [phase, startFetch]);

  return (
    <List.Item
      data-testid="template-run-row"
      data-phase={phase}
      actions={[
        <Button
          key="file"
          size="small"
          disabled={phase !== 'done'}
          loading={fetchFile.isPending}
          onClick={() => fetchFile.mutate()}
          data-testid="template-run-download"
        >
          {t('plugin.run.download')}
        </Button>,
      ]}
    >
      <Flex vertical style={{ width: '100%' }} gap={4}>
        <Flex justify="space-between">
          <Typography.Text strong>{label}</Typography.Text>
          <Typography.Text type="secondary" data-testid="template-run-status">
            {t(statusKey(p?.status ?? 1))}
          </Typography.Text>
        </Flex>
        <Progress
          size="small"
          percent={p?.process_rate ?? 0}
          status={phase === 'failed' ? 'exception' : phase === 'done' ? 'success' : phase === 'cancelled' ? 'normal' : 'active'}
        />
        {phase === 'failed' && (
          <Typography.Text type="danger">{reasonText(p?.error, t, (k) => i18n.exists(k)) || t('device.progress.status.7')}</Typography.Text>
        )}
      </Flex>
    </List.Item>
  );
}

/** The exports one run of a template started, one per device, each followed to its file. */
export function TemplateRunDialog({
  tenantId,
  run,
  names,
  onClose,
}: {
  tenantId: string;
  run: TemplateRun | null;
  /** Device names by id, where known. */
  names: ReadonlyMap<string, string>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={run !== null}
      title={t('plugin.run.title', { name: run?.name ?? '' })}
      onCancel={onClose}
      maskClosable={false}
      footer={<Button onClick={onClose}>{t('common.action.close')}</Button>}
      width={560}
      destroyOnHidden
    >
      {run && (
        <div data-testid="template-run">
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 12 }}
            message={t('plugin.run.range', {
              from: formatDateTime(run.begin_time),
              to: formatDateTime(run.end_time),
              count: run.downloads.length,
            })}
          />
          <List
            size="small"
            dataSource={run.downloads}
            rowKey={(d) => d.id}
            renderItem={(d) => (
              <RunRow
                tenantId={tenantId}
                thingsId={d.things_id}
                taskId={d.id}
                format={run.format}
                label={names.get(d.things_id) ?? d.things_id}
              />
            )}
          />
        </div>
      )}
    </Modal>
  );
}
