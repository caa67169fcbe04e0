import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { RecallTask } from '@loggerhead/contract/schemas/recall.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Modal, Progress, Steps } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { mayCall } from '../../../session/can.ts';
import { recallApi } from '../api/recall.api.ts';
import { recallTaskQuery, remoteKeys } from '../api/remote.queries.ts';
import { isRecallRunning, recallStep, storedName } from '../lib/recall-rules.ts';

interface Props {
  tenantId: string;
  thingId: string;
  taskId: string | null;
  onClose: () => void;
}

/** Spec §4 recall progress: command sending → device result → file fetching → URL obtained → download; cancel stops it. */
export function RecallDialog({ tenantId, thingId, taskId, onClose }: Props) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const task = useQuery(recallTaskQuery(tenantId, thingId, taskId));
  const downloaded = useRef<string | null>(null);
  const cancel = useMutation({
    mutationFn: () => recallApi.cancel(tenantId, thingId, taskId as string),
    onSettled: () => client.invalidateQueries({ queryKey: remoteKeys.device(tenantId, thingId) }),
  });
  const data: RecallTask | undefined = task.data;

  useEffect(() => {
    // URL obtained: the download starts once and the dialog closes after 1 s (spec §4).
    if (data?.state !== 'done' || downloaded.current === data.id) return;
    downloaded.current = data.id;
    client.invalidateQueries({ queryKey: remoteKeys.device(tenantId, thingId) });
    void recallApi.download(storedName(thingId, data.filename)).catch(() => undefined);
    const timer = setTimeout(onClose, 1_000);
    return () => clearTimeout(timer);
  }, [data, client, tenantId, thingId, onClose]);

  const step = data ? recallStep(data.state) : 0;
  const running = !data || isRecallRunning(data);
  return (
    <Modal
      open={taskId !== null}
      title={t('remote.recall.dialog', { name: data?.filename ?? '' })}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
      footer={
        running ? (
          mayCall(Routes.recall.cancel) && (
            <Button danger loading={cancel.isPending} onClick={() => cancel.mutate()}>
              {t('remote.recall.cancel')}
            </Button>
          )
        ) : (
          <Button onClick={onClose}>{t('remote.recall.close')}</Button>
        )
      }
    >
      <Steps
        size="small"
        current={step < 0 ? undefined : step}
        status={data && step < 0 ? 'error' : undefined}
        items={[
          { title: t('remote.recall.step.sending') },
          { title: t('remote.recall.step.device') },
          { title: t('remote.recall.step.fetching') },
          { title: t('remote.recall.step.done') },
        ]}
      />
      <Progress
        style={{ marginTop: 16 }}
        percent={Math.round(data?.process_rate ?? 0)}
        status={data && step < 0 ? 'exception' : running ? 'active' : 'success'}
      />
      {data && step < 0 && (
        <Alert
          type={data.state === 'cancelled' ? 'info' : 'error'}
          showIcon
          message={t(`remote.recall.state.${data.state}`)}
          description={data.code ? t(`errors.${data.code}`, { defaultValue: data.message ?? data.code }) : data.message}
        />
      )}
    </Modal>
  );
}
