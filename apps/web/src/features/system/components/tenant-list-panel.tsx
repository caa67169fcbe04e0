import { DownloadOutlined } from '@ant-design/icons';
import { TENANT_STATUS, type Tenant } from '@loggerhead/contract/schemas/tenant.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Checkbox, Drawer, Form, Input, Select, Space, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReauth } from '../../../components/widgets/reauth-dialog.tsx';
import { EMPTY, formatDateTime } from '../../../lib/format.ts';
import { enterSuperSession } from '../../../session/super-session.ts';
import { useSession } from '../../../session/use-session.ts';
import { saveText, systemApi, systemKeys, TENANT_PAGE_SIZE, type TenantFilter, tenantListQuery } from '../api/system.api.ts';
import { TenantDetailDrawer, TenantQuotasPanel } from './tenant-detail-drawer.tsx';
import { STATUS_NAMES, TenantStatusTag, tenantTypeKey } from './tenant-status.tsx';

type Filters = Pick<TenantFilter, 'name' | 'mobile' | 'status'>;

/** All tenants with filters (spec §7: page size 20), CSV download, enable/disable behind a password check. */
export function TenantListPanel() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<Filters>();
  const [filter, setFilter] = useState<TenantFilter>({ current_page: 1, page_size: TENANT_PAGE_SIZE });
  const list = useQuery(tenantListQuery(filter));
  const [reauth, reauthDialog] = useReauth();
  const [detail, setDetail] = useState<string | null>(null);
  const [platformQuotas, setPlatformQuotas] = useState(false);
  const { tenantId } = useSession();

  const download = useMutation({
    mutationFn: () => systemApi.csv({ name: filter.name, mobile: filter.mobile, status: filter.status }),
    onSuccess: (csv) => saveText(csv, `tenants-${new Date().toISOString().slice(0, 10)}.csv`),
  });

  const setStatus = useMutation({
    mutationFn: ({ id, status }: { id: string; status: number }) => systemApi.update(id, { status }),
    onSuccess: () => {
      message.success(t('system.common.saved'));
      void qc.invalidateQueries({ queryKey: systemKeys.tenants() });
    },
  });

  // Super-session (spec §7): read-only unless the system manager ticks the box; logged in both logs.
  const openConsole = (tenantId: string, name: string) => {
    let writable = false;
    modal.confirm({
      title: t('system.superSession.title', { name }),
      content: (
        <Space orientation="vertical">
          <span>{t('system.superSession.hint')}</span>
          <Checkbox onChange={(e) => (writable = e.target.checked)} data-testid="super-session-writable">
            {t('system.superSession.writable')}
          </Checkbox>
        </Space>
      ),
      okText: t('system.superSession.open'),
      cancelText: t('common.action.cancel'),
      onOk: async () => enterSuperSession(await systemApi.openSuperSession(tenantId, !writable)),
    });
  };

  const toggle = async (r: Tenant) => {
    if (!(await reauth())) return;
    setStatus.mutate({ id: r.id, status: r.status === TENANT_STATUS.disabled ? TENANT_STATUS.active : TENANT_STATUS.disabled });
  };

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Form<Filters>
        form={form}
        layout="inline"
        name="tenant-filter"
        onFinish={(v) =>
          setFilter((f) => ({
            ...f,
            current_page: 1,
            name: v.name?.trim() || undefined,
            mobile: v.mobile?.trim() || undefined,
            status: v.status,
          }))
        }
      >
        <Form.Item name="name" label={t('system.tenant.name')}>
          <Input allowClear style={{ width: 180 }} />
        </Form.Item>
        <Form.Item name="mobile" label={t('system.tenant.mobile')}>
          <Input allowClear style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="status" label={t('system.tenant.statusLabel')}>
          <Select
            allowClear
            style={{ width: 140 }}
            placeholder={t('system.common.all')}
            options={Object.entries(STATUS_NAMES).map(([value, name]) => ({
              value: Number(value),
              label: t(`system.tenant.status.${name}`),
            }))}
          />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit">
              {t('system.common.search')}
            </Button>
            <Button
              onClick={() => {
                form.resetFields();
                setFilter({ current_page: 1, page_size: TENANT_PAGE_SIZE });
              }}
            >
              {t('system.common.reset')}
            </Button>
            <Button icon={<DownloadOutlined />} loading={download.isPending} onClick={() => download.mutate()} data-testid="tenants-csv">
              {t('system.tenant.csv')}
            </Button>
            <Button onClick={() => setPlatformQuotas(true)} data-testid="platform-quotas">
              {t('system.quota.platform')}
            </Button>
          </Space>
        </Form.Item>
      </Form>
      <Table<Tenant>
        rowKey="id"
        size="middle"
        data-testid="tenant-table"
        loading={list.isFetching}
        dataSource={list.data?.list ?? []}
        scroll={{ x: 1100 }}
        pagination={{
          current: filter.current_page,
          pageSize: filter.page_size,
          total: list.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total) => t('system.common.total', { total }),
          onChange: (current_page) => setFilter((f) => ({ ...f, current_page })),
        }}
        columns={[
          { title: '#', width: 56, render: (_v, _r, i) => (filter.current_page - 1) * filter.page_size + i + 1 },
          { title: t('system.tenant.name'), dataIndex: 'name' },
          { title: t('system.tenant.type'), dataIndex: 'tenant_type', render: (v: number) => t(tenantTypeKey(v)) },
          { title: t('system.tenant.statusLabel'), dataIndex: 'status', render: (v: number) => <TenantStatusTag status={v} /> },
          { title: t('system.tenant.manager'), dataIndex: 'manager_username', render: (v) => v ?? EMPTY },
          { title: t('system.tenant.mobile'), dataIndex: 'mobile', render: (v) => v ?? EMPTY },
          { title: t('system.tenant.email'), dataIndex: 'email', render: (v) => v ?? EMPTY },
          { title: t('system.tenant.organization'), dataIndex: 'organization_name', render: (v) => v ?? EMPTY },
          { title: t('system.tenant.createdAt'), dataIndex: 'created_at', render: (v: number) => formatDateTime(v) },
          {
            title: t('system.common.actions'),
            key: 'actions',
            width: 250,
            render: (_v, r) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setDetail(r.id)} data-testid={`tenant-detail-${r.name}`}>
                  {t('system.detail.open')}
                </Button>
                {r.status === TENANT_STATUS.active && (
                  <Button type="link" size="small" onClick={() => openConsole(r.id, r.name)} data-testid={`tenant-console-${r.name}`}>
                    {t('system.superSession.open')}
                  </Button>
                )}
                {(r.status === TENANT_STATUS.active || r.status === TENANT_STATUS.disabled) && (
                  <Button type="link" size="small" danger={r.status === TENANT_STATUS.active} onClick={() => void toggle(r)}>
                    {r.status === TENANT_STATUS.active ? t('system.tenant.disable') : t('system.tenant.enable')}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      {reauthDialog}
      <TenantDetailDrawer tenantId={detail} onClose={() => setDetail(null)} />
      <Drawer
        open={platformQuotas}
        size="large"
        title={t('system.quota.platform')}
        onClose={() => setPlatformQuotas(false)}
        destroyOnHidden
      >
        {tenantId && <TenantQuotasPanel id={tenantId} />}
      </Drawer>
    </Space>
  );
}
