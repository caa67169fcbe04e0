import type { PushLog } from '@loggerhead/contract/schemas/notification.ts';
import { useQuery } from '@tanstack/react-query';
import { Input, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EMPTY, formatDateTime } from '../../../lib/format.ts';
import { PUSH_LOG_PAGE_SIZE, type PushLogFilter, pushLogQuery } from '../api/system.api.ts';

const STATUS_COLOR: Record<string, string> = { sent: 'green', failed: 'red', logged: 'blue' };

/** Every SMS and e-mail the platform sent (codes, audit notices, alerts), newest first; filter by destination. */
export function PushLogPanel() {
  const { t, i18n } = useTranslation();
  const [filter, setFilter] = useState<PushLogFilter>({ current_page: 1, page_size: PUSH_LOG_PAGE_SIZE });
  const list = useQuery(pushLogQuery(filter));
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Input.Search
        allowClear
        placeholder={t('system.pushLog.destination')}
        onSearch={(v) => setFilter((f) => ({ ...f, current_page: 1, destination: v.trim() || undefined }))}
        style={{ maxWidth: 360 }}
        data-testid="push-log-search"
      />
      <Table<PushLog>
        rowKey="id"
        size="middle"
        data-testid="push-log-table"
        loading={list.isFetching}
        dataSource={list.data?.list ?? []}
        pagination={{
          current: filter.current_page,
          pageSize: filter.page_size,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 30, 40, 50],
          showTotal: (total) => t('system.common.total', { total }),
          onChange: (current_page, page_size) => setFilter((f) => ({ ...f, current_page, page_size })),
        }}
        columns={[
          { title: t('system.pushLog.time'), dataIndex: 'created_at', width: 180, render: (v: number) => formatDateTime(v) },
          {
            title: t('system.pushLog.channel'),
            dataIndex: 'channel',
            width: 90,
            render: (v: string) => t(`system.pushLog.channel.${v === 'email' ? 'email' : v === 'sms' ? 'sms' : 'other'}`),
          },
          { title: t('system.pushLog.destination'), dataIndex: 'destination', width: 200 },
          {
            title: t('system.pushLog.purpose'),
            dataIndex: 'purpose',
            width: 110,
            // Purposes come from every part of the platform; the known ones are translated.
            render: (v: string) => (i18n.exists(`system.pushLog.purpose.${v}`) ? t(`system.pushLog.purpose.${v}`) : v),
          },
          {
            title: t('system.pushLog.text'),
            dataIndex: 'text',
            render: (v: string, r) => (
              <Typography.Paragraph style={{ margin: 0 }} ellipsis={{ rows: 2, expandable: true, symbol: t('system.common.more') }}>
                {r.subject ? `${r.subject}: ${v}` : v}
              </Typography.Paragraph>
            ),
          },
          {
            title: t('system.pushLog.status'),
            dataIndex: 'status',
            width: 100,
            render: (v: string, r) => (
              <Tag color={STATUS_COLOR[v]} title={r.error ?? undefined}>
                {t(`system.pushLog.status.${v === 'sent' || v === 'failed' ? v : 'logged'}`)}
              </Tag>
            ),
          },
          {
            title: t('system.pushLog.sentAt'),
            dataIndex: 'sent_at',
            width: 180,
            render: (v: number | null) => (v ? formatDateTime(v) : EMPTY),
          },
        ]}
      />
    </Space>
  );
}
