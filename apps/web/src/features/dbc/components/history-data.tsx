import { DownloadOutlined, SearchOutlined, StopOutlined } from '@ant-design/icons';
import type { SignalRow } from '@loggerhead/contract/schemas/signals.ts';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Flex, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isCanceled } from '../../../api/api-error.ts';
import { signalDataQuery } from '../../../api/dbc.queries.ts';
import { errorText } from '../../../api/error-funnel.ts';
import { type SignalRange, signalsApi } from '../../../api/signals.api.ts';
import { type ChooserColumn, ColumnChooserTable } from '../../../components/data-view/column-chooser-table.tsx';
import { DateRange } from '../../../components/data-view/date-range.tsx';
import { saveBlob } from '../../../components/data-view/file-download.ts';
import { Paginator } from '../../../components/data-view/paginator.tsx';
import { firstPage, MAX_PAGED_ENTRIES, type PageState } from '../../../components/data-view/paging.ts';
import { shortcutRange } from '../../../components/data-view/time-range.ts';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { SignalSelect } from './signal-select.tsx';
import type { SignalOption } from './use-channel-signals.ts';

/** A decoded sample time (ms with µs as the fraction) to the millisecond and the µs after it. */
export function sampleTime(ms: number): string {
  const whole = Math.floor(ms);
  const micro = Math.round((ms - whole) * 1000);
  return `${formatDateTime(whole, 'YYYY-MM-DD HH:mm:ss.SSS')}${String(Math.min(999, micro)).padStart(3, '0')}`;
}

/**
 * Decoded history as a table (spec §2 history data): paged on the server; past 10000 rows the
 * pager stops and the user is asked to narrow the query (spec §9). Export writes every row of
 * the query as CSV, with a cancel button while it runs.
 */
export function HistoryData({
  tenantId,
  thingsId,
  channel,
  options,
}: {
  tenantId: string;
  thingsId: string;
  channel: number;
  options: SignalOption[];
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { message } = App.useApp();
  const [picked, setPicked] = useState<string[]>([]);
  const [range, setRange] = useState<[number, number]>(() => shortcutRange('hour', Date.now()));
  const [submitted, setSubmitted] = useState<SignalRange | null>(null);
  const [paging, setPaging] = useState<PageState>(firstPage());
  const [exporting, setExporting] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const page = useQuery(signalDataQuery(tenantId, thingsId, submitted, paging.page, paging.size));

  const query = () => {
    const next: SignalRange = { signals: picked, channel, begin_time: range[0], end_time: range[1] };
    if (JSON.stringify(next) === JSON.stringify(submitted) && paging.page === 1) void page.refetch();
    setSubmitted(next);
    setPaging((p) => firstPage(p.size));
  };

  const exportCsv = async () => {
    if (!submitted) return;
    const ctl = new AbortController();
    abort.current = ctl;
    setExporting(true);
    try {
      const file = await signalsApi.exportCsv(tenantId, thingsId, submitted, ctl.signal);
      saveBlob(file.blob, file.name);
      void message.success(t('dbc.data.exported'));
    } catch (e) {
      if (!isCanceled(e) && !ctl.signal.aborted) void message.error(errorText(e, t, (k) => i18n.exists(k)));
    } finally {
      setExporting(false);
      abort.current = null;
    }
  };

  const columns: ChooserColumn<SignalRow>[] = [
    { key: 'time', title: t('dbc.data.time'), render: (r) => <span className="lh-mono">{sampleTime(r.time)}</span> },
    { key: 'channel', title: t('dbc.parsing.channel'), render: (r) => `CAN${r.channel}` },
    { key: 'message', title: t('dbc.data.message') },
    { key: 'signal', title: t('dbc.data.signal'), render: (r) => <span data-testid="data-signal">{r.signal}</span> },
    {
      key: 'value',
      title: t('dbc.data.value'),
      align: 'right',
      render: (r) => (
        <span className="lh-mono" data-testid="data-value">
          {formatNumber(r.value, lang)}
        </span>
      ),
    },
    { key: 'unit', title: t('dbc.data.unit') },
  ];
  const total = page.data?.total ?? 0;

  return (
    <Flex vertical gap={12}>
      <ColumnChooserTable<SignalRow>
        configKey="dbc.data.table"
        testId="signal-data-table"
        columns={columns}
        rows={page.data?.list ?? []}
        rowKey={(r) => `${r.time}-${r.message}-${r.signal}`}
        loading={page.isFetching}
        firstIndex={(paging.page - 1) * paging.size + 1}
        toolbar={
          <>
            <SignalSelect options={options} value={picked} onChange={setPicked} testId="history-data-signals" />
            <DateRange value={range} onChange={setRange} />
            <Button type="primary" icon={<SearchOutlined />} disabled={!picked.length} onClick={query} data-testid="history-data-query">
              {t('dbc.history.query')}
            </Button>
            {exporting ? (
              <Button icon={<StopOutlined />} onClick={() => abort.current?.abort()} loading={false} data-testid="history-data-cancel">
                {t('dbc.data.cancelExport')}
              </Button>
            ) : (
              <Button
                icon={<DownloadOutlined />}
                disabled={!submitted || !total}
                onClick={() => void exportCsv()}
                data-testid="history-data-export"
              >
                {t('dbc.data.export')}
              </Button>
            )}
          </>
        }
      />
      {total > MAX_PAGED_ENTRIES && (
        <Alert type="warning" showIcon message={t('dbc.data.over10thou', { total: formatNumber(total, lang) })} data-testid="over-10000" />
      )}
      <Flex justify="space-between" align="center">
        <Typography.Text type="secondary">{exporting ? t('dbc.data.exporting') : ''}</Typography.Text>
        <Paginator value={paging} total={total} onChange={setPaging} />
      </Flex>
    </Flex>
  );
}
