import { GIB, type Tenant, type TenantQuotaName, type TenantUser } from '@loggerhead/contract/schemas/tenant.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Checkbox,
  DatePicker,
  Descriptions,
  Drawer,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Select,
  Skeleton,
  Space,
  Switch,
  Table,
  Tabs,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EMPTY, formatDateTime } from '../../../lib/format.ts';
import { systemApi, systemKeys, TENANT_PAGE_SIZE } from '../api/system.api.ts';
import { TenantPackagePanel } from './tenant-package-panel.tsx';
import { STATUS_NAMES } from './tenant-status.tsx';

type EditForm = Pick<
  Tenant,
  'organization_name' | 'mobile' | 'email' | 'address' | 'industry' | 'status' | 'audited' | 'platform' | 'belong_platform' | 'priority'
> & { return_visit_time: Dayjs | null };

/** A tenant's detail for the system manager: its fields (editable), its users, its quotas with usage and its package. */
export function TenantDetailDrawer({ tenantId, onClose }: { tenantId: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Drawer open={tenantId !== null} onClose={onClose} width={860} title={t('system.detail.title')} destroyOnHidden>
      {tenantId && (
        <Tabs
          destroyOnHidden
          items={[
            { key: 'info', label: t('system.detail.info'), children: <TenantInfo id={tenantId} /> },
            { key: 'users', label: t('system.detail.users'), children: <TenantUsers id={tenantId} /> },
            { key: 'quotas', label: t('system.detail.quotas'), children: <TenantQuotasPanel id={tenantId} /> },
            { key: 'package', label: t('system.detail.package'), children: <TenantPackagePanel id={tenantId} /> },
          ]}
        />
      )}
    </Drawer>
  );
}

function TenantInfo({ id }: { id: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<EditForm>();
  const tenant = useQuery({ queryKey: systemKeys.tenant(id), queryFn: ({ signal }) => systemApi.tenant(id, signal) });
  useEffect(() => {
    if (tenant.data)
      form.setFieldsValue({
        ...tenant.data,
        return_visit_time: tenant.data.return_visit_time ? dayjs(tenant.data.return_visit_time) : null,
      });
  }, [tenant.data, form]);
  const save = useMutation({
    mutationFn: (v: EditForm) =>
      systemApi.update(id, {
        organization_name: v.organization_name || null,
        mobile: v.mobile || null,
        email: v.email || null,
        address: v.address || null,
        industry: v.industry || null,
        status: v.status,
        audited: v.audited,
        platform: v.platform,
        belong_platform: v.belong_platform || null,
        priority: v.priority ?? 0,
        return_visit_time: v.return_visit_time ? v.return_visit_time.valueOf() : null,
      }),
    onSuccess: () => {
      message.success(t('system.common.saved'));
      void qc.invalidateQueries({ queryKey: systemKeys.tenants() });
    },
  });
  if (!tenant.data) return <Skeleton active />;
  return (
    <Form<EditForm> form={form} layout="vertical" name="tenant-edit" onFinish={(v) => save.mutate(v)}>
      <Form.Item label={t('system.tenant.name')}>
        <Input value={tenant.data.name} disabled />
      </Form.Item>
      <Space wrap size={16} style={{ width: '100%' }}>
        <Form.Item name="organization_name" label={t('system.tenant.organization')}>
          <Input maxLength={64} style={{ width: 240 }} />
        </Form.Item>
        <Form.Item name="mobile" label={t('system.tenant.mobile')}>
          <Input maxLength={32} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="email" label={t('system.tenant.email')}>
          <Input maxLength={254} style={{ width: 240 }} />
        </Form.Item>
        <Form.Item name="address" label={t('system.detail.address')}>
          <Input maxLength={128} style={{ width: 320 }} />
        </Form.Item>
        <Form.Item name="industry" label={t('system.detail.industry')}>
          <Input maxLength={64} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="status" label={t('system.tenant.statusLabel')}>
          <Select
            style={{ width: 140 }}
            options={Object.entries(STATUS_NAMES).map(([value, name]) => ({
              value: Number(value),
              label: t(`system.tenant.status.${name}`),
            }))}
          />
        </Form.Item>
        <Form.Item name="audited" label={t('system.detail.audited')} valuePropName="checked">
          <Checkbox data-testid="tenant-audited" />
        </Form.Item>
        <Form.Item name="platform" label={t('system.detail.platform')}>
          <Select
            style={{ width: 160 }}
            options={[
              { value: 0, label: t('system.detail.platform.standard') },
              { value: 1, label: t('system.detail.platform.extension') },
            ]}
          />
        </Form.Item>
        <Form.Item name="belong_platform" label={t('system.detail.belongPlatform')}>
          <Input maxLength={64} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="priority" label={t('system.detail.priority')}>
          <InputNumber min={0} max={100} precision={0} style={{ width: 120 }} />
        </Form.Item>
        <Form.Item name="return_visit_time" label={t('system.detail.returnVisit')}>
          <DatePicker showTime />
        </Form.Item>
      </Space>
      <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="tenant-save">
        {t('system.detail.save')}
      </Button>
    </Form>
  );
}

function TenantUsers({ id }: { id: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [page, setPage] = useState(1);
  const users = useQuery({
    queryKey: systemKeys.users(id, page),
    queryFn: ({ signal }) => systemApi.users(id, { current_page: page, page_size: TENANT_PAGE_SIZE }, signal),
  });
  const reset = useMutation({
    mutationFn: (userId: string) => systemApi.resetUserPassword(id, userId, {}),
    onSuccess: () => message.success(t('system.detail.resetDone')),
  });
  return (
    <Table<TenantUser>
      rowKey="id"
      size="middle"
      data-testid="tenant-users"
      loading={users.isFetching}
      dataSource={users.data?.list ?? []}
      scroll={{ x: 900 }}
      // The rest of the spec's tenant-user fields, one row open at a time.
      expandable={{
        expandedRowRender: (u) => (
          <Descriptions size="small" column={3} data-testid={`tenant-user-more-${u.name}`}>
            <Descriptions.Item label={t('system.detail.user.department')}>{u.department || EMPTY}</Descriptions.Item>
            <Descriptions.Item label={t('system.detail.user.job')}>{u.job || EMPTY}</Descriptions.Item>
            <Descriptions.Item label={t('system.detail.user.gender')}>
              {u.gender === 'male' || u.gender === 'female' ? t(`system.detail.user.gender.${u.gender}`) : EMPTY}
            </Descriptions.Item>
            <Descriptions.Item label={t('system.detail.user.status')}>
              {t(u.status === 1 ? 'system.detail.user.enabled' : 'system.detail.user.disabled')}
            </Descriptions.Item>
            <Descriptions.Item label={t('system.tenant.createdAt')}>{formatDateTime(u.created_at)}</Descriptions.Item>
            <Descriptions.Item label={t('system.detail.user.description')}>{u.description || EMPTY}</Descriptions.Item>
          </Descriptions>
        ),
      }}
      pagination={{
        current: page,
        pageSize: TENANT_PAGE_SIZE,
        total: users.data?.total ?? 0,
        showSizeChanger: false,
        onChange: setPage,
      }}
      columns={[
        { title: t('system.detail.user.name'), dataIndex: 'name' },
        {
          title: t('system.detail.user.type'),
          dataIndex: 'type',
          render: (v: number) => (v === 1 ? t('system.tenant.manager') : t('system.detail.user.sub')),
        },
        { title: t('system.detail.user.nickName'), dataIndex: 'nick_name', render: (v) => v ?? EMPTY },
        { title: t('system.tenant.mobile'), dataIndex: 'mobile', render: (v) => v ?? EMPTY },
        { title: t('system.tenant.email'), dataIndex: 'email', render: (v) => v ?? EMPTY },
        { title: t('system.detail.user.lastLoginIp'), dataIndex: 'last_login_ip', render: (v) => v ?? EMPTY },
        {
          title: t('system.detail.user.lastLoginTime'),
          dataIndex: 'last_login_time',
          render: (v: number | null) => (v ? formatDateTime(v) : EMPTY),
        },
        {
          title: t('system.common.actions'),
          key: 'actions',
          render: (_v, r) => (
            <Popconfirm title={t('system.detail.resetConfirm', { name: r.name })} onConfirm={() => reset.mutate(r.id)}>
              <Button type="link" size="small">
                {t('system.detail.resetPassword')}
              </Button>
            </Popconfirm>
          ),
        },
      ]}
    />
  );
}

const usageText = (quota: TenantQuotaName, n: number) => (quota === 'bytes_quota' ? `${(n / GIB).toFixed(2)} GB` : String(n));

/** A tenant's quotas with usage, its reclaim policy and its exemption (the platform's own tenant included). */
export function TenantQuotasPanel({ id }: { id: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const quotas = useQuery({ queryKey: systemKeys.quotas(id), queryFn: ({ signal }) => systemApi.quotas(id, signal) });
  /** Edited limits: GB for bytes_quota, counts otherwise; null = no limit. */
  const [edits, setEdits] = useState<Partial<Record<TenantQuotaName, number | null>>>({});
  const [reclaim, setReclaim] = useState<{ reclaim_policy?: 0 | 1; max_reserves_duration?: number | null }>({});
  const [exempt, setExempt] = useState<boolean | undefined>(undefined);
  const save = useMutation({
    mutationFn: () => {
      const body: Record<string, number | null> = {};
      for (const [q, v] of Object.entries(edits)) body[q] = v === null || v === undefined ? null : q === 'bytes_quota' ? v * GIB : v;
      return systemApi.updateQuotas(id, { ...body, ...reclaim, ...(exempt === undefined ? {} : { quota_exempt: exempt }) });
    },
    onSuccess: (data) => {
      qc.setQueryData(systemKeys.quotas(id), data);
      setEdits({});
      setReclaim({});
      setExempt(undefined);
      message.success(t('system.common.saved'));
    },
  });
  const data = quotas.data;
  if (!data) return <Skeleton active />;
  const policy = reclaim.reclaim_policy ?? data.reclaim_policy;
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Table
        rowKey="quota"
        size="middle"
        pagination={false}
        data-testid="tenant-quotas"
        dataSource={data.quotas}
        columns={[
          { title: t('system.quota.name'), dataIndex: 'quota', render: (q: TenantQuotaName) => t(`system.quota.${q}`) },
          { title: t('system.quota.usage'), dataIndex: 'usage', render: (n: number, r) => usageText(r.quota, n) },
          {
            title: t('system.quota.limit'),
            dataIndex: 'limit',
            render: (limit: number | null, r) => {
              const shown = r.quota in edits ? edits[r.quota] : limit === null ? null : r.quota === 'bytes_quota' ? limit / GIB : limit;
              return (
                <InputNumber
                  data-testid={`quota-${r.quota}`}
                  min={0}
                  max={2_147_483_647}
                  precision={0}
                  value={shown}
                  placeholder={t('system.quota.unlimited')}
                  addonAfter={r.quota === 'bytes_quota' ? 'GB' : undefined}
                  onChange={(v) => setEdits((e) => ({ ...e, [r.quota]: v ?? null }))}
                  style={{ width: 180 }}
                />
              );
            },
          },
        ]}
      />
      <Space wrap>
        <span>{t('system.quota.reclaim')}</span>
        <Select<0 | 1>
          style={{ width: 240 }}
          data-testid="quota-reclaim"
          value={policy === 1 ? 1 : 0}
          onChange={(v: 0 | 1) => setReclaim((r) => ({ ...r, reclaim_policy: v }))}
          options={[
            { value: 0, label: t('system.quota.reclaim.package') },
            { value: 1, label: t('system.quota.reclaim.early') },
          ]}
        />
        {policy === 1 && (
          <InputNumber
            min={1}
            max={data.maximum_data_retention_days ?? 36500}
            precision={0}
            value={reclaim.max_reserves_duration === undefined ? data.max_reserves_duration : reclaim.max_reserves_duration}
            onChange={(v) => setReclaim((r) => ({ ...r, max_reserves_duration: v ?? null }))}
            addonAfter={t('system.quota.days')}
          />
        )}
      </Space>
      <Space wrap>
        <span>{t(data.is_platform ? 'system.quota.exemptPlatform' : 'system.quota.exempt')}</span>
        <Switch
          data-testid="quota-exempt"
          checked={exempt ?? data.quota_exempt}
          onChange={(v) => setExempt(v)}
          checkedChildren={t('system.quota.exemptOn')}
          unCheckedChildren={t('system.quota.exemptOff')}
        />
      </Space>
      <Button type="primary" loading={save.isPending} onClick={() => save.mutate()} data-testid="quota-save">
        {t('system.detail.save')}
      </Button>
    </Space>
  );
}
