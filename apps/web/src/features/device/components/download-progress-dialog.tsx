import type { ExportFormat } from '@loggerhead/contract/schemas/data.ts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Descriptions, Modal, Progress, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, reasonText } from '../../../api/error-funnel.ts';
import { CLOSE_AFTER_DONE_MS, EXPORT_EXTENSIONS, phaseOf, statusKey } from '../../../components/data-view/download-status.ts';
import { saveBlob } from '../../../components/data-view/file-download.ts';
import { EMPTY, formatBytes, formatNumber } from '../../../lib/format.ts';
import { deviceApi } from '../api/device.api.ts';
import { DOWNLOAD_POLL_MS, deviceKeys } from '../api/device.queries.ts';

interface Props {
  tenantId: string;
  thingsId: string;
  task: { id: string; format: ExportFormat } | null;
  onClose: () => void;
}

/**
 * The data-download progress dialog of spec §4: polls the export task and names its state by
 * wire code; at 100 % it downloads the file and closes 2 s later. Cancel asks first, then
 * deletes the task on the server.
 */
export function DownloadProgressDialog({ tenantId, thingsId, task, onClose }: Props) {
  const { t, i18n } = useTranslation();
  const { message, modal } = App.useApp();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const taskId = task?.id ?? '';
  const progress = useQuery({
    queryKey: deviceKeys.download(tenantId, thingsId, taskId),
    queryFn: ({ signal }) => deviceApi.download(tenantId, thingsId, taskId, signal),
    enabled: Boolean(task),
    refetchInterval: (q) =>
      q.state.data && phaseOf(q.state.data.status, q.state.data.process_rate) !== 'running' ? false : DOWNLOAD_POLL_MS,
    gcTime: 0,
  });
  const p = progress.data;
  const phase = p ? phaseOf(p.status, p.process_rate) : 'running';

  const fetchFile = useMutation({
    mutationFn: () => deviceApi.downloadFile(tenantId, thingsId, taskId, `${thingsId}.${EXPORT_EXTENSIONS[task?.format ?? 'csv']}`),
    onSuccess: ({ blob, name }) => {
      saveBlob(blob, p?.file_name ?? name);
      void message.success(t('device.progress.downloading'));
    },
  });
  const cancel = useMutation({
    mutationFn: () => deviceApi.cancelDownload(tenantId, thingsId, taskId),
    onSuccess: () => {
      void message.info(t('device.progress.cancelled'));
      onClose();
    },
  });

  // Once per task: fetch the file when it is done, then close after 2 s.
  const fetchedFor = useRef<string | null>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const startFetch = fetchFile.mutate; // stable across renders, unlike the mutation object
  useEffect(() => {
    if (phase !== 'done' || !taskId || fetchedFor.current === taskId) return;
    fetchedFor.current = taskId;
    startFetch();
    const timer = setTimeout(() => onCloseRef.current(), CLOSE_AFTER_DONE_MS);
    return () => clearTimeout(timer);
  }, [phase, taskId, startFetch]);

  const askCancel = () =>
    modal.confirm({
      title: t('device.progress.cancel'),
      content: t('device.progress.cancelConfirm'),
      okText: t('common.action.ok'),
      cancelText: t('common.action.cancel'),
      onOk: () => cancel.mutateAsync(),
    });

  const running = phase === 'running';
  return (
    <Modal
      open={task !== null}
      title={t('device.progress.title')}
      closable={!running}
      maskClosable={false}
      keyboard={!running}
      onCancel={onClose}
      footer={
        running ? (
          <Button danger onClick={askCancel} loading={cancel.isPending} data-testid="download-cancel">
            {t('device.progress.cancel')}
          </Button>
        ) : (
          <Button onClick={onClose}>{t('common.action.close')}</Button>
        )
      }
    >
      <div data-testid="download-progress">
        <Typography.Title level={5} data-testid="download-status" style={{ marginTop: 0 }}>
          {t(statusKey(p?.status ?? 1))}
        </Typography.Title>
        <Progress
          percent={p?.process_rate ?? 0}
          status={phase === 'failed' ? 'exception' : phase === 'done' ? 'success' : phase === 'cancelled' ? 'normal' : 'active'}
        />
        <Descriptions column={1} size="small" style={{ marginTop: 12 }}>
          <Descriptions.Item label={t('device.progress.frames')}>
            {p ? formatNumber(p.output_count || p.data_count, lang) : EMPTY}
          </Descriptions.Item>
          <Descriptions.Item label={t('device.progress.size')}>{p ? formatBytes(p.data_bytes || p.upload_bytes) : EMPTY}</Descriptions.Item>
          {running && (
            <Descriptions.Item label={t('device.progress.remaining')}>
              {p?.estimated_time ? t('device.progress.seconds', { count: Math.ceil(p.estimated_time) }) : EMPTY}
            </Descriptions.Item>
          )}
        </Descriptions>
        {phase === 'failed' && (
          <Alert type="error" showIcon title={reasonText(p?.error, t, (k) => i18n.exists(k)) || t('device.progress.status.7')} />
        )}
        {progress.error && <Alert type="error" showIcon title={errorText(progress.error, t, (k) => i18n.exists(k))} />}
      </div>
    </Modal>
  );
}
