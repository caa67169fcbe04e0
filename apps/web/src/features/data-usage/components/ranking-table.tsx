import type { TenantRankingItem } from '@loggerhead/contract/schemas/traffic.ts';
import { useQuery } from '@tanstack/react-query';
import { Card, Select, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Paginator } from '../../../components/data-view/paginator.tsx';
import { firstPage, type PageState } from '../../../components/data-view/paging.ts';
import { EMPTY, formatBytes, formatNumber } from '../../../lib/format.ts';
import { rankingQuery } from '../api/data-usage.api.ts';

const ORDERS = ['bytes', 'messages', 'frames', 'forwarded'] as const;
type Order = (typeof ORDERS)[number];

/** The tenant's devices by traffic within the range, most first. */
export function RankingTable({ tenantId, range }: { tenantId: string; range: [number, number] }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [order, setOrder] = useState<Order>('bytes');
  const [paging, setPaging] = useState<PageState>(firstPage());
  const q = { begin_time: range[0], end_time: range[1], order_by: order, current_page: paging.page, page_size: paging.size };
  const ranking = useQuery(rankingQuery(tenantId, q, true));
  const num = (v: number) => formatNumber(v, lang);
  return (
    <Card
      size="small"
      title={t('data-usage.ranking.title')}
      extra={
        <Select<Order>
          size="small"
          style={{ width: 160 }}
          value={order}
          onChange={(v) => {
            setOrder(v);
            setPaging((p) => firstPage(p.size));
          }}
          options={ORDERS.map((o) => ({ value: o, label: t('data-usage.ranking.by', { metric: t(`data-usage.metric.${o}`) }) }))}
          data-testid="data-usage-order"
        />
      }
    >
      <Table<TenantRankingItem>
        size="small"
        rowKey="things_id"
        pagination={false}
        loading={ranking.isFetching && !ranking.data}
        dataSource={ranking.data?.list ?? []}
        data-testid="data-usage-ranking"
        locale={{ emptyText: t('data-usage.ranking.empty') }}
        columns={[
          { key: 'rank', title: t('data-usage.col.rank'), dataIndex: 'rank', width: 64 },
          { key: 'name', title: t('data-usage.col.device'), render: (_v, r) => r.name ?? t('data-usage.ranking.deleted') },
          { key: 'id', title: t('data-usage.col.deviceId'), render: (_v, r) => r.third_things_id ?? EMPTY },
          { key: 'messages', title: t('data-usage.metric.messages'), align: 'right', render: (_v, r) => num(r.messages) },
          { key: 'frames', title: t('data-usage.metric.frames'), align: 'right', render: (_v, r) => num(r.frames) },
          { key: 'bytes', title: t('data-usage.metric.bytes'), align: 'right', render: (_v, r) => formatBytes(r.bytes) },
          { key: 'forwarded', title: t('data-usage.metric.forwarded'), align: 'right', render: (_v, r) => num(r.forwarded) },
        ]}
      />
      <div style={{ marginTop: 12 }}>
        <Paginator value={paging} total={ranking.data?.total ?? 0} onChange={setPaging} />
      </div>
    </Card>
  );
}
