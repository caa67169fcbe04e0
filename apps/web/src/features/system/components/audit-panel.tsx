import type { Tenant } from '@loggerhead/contract/schemas/tenant.ts';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Input, Row, Space, Statistic, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EMPTY, formatDateTime } from '../../../lib/format.ts';
import { auditListQuery, statisticQuery, TENANT_PAGE_SIZE, type TenantFilter } from '../api/system.api.ts';
import { AuditDialog } from './audit-dialog.tsx';
import { tenantTypeKey } from './tenant-status.tsx';

/** Tenant audit: statistics and the registrations waiting for review, each approved or rejected. */
export function AuditPanel() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<TenantFilter>({ current_page: 1, page_size: TENANT_PAGE_SIZE });
  const [keyword, setKeyword] = useState('');
  const [auditing, setAuditing] = useState<{ tenant: Tenant; pass: boolean } | null>(null);
  const stats = useQuery(statisticQuery());
  const list = useQuery(auditListQuery(filter));

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Row gutter={16} data-testid="audit-statistic">
        {(['total', 'pending', 'active', 'rejected', 'disabled'] as const).map((k) => (
          <Col key={k} xs={12} sm={8} md={4}>
            <Card size="small">
              <Statistic title={t(`system.audit.stat.${k}`)} value={stats.data?.[k] ?? 0} loading={stats.isPending} />
            </Card>
          </Col>
        ))}
      </Row>
      <Input.Search
        allowClear
        placeholder={t('system.tenant.searchName')}
        value={keyword}
        onChange={(e) => setKeyword(e.target.value)}
        onSearch={(v) => setFilter((f) => ({ ...f, current_page: 1, name: v.trim() || undefined }))}
        style={{ maxWidth: 320 }}
      />
      <Table<Tenant>
        rowKey="id"
        size="middle"
        data-testid="audit-table"
        loading={list.isFetching}
        dataSource={list.data?.list ?? []}
        pagination={{
          current: filter.current_page,
          pageSize: filter.page_size,
          total: list.data?.total ?? 0,
          showSizeChanger: false,
          onChange: (current_page) => setFilter((f) => ({ ...f, current_page })),
        }}
        columns={[
          { title: '#', width: 56, render: (_v, _r, i) => (filter.current_page - 1) * filter.page_size + i + 1 },
          { title: t('system.tenant.name'), dataIndex: 'name' },
          { title: t('system.tenant.type'), dataIndex: 'tenant_type', render: (v: number) => t(tenantTypeKey(v)) },
          { title: t('system.tenant.mobile'), dataIndex: 'mobile', render: (v) => v ?? EMPTY },
          { title: t('system.tenant.email'), dataIndex: 'email', render: (v) => v ?? EMPTY },
          { title: t('system.tenant.organization'), dataIndex: 'organization_name', render: (v) => v ?? EMPTY },
          { title: t('system.tenant.merchantId'), dataIndex: 'merchant_id', render: (v) => v ?? EMPTY },
          { title: t('system.tenant.createdAt'), dataIndex: 'created_at', render: (v: number) => formatDateTime(v) },
          {
            title: t('system.common.actions'),
            key: 'actions',
            width: 180,
            render: (_v, r) => (
              <Space>
                <Button type="link" size="small" onClick={() => setAuditing({ tenant: r, pass: true })} data-testid={`approve-${r.name}`}>
                  {t('system.audit.approve')}
                </Button>
                <Button type="link" size="small" danger onClick={() => setAuditing({ tenant: r, pass: false })}>
                  {t('system.audit.reject')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <AuditDialog tenant={auditing?.tenant ?? null} pass={auditing?.pass ?? true} onClose={() => setAuditing(null)} />
    </Space>
  );
}
