import { DownloadOutlined, SearchOutlined, UploadOutlined } from '@ant-design/icons';
import { isAllowedByMap } from '@loggerhead/contract/permissions.ts';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { ExportFormat, FrameDto } from '@loggerhead/contract/schemas/data.ts';
import type { Thing } from '@loggerhead/contract/schemas/things.ts';
import { useQuery } from '@tanstack/react-query';
import { Button, Flex, Typography } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getPermissionMap } from '../../../api/session-storage.ts';
import { type ChooserColumn, ColumnChooserTable } from '../../../components/data-view/column-chooser-table.tsx';
import { DateRange } from '../../../components/data-view/date-range.tsx';
import { Paginator } from '../../../components/data-view/paginator.tsx';
import { firstPage, type PageState } from '../../../components/data-view/paging.ts';
import { shortcutRange } from '../../../components/data-view/time-range.ts';
import { mayCall } from '../../../session/can.ts';
import type { FramesFilter } from '../api/device.api.ts';
import { framesQuery } from '../api/device.queries.ts';
import { DownloadProgressDialog } from './download-progress-dialog.tsx';
import { ExportDialog } from './export-dialog.tsx';
import { type FrameFilter, FrameFilterBar } from './frame-filter-bar.tsx';
import { formatMicroTime, frameDir, frameFlags, frameIdText, frameKind, spacedHex } from './frame-text.ts';
import { LogUploadDialog } from './log-upload-dialog.tsx';

/** Raw frame history of one device (spec §2 device data → history) with export, and log uploads for who may change it. */
export function HistoryFrames({ thing, tenantId }: { thing: Thing; tenantId: string }) {
  const { t } = useTranslation();
  const [range, setRange] = useState<[number, number]>(() => shortcutRange('hour', Date.now()));
  const [filter, setFilter] = useState<FrameFilter>({ channels: [], ids: [] });
  // The query runs for what was last submitted, not for every keystroke.
  const [submitted, setSubmitted] = useState<FramesFilter>(() => ({ begin_time: range[0], end_time: range[1], channels: [], ids: [] }));
  const [paging, setPaging] = useState<PageState>(firstPage());
  const [exporting, setExporting] = useState(false);
  const [task, setTask] = useState<{ id: string; format: ExportFormat } | null>(null);
  const [uploading, setUploading] = useState(false);
  // The key of the upload route the dialog calls (the contract's table), not a copy of it.
  const mayUpload = thing.access === 'write' && isAllowedByMap(getPermissionMap(), Routes.data.upload.permission);

  const page = useQuery(framesQuery(tenantId, thing.id, submitted, paging.page, paging.size));
  // Frames just uploaded may fall in the range on screen: read it again.
  const refetch = page.refetch;
  const onStored = useCallback(() => void refetch(), [refetch]);
  const submit = () => {
    const next = { begin_time: range[0], end_time: range[1], channels: filter.channels, ids: filter.ids };
    // The same query again means "look again": frames keep arriving.
    if (JSON.stringify(next) === JSON.stringify(submitted) && paging.page === 1) void page.refetch();
    setSubmitted(next);
    setPaging((p) => firstPage(p.size));
  };

  const columns: ChooserColumn<FrameDto>[] = [
    { key: 'ts', title: t('device.frame.time'), width: 240, render: (f) => <span className="lh-mono">{formatMicroTime(f.ts, true)}</span> },
    { key: 'channel', title: t('device.frame.channel'), width: 90, render: (f) => `CAN${f.channel}` },
    {
      key: 'id',
      title: t('device.frame.id'),
      width: 120,
      render: (f) => (
        <span className="lh-mono" data-testid="history-id">
          {frameIdText(f.id, frameFlags(f))}
        </span>
      ),
    },
    { key: 'type', title: t('device.frame.type'), width: 140, render: (f) => frameKind(frameFlags(f), t) },
    { key: 'dir', title: t('device.frame.dir'), width: 80, render: (f) => frameDir(frameFlags(f), t) },
    { key: 'dlc', title: t('device.frame.dlc'), width: 80, align: 'right' },
    {
      key: 'data',
      title: t('device.frame.data'),
      render: (f) => (
        <span className="lh-mono" data-testid="history-data">
          {spacedHex(f.data)}
        </span>
      ),
    },
  ];

  const data = page.data;
  return (
    <Flex vertical gap={12}>
      <ColumnChooserTable<FrameDto>
        configKey="device.history.table"
        testId="history-table"
        columns={columns}
        rows={data?.list ?? []}
        rowKey={(f) => `${f.ts}-${f.channel}-${f.id}-${f.data}`}
        loading={page.isFetching}
        firstIndex={(paging.page - 1) * paging.size + 1}
        toolbar={
          <>
            <DateRange value={range} onChange={setRange} />
            <FrameFilterBar channelCount={thing.can_channels} value={filter} onChange={setFilter} />
            <Button type="primary" icon={<SearchOutlined />} onClick={submit} data-testid="history-query">
              {t('device.filter.query')}
            </Button>
            {mayCall(Routes.data.createDownload) && (
              <Button icon={<DownloadOutlined />} onClick={() => setExporting(true)} data-testid="history-export">
                {t('device.history.export')}
              </Button>
            )}
            {mayUpload && (
              <Button icon={<UploadOutlined />} onClick={() => setUploading(true)} data-testid="history-upload">
                {t('device.history.upload')}
              </Button>
            )}
          </>
        }
      />
      <Flex justify="space-between" align="center">
        <span>{data && !data.total_exact && <Typography.Text type="secondary">{t('device.history.approx')}</Typography.Text>}</span>
        <Paginator value={paging} total={data?.total ?? 0} exact={data?.total_exact ?? true} onChange={setPaging} />
      </Flex>
      <ExportDialog
        open={exporting}
        tenantId={tenantId}
        thingsId={thing.id}
        filter={submitted}
        onClose={() => setExporting(false)}
        onStarted={(tk) => {
          setExporting(false);
          setTask(tk);
        }}
      />
      <DownloadProgressDialog tenantId={tenantId} thingsId={thing.id} task={task} onClose={() => setTask(null)} />
      <LogUploadDialog open={uploading} tenantId={tenantId} thingsId={thing.id} onClose={() => setUploading(false)} onStored={onStored} />
    </Flex>
  );
}
