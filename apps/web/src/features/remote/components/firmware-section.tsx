import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { Firmware, Upgrade } from '@loggerhead/contract/schemas/firmware.ts';
import type { Thing } from '@loggerhead/contract/schemas/things.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, DatePicker, Flex, Popconfirm, Progress, Space, Switch, Table, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Paginator } from '../../../components/data-view/paginator.tsx';
import { firstPage, type PageState } from '../../../components/data-view/paging.ts';
import { formatDateTime, formatRecallSize } from '../../../lib/format.ts';
import { mayCall } from '../../../session/can.ts';
import { firmwareApi } from '../api/firmware.api.ts';
import { firmwareListQuery, remoteKeys, upgradesQuery } from '../api/remote.queries.ts';
import { UPGRADE_COLOURS, upgradeStateKey, validSchedule } from '../lib/firmware-rules.ts';
import { FirmwareUploadDialog } from './firmware-upload-dialog.tsx';

/**
 * Device management → firmware (spec §5): firmware of the device's model, upload, upgrade now or scheduled, live upgrade state.
 * `onUpgradeChange` is called when the device's latest upgrade moves on (started, progressed to another state, ended).
 */
export function FirmwareSection({ thing, tenantId, onUpgradeChange }: { thing: Thing; tenantId: string; onUpgradeChange?: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [paging, setPaging] = useState<PageState>(firstPage(5));
  const [uploading, setUploading] = useState(false);
  const [at, setAt] = useState<Dayjs | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const list = useQuery(firmwareListQuery(tenantId, { current_page: paging.page, page_size: paging.size, model_id: thing.info_model_id }));
  const upgrades = useQuery(upgradesQuery(tenantId, thing.id));
  const refresh = () => client.invalidateQueries({ queryKey: remoteKeys.all });

  const notify = useMutation({
    mutationFn: (f: Firmware) => firmwareApi.notify(tenantId, f, thing.id, at?.valueOf()),
    onSuccess: (r) => {
      const mine = r.results.find((x) => x.things_id === thing.id) ?? r.results[0];
      // A device can refuse one by one (offline, busy): the code comes per device, not as an HTTP error.
      if (mine?.code) setProblem(t(`errors.${mine.code}`, { defaultValue: mine.message ?? mine.code }));
      else {
        setProblem(null);
        message.success(at ? t('remote.firmware.scheduled') : t('remote.firmware.started'));
      }
      refresh();
    },
  });
  const setPublic = useMutation({
    mutationFn: (v: { f: Firmware; on: boolean }) => firmwareApi.setPublic(tenantId, v.f.firmware_id, v.on),
    onSettled: refresh,
  });
  const remove = useMutation({ mutationFn: (f: Firmware) => firmwareApi.remove(tenantId, f.firmware_id), onSuccess: refresh });
  const cancel = useMutation({ mutationFn: (u: Upgrade) => firmwareApi.cancel(tenantId, thing.id, u.id), onSettled: refresh });
  const current = upgrades.data?.[0];
  // An upgrade that ends changes what the device reports (its firmware version): the page refreshes what it shows.
  const lastState = useRef<string | null>(null);
  const upgradeChanged = useEffectEvent(() => onUpgradeChange?.());
  useEffect(() => {
    const state = current ? `${current.id}:${current.state}` : null;
    if (lastState.current !== null && state !== lastState.current) upgradeChanged();
    lastState.current = state;
  }, [current]);
  const scheduleOk = validSchedule(at?.valueOf() ?? null, Date.now());

  return (
    <Card
      size="small"
      title={t('remote.firmware.title')}
      data-testid="firmware-section"
      extra={
        mayCall(Routes.firmware.upload) && (
          <Button size="small" onClick={() => setUploading(true)}>
            {t('remote.firmware.upload')}
          </Button>
        )
      }
    >
      {current && (
        <Flex gap={12} align="center" wrap style={{ marginBottom: 12 }} data-testid="upgrade-state">
          <Typography.Text>{t('remote.firmware.current', { version: current.version })}</Typography.Text>
          <Tag color={UPGRADE_COLOURS[current.state]}>{t(`remote.firmware.state.${upgradeStateKey(current.state)}`)}</Tag>
          {(current.state === 'busy' || current.state === 'idle') && (
            <Progress percent={current.progress} size="small" status="active" style={{ width: 200 }} />
          )}
          {current.scheduled_at && current.state === 'scheduled' && (
            <Typography.Text type="secondary">{formatDateTime(current.scheduled_at)}</Typography.Text>
          )}
          {current.code && (
            <Typography.Text type="danger">
              {t(`errors.${current.code}`, { defaultValue: current.message ?? current.code })}
            </Typography.Text>
          )}
          {(current.state === 'scheduled' || current.state === 'idle') && mayCall(Routes.firmware.cancelUpgrade) && (
            <Button size="small" type="link" danger loading={cancel.isPending} onClick={() => cancel.mutate(current)}>
              {t('remote.firmware.cancel')}
            </Button>
          )}
        </Flex>
      )}
      {problem && <Alert type="error" showIcon closable message={problem} onClose={() => setProblem(null)} style={{ marginBottom: 12 }} />}
      <Flex gap={8} align="center" style={{ marginBottom: 12 }}>
        <Typography.Text>{t('remote.firmware.when')}</Typography.Text>
        <DatePicker
          showTime
          size="small"
          value={at}
          onChange={setAt}
          placeholder={t('remote.firmware.now')}
          status={scheduleOk ? undefined : 'error'}
          aria-label={t('remote.firmware.when')}
        />
        {!scheduleOk && <Typography.Text type="danger">{t('remote.firmware.past')}</Typography.Text>}
      </Flex>
      <Table<Firmware>
        size="small"
        rowKey="firmware_id"
        loading={list.isPending}
        dataSource={list.data?.list ?? []}
        pagination={false}
        columns={[
          { key: 'version', title: t('remote.firmware.version'), width: 100, render: (_v, f) => f.version },
          { key: 'type', title: t('remote.firmware.type'), width: 90, render: (_v, f) => t(`remote.firmware.type.${f.type}`) },
          { key: 'file', title: t('remote.firmware.file'), render: (_v, f) => `${f.file_name} (${formatRecallSize(f.size)})` },
          { key: 'desc', title: t('remote.firmware.description'), render: (_v, f) => f.description || '--' },
          {
            key: 'public',
            title: t('remote.firmware.public'),
            width: 80,
            render: (_v, f) => (
              <Switch
                size="small"
                checked={f.to_public}
                loading={setPublic.isPending && setPublic.variables?.f.firmware_id === f.firmware_id}
                onChange={(on) => setPublic.mutate({ f, on })}
                disabled={!mayCall(Routes.firmware.setPublic)}
                aria-label={t('remote.firmware.public')}
              />
            ),
          },
          { key: 'created', title: t('remote.firmware.created'), width: 170, render: (_v, f) => formatDateTime(f.created_at) },
          {
            key: 'actions',
            width: 170,
            render: (_v, f) => (
              <Space size={4}>
                {mayCall(Routes.firmware.notify) && (
                  <Popconfirm
                    title={t(at ? 'remote.firmware.confirmScheduled' : 'remote.firmware.confirmNow', { version: f.version })}
                    disabled={!scheduleOk}
                    onConfirm={() => notify.mutateAsync(f)}
                  >
                    <Button
                      size="small"
                      type="link"
                      disabled={!scheduleOk}
                      loading={notify.isPending && notify.variables?.firmware_id === f.firmware_id}
                    >
                      {t('remote.firmware.upgrade')}
                    </Button>
                  </Popconfirm>
                )}
                {mayCall(Routes.firmware.remove) && (
                  <Popconfirm title={t('remote.firmware.deleteConfirm', { version: f.version })} onConfirm={() => remove.mutateAsync(f)}>
                    <Button size="small" type="link" danger>
                      {t('remote.storage.delete')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <div style={{ marginTop: 12 }}>
        <Paginator value={paging} total={list.data?.total ?? 0} onChange={setPaging} />
      </div>
      <FirmwareUploadDialog
        open={uploading}
        tenantId={tenantId}
        modelId={thing.info_model_id}
        modelName={thing.info_model_name}
        onClose={() => setUploading(false)}
      />
    </Card>
  );
}
