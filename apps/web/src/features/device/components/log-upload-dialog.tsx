import { InboxOutlined } from '@ant-design/icons';
import type { UploadResult } from '@loggerhead/contract/schemas/data.ts';
import { Button, Flex, List, Modal, Progress, Typography, Upload } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isCanceled } from '../../../api/api-error.ts';
import { errorText } from '../../../api/error-funnel.ts';
import { formatBytes, formatNumber } from '../../../lib/format.ts';
import { deviceApi } from '../api/device.api.ts';
import { nextToSend, skippedPlaces, type UploadItem } from '../api/log-uploads.ts';

interface Props {
  open: boolean;
  tenantId: string;
  thingsId: string;
  onClose: () => void;
  /** A file's frames are stored (the history should be read again). */
  onStored: (result: UploadResult) => void;
}

let seq = 0;

/**
 * Log files into the device's history: several at once, dropped or picked, sent one after another
 * with a progress bar each; every file then says how many frames it stored and which lines (or
 * bytes) were skipped and why, or why it was refused. Closing cancels what is not sent yet.
 */
export function LogUploadDialog({ open, tenantId, thingsId, onClose, onStored }: Props) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [items, setItems] = useState<UploadItem[]>([]);
  const aborts = useRef(new Map<string, AbortController>());
  // Effects may run twice for one state (React's strict mode): a file is sent once.
  const started = useRef(new Set<string>());

  const update = useCallback(
    (key: string, patch: Partial<UploadItem>) => setItems((list) => list.map((i) => (i.key === key ? { ...i, ...patch } : i))),
    [],
  );

  useEffect(() => {
    const next = nextToSend(items);
    if (!next || started.current.has(next.key)) return;
    started.current.add(next.key);
    const ac = new AbortController();
    aborts.current.set(next.key, ac);
    update(next.key, { state: 'sending', percent: 0 });
    deviceApi
      .uploadLog(
        tenantId,
        thingsId,
        next.file,
        (sent, total) =>
          update(next.key, { percent: total ? Math.floor((100 * sent) / total) : 0, ...(sent >= total ? { state: 'reading' } : {}) }),
        ac.signal,
      )
      .then((result) => {
        update(next.key, { state: 'done', percent: 100, result });
        onStored(result);
      })
      .catch((e) => {
        if (isCanceled(e)) return update(next.key, { state: 'cancelled' });
        const at = (e?.errors?.[0]?.details ?? undefined) as UploadItem['at'];
        update(next.key, { state: 'failed', error: errorText(e, t, (k) => i18n.exists(k)), at });
      })
      .finally(() => aborts.current.delete(next.key));
  }, [items, tenantId, thingsId, onStored, t, i18n, update]);

  const cancel = (item: UploadItem) => {
    if (item.state === 'queued') update(item.key, { state: 'cancelled' });
    else aborts.current.get(item.key)?.abort();
  };
  const close = () => {
    for (const ac of aborts.current.values()) ac.abort();
    setItems([]);
    onClose();
  };

  const where = (at: UploadItem['at']) =>
    at?.line !== undefined
      ? t('device.upload.line', { n: at.line })
      : at?.offset !== undefined
        ? t('device.upload.byte', { n: at.offset })
        : '';

  return (
    <Modal
      open={open}
      title={t('device.upload.title')}
      onCancel={close}
      footer={
        <Button onClick={close} data-testid="upload-close">
          {t('device.upload.close')}
        </Button>
      }
      width={640}
      destroyOnHidden
    >
      <Upload.Dragger
        multiple
        showUploadList={false}
        beforeUpload={(file) => {
          setItems((list) => [...list, { key: `u${++seq}`, file, state: 'queued', percent: 0 }]);
          return false;
        }}
        data-testid="upload-drop"
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{t('device.upload.drop')}</p>
        <p className="ant-upload-hint">{t('device.upload.hint')}</p>
      </Upload.Dragger>
      <List
        style={{ marginTop: 16 }}
        dataSource={items}
        locale={{ emptyText: ' ' }}
        renderItem={(item) => {
          const busy = item.state === 'queued' || item.state === 'sending' || item.state === 'reading';
          const skipped = item.result ? skippedPlaces(item.result) : null;
          return (
            <List.Item
              key={item.key}
              data-testid="upload-item"
              data-state={item.state}
              actions={
                busy
                  ? [
                      <Button key="cancel" size="small" onClick={() => cancel(item)}>
                        {t('device.upload.cancel')}
                      </Button>,
                    ]
                  : []
              }
            >
              <Flex vertical style={{ width: '100%' }} gap={4}>
                <Flex justify="space-between" gap={8}>
                  <Typography.Text strong ellipsis>
                    {item.file.name}
                  </Typography.Text>
                  <Typography.Text type="secondary">{formatBytes(item.file.size)}</Typography.Text>
                </Flex>
                {(item.state === 'sending' || item.state === 'reading') && <Progress percent={item.percent} status="active" size="small" />}
                <Typography.Text type={item.state === 'failed' ? 'danger' : 'secondary'} data-testid="upload-status">
                  {item.state === 'queued' && t('device.upload.queued')}
                  {item.state === 'reading' && t('device.upload.reading')}
                  {item.state === 'cancelled' && t('device.upload.cancelled')}
                  {item.state === 'failed' && [item.error, where(item.at)].filter(Boolean).join(' — ')}
                  {item.state === 'done' && item.result && (
                    <span data-testid="upload-stored">{t('device.upload.stored', { count: formatNumber(item.result.frames, lang) })}</span>
                  )}
                </Typography.Text>
                {skipped && item.result && item.result.skipped_count > 0 && (
                  <div data-testid="upload-skipped">
                    <Typography.Text type="warning">
                      {t(skipped.byLine ? 'device.upload.skippedLines' : 'device.upload.skippedObjects', {
                        count: formatNumber(item.result.skipped_count, lang),
                      })}
                    </Typography.Text>
                    <ul style={{ maxHeight: 120, overflowY: 'auto', margin: '4px 0 0', paddingInlineStart: 20 }}>
                      {skipped.places.map((p) => (
                        <li key={`${p.key}${p.n}`} className="lh-mono">
                          {t(`device.upload.${p.key}`, { n: p.n })}: {p.reason}
                        </li>
                      ))}
                      {skipped.more > 0 && <li>{t('device.upload.more', { count: formatNumber(skipped.more, lang) })}</li>}
                    </ul>
                  </div>
                )}
              </Flex>
            </List.Item>
          );
        }}
      />
    </Modal>
  );
}
