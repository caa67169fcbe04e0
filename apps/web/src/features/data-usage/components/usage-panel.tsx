import { useQuery } from '@tanstack/react-query';
import { Card, Progress, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes, formatMegabytes, formatPercent } from '../../../lib/format.ts';
import { dataUsageApi, dataUsageKeys } from '../api/data-usage.api.ts';

/** Rates are in 1/100 percent (spec §9): 10000 is the whole package. */
const FULL = 10_000;

/** Storage used, in total against the package's quota and per device (the capacity accounting's figures). */
export function UsagePanel({ tenantId }: { tenantId: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const usage = useQuery({ queryKey: dataUsageKeys.usage(tenantId), queryFn: ({ signal }) => dataUsageApi.usage(tenantId, signal) });
  const q = { current_page: page, page_size: 5 };
  const devices = useQuery({
    queryKey: dataUsageKeys.perDevice(tenantId, q),
    queryFn: ({ signal }) => dataUsageApi.perDevice(tenantId, q, signal),
  });
  const u = usage.data;
  return (
    <Card size="small" title={t('data-usage.usage.title')} loading={usage.isLoading}>
      {u && (
        <div data-testid="data-usage-quota" style={{ marginBottom: 12 }}>
          <Typography.Text>
            {u.total_capacity === null
              ? t('data-usage.usage.unlimited', { used: formatMegabytes(u.total_disk_usage) })
              : t('data-usage.usage.of', { used: formatMegabytes(u.total_disk_usage), quota: formatMegabytes(u.total_capacity) })}
          </Typography.Text>
          {u.total_capacity !== null && (
            <Progress
              percent={Math.min(100, u.disk_usage_rate / 100)}
              status={u.over ? 'exception' : 'normal'}
              format={() => formatPercent(u.disk_usage_rate / FULL)}
            />
          )}
          {u.over && <Typography.Text type="danger">{t('data-usage.usage.over')}</Typography.Text>}
        </div>
      )}
      <Table
        size="small"
        rowKey="things_id"
        loading={devices.isFetching && !devices.data}
        dataSource={devices.data?.list ?? []}
        data-testid="data-usage-storage"
        locale={{ emptyText: t('data-usage.usage.empty') }}
        pagination={{
          current: page,
          pageSize: 5,
          total: devices.data?.total ?? 0,
          onChange: setPage,
          size: 'small',
          showSizeChanger: false,
        }}
        columns={[
          { key: 'name', title: t('data-usage.col.device'), render: (_v, r) => r.name ?? t('data-usage.ranking.deleted') },
          { key: 'bytes', title: t('data-usage.usage.stored'), align: 'right', render: (_v, r) => formatBytes(r.bytes) },
          { key: 'rate', title: t('data-usage.usage.share'), align: 'right', render: (_v, r) => formatPercent(r.rate / FULL) },
        ]}
      />
    </Card>
  );
}
