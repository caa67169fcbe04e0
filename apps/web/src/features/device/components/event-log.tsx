import type { DeviceEvent, Thing } from '@loggerhead/contract/schemas/things.ts';
import { useQuery } from '@tanstack/react-query';
import { Card, Select, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Paginator } from '../../../components/data-view/paginator.tsx';
import { firstPage, type PageState } from '../../../components/data-view/paging.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { eventsQuery } from '../api/device.queries.ts';

const KINDS = ['connect', 'disconnect', 'error', 'malformed', 'status', 'auth-failed', 'key-regenerated', 'upload'] as const;
const COLOURS: Record<string, string> = {
  connect: 'green',
  disconnect: 'default',
  error: 'red',
  malformed: 'orange',
  'auth-failed': 'red',
  'key-regenerated': 'purple',
  upload: 'blue',
  status: 'cyan',
};

/** The device's event log (spec §2 device management → log): connects, disconnects, errors, malformed uplinks. */
export function EventLog({ thing, tenantId }: { thing: Thing; tenantId: string }) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<string | undefined>();
  const [paging, setPaging] = useState<PageState>(firstPage());
  const events = useQuery(eventsQuery(tenantId, thing.id, { current_page: paging.page, page_size: paging.size, kind }));
  return (
    <Card
      title={t('device.events.title')}
      size="small"
      extra={
        <Select
          allowClear
          size="small"
          style={{ width: 160 }}
          placeholder={t('device.events.allKinds')}
          aria-label={t('device.events.kind')}
          value={kind}
          onChange={(v) => {
            setKind(v);
            setPaging((p) => firstPage(p.size));
          }}
          options={KINDS.map((k) => ({ value: k, label: t(`device.events.kind.${k}`) }))}
        />
      }
    >
      <Table<DeviceEvent>
        size="small"
        data-testid="event-log"
        rowKey="id"
        loading={events.isPending}
        dataSource={events.data?.list ?? []}
        pagination={false}
        columns={[
          { key: 'index', title: '#', width: 56, render: (_v, _r, i) => (paging.page - 1) * paging.size + i + 1 },
          { key: 'at', title: t('device.events.time'), width: 180, render: (_v, r) => formatDateTime(r.at) },
          {
            key: 'kind',
            title: t('device.events.kind'),
            width: 130,
            render: (_v, r) => <Tag color={COLOURS[r.kind] ?? 'default'}>{t(`device.events.kind.${r.kind}`)}</Tag>,
          },
          {
            key: 'message',
            title: t('device.events.message'),
            render: (_v, r) => (
              <Typography.Text>
                {r.message || '--'}
                {r.detail && Object.keys(r.detail).length > 0 && (
                  <Typography.Text type="secondary" className="lh-mono" style={{ marginInlineStart: 8, fontSize: 12 }}>
                    {JSON.stringify(r.detail)}
                  </Typography.Text>
                )}
              </Typography.Text>
            ),
          },
        ]}
      />
      <div style={{ marginTop: 12 }}>
        <Paginator value={paging} total={events.data?.total ?? 0} onChange={setPaging} />
      </div>
    </Card>
  );
}
