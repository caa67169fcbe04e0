import { BehaviourRoutes } from '@loggerhead/contract/routes/behaviour.ts';
import type { BehaviourSummaryRow } from '@loggerhead/contract/schemas/behaviour.ts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Input, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client.ts';
import { DateRange } from '../../../components/data-view/date-range.tsx';
import { formatDateTime } from '../../../lib/format.ts';

const WEEK_MS = 7 * 86_400_000;

/** User behaviour (spec §6 behaviour tracking): header clicks by module, action and tenant over a period. */
export function BehaviourPanel() {
  const { t, i18n } = useTranslation();
  const [range, setRange] = useState<[number, number]>(() => {
    const now = Date.now();
    return [now - WEEK_MS, now];
  });
  const [module, setModule] = useState<string | undefined>();
  const summary = useQuery({
    queryKey: ['system', 'behaviour', range, module],
    queryFn: ({ signal }) =>
      call(BehaviourRoutes.summary, { query: { start_time: range[0], end_time: range[1], ...(module ? { module } : {}) }, signal }),
    placeholderData: keepPreviousData,
  });
  // A module is a menu entry or a header tool: named as the header names it, else as recorded.
  const moduleName = (m: string) =>
    i18n.exists(`app.menu.${m}`) ? t(`app.menu.${m}`) : i18n.exists(`system.behaviour.module.${m}`) ? t(`system.behaviour.module.${m}`) : m;
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Space wrap>
        <DateRange value={range} onChange={setRange} />
        <Input.Search
          allowClear
          placeholder={t('system.behaviour.module')}
          onSearch={(v) => setModule(v.trim() || undefined)}
          style={{ width: 220 }}
          data-testid="behaviour-module"
        />
        <Typography.Text type="secondary" data-testid="behaviour-total">
          {t('system.behaviour.total', { total: summary.data?.total ?? 0 })}
        </Typography.Text>
      </Space>
      <Table<BehaviourSummaryRow>
        rowKey={(r) => `${r.platform}|${r.module}|${r.action}|${r.tenant_id}`}
        size="middle"
        data-testid="behaviour-table"
        loading={summary.isFetching}
        dataSource={summary.data?.rows ?? []}
        pagination={{ pageSize: 20, showSizeChanger: false, showTotal: (total) => t('system.common.total', { total }) }}
        columns={[
          { title: t('system.behaviour.module'), dataIndex: 'module', render: (v: string) => moduleName(v) },
          {
            title: t('system.behaviour.action'),
            dataIndex: 'action',
            width: 120,
            render: (v: string) => (i18n.exists(`system.behaviour.action.${v}`) ? t(`system.behaviour.action.${v}`) : v),
          },
          { title: t('system.behaviour.tenant'), dataIndex: 'tenant_name', render: (v: string | null, r) => v ?? r.tenant_id },
          { title: t('system.behaviour.platform'), dataIndex: 'platform', width: 100 },
          { title: t('system.behaviour.count'), dataIndex: 'count', width: 100, align: 'right' },
          { title: t('system.behaviour.users'), dataIndex: 'users', width: 100, align: 'right' },
          { title: t('system.behaviour.lastAt'), dataIndex: 'last_at', width: 180, render: (v: number) => formatDateTime(v) },
        ]}
      />
    </Space>
  );
}
