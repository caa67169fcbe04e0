import { PlusOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { SubUser } from '@loggerhead/contract/schemas/accounts.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Popconfirm, Space, Switch, Table, Tabs, Tag, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useReauth } from '../../../components/widgets/reauth-dialog.tsx';
import { EMPTY, formatDateTime } from '../../../lib/format.ts';
import { mayCall } from '../../../session/can.ts';
import { useSession } from '../../../session/use-session.ts';
import { type SubUserFilter, subUserListQuery, userApi, userKeys } from '../api/user.api.ts';
import { ResetPasswordDialog } from '../components/reset-password-dialog.tsx';
import { RolesPanel } from '../components/roles-panel.tsx';
import { SubUserDialog } from '../components/subuser-dialog.tsx';
import { UserRolesDialog } from '../components/user-roles-dialog.tsx';

const PAGE_SIZE = 10;

/** Sub-user management (spec §2, §3, §6): the tenant manager's sub-users and the roles it gives them. */
export default function SubuserManagementPage() {
  const { t } = useTranslation();
  const { tenantId } = useSession();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'roles' ? 'roles' : 'subusers';
  const items: { key: string; label: string; children: ReactNode }[] = [
    { key: 'subusers', label: t('user.subusers.tab.list'), children: <SubUsersPanel /> },
  ];
  if (mayCall(Routes.roles.list)) items.push({ key: 'roles', label: t('user.roles.tab'), children: <RolesPanel tenantId={tenantId} /> });
  return (
    <Card variant="borderless">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('user.subusers.title')}
      </Typography.Title>
      <Tabs activeKey={tab} onChange={(k) => setParams({ tab: k }, { replace: true })} destroyOnHidden items={items} />
    </Card>
  );
}

/** The tenant manager's list of sub-users. */
function SubUsersPanel() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const { tenantId } = useSession();
  const [filter, setFilter] = useState<SubUserFilter>({ current_page: 1, page_size: PAGE_SIZE });
  const list = useQuery(subUserListQuery(tenantId, filter));
  const [dialog, setDialog] = useState<{ editing: SubUser | null } | null>(null);
  const [resetting, setResetting] = useState<SubUser | null>(null);
  const [roleOf, setRoleOf] = useState<SubUser | null>(null);
  const [reauth, reauthDialog] = useReauth();

  const invalidate = () => qc.invalidateQueries({ queryKey: userKeys.subUsers(tenantId) });
  const remove = useMutation({
    mutationFn: (u: SubUser) => userApi.deleteSubUser(tenantId as string, u.id),
    onSuccess: () => {
      message.success(t('user.common.deleted'));
      void invalidate();
    },
  });
  const setStatus = useMutation({
    mutationFn: ({ u, enabled }: { u: SubUser; enabled: boolean }) =>
      userApi.updateSubUser(tenantId as string, u.id, { status: enabled ? 1 : 3 }),
    onSuccess: () => void invalidate(),
  });

  return (
    <>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} wrap>
        <Form
          layout="inline"
          name="subuser-filter"
          onFinish={(v: { username?: string; mobile?: string }) =>
            setFilter({
              current_page: 1,
              page_size: filter.page_size,
              username: v.username?.trim() || undefined,
              mobile: v.mobile?.trim() || undefined,
            })
          }
        >
          <Form.Item name="username">
            <Input allowClear placeholder={t('user.subusers.username')} style={{ width: 180 }} />
          </Form.Item>
          <Form.Item name="mobile">
            <Input allowClear placeholder={t('user.subusers.mobile')} style={{ width: 160 }} />
          </Form.Item>
          <Button htmlType="submit">{t('user.common.search')}</Button>
        </Form>
        {mayCall(Routes.subUsers.create) && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ editing: null })} data-testid="subuser-add">
            {t('user.subusers.add')}
          </Button>
        )}
      </Space>
      <Table<SubUser>
        rowKey="id"
        data-testid="subuser-table"
        loading={list.isFetching}
        dataSource={list.data?.list ?? []}
        scroll={{ x: 1100 }}
        pagination={{
          current: filter.current_page,
          pageSize: filter.page_size,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 30, 40, 50],
          showTotal: (total) => t('user.common.total', { total }),
          onChange: (current_page, page_size) => setFilter((f) => ({ ...f, current_page, page_size })),
        }}
        columns={[
          { title: '#', width: 56, render: (_v, _r, i) => (filter.current_page - 1) * filter.page_size + i + 1 },
          { title: t('user.subusers.username'), dataIndex: 'username' },
          {
            title: t('user.subusers.loginName'),
            dataIndex: 'login_name',
            render: (v: string) => <Typography.Text copyable>{v}</Typography.Text>,
          },
          { title: t('user.subusers.mobile'), dataIndex: 'mobile', render: (v: string | null, r) => (v ? `+${r.area_code} ${v}` : EMPTY) },
          { title: t('user.subusers.email'), dataIndex: 'email', render: (v) => v || EMPTY },
          {
            title: t('user.subusers.menus'),
            dataIndex: 'menus',
            render: (menus: string[]) => (menus.length ? menus.map((m) => <Tag key={m}>{t(`app.menu.${m}`)}</Tag>) : EMPTY),
          },
          { title: t('user.subusers.deviceCount'), dataIndex: 'devices', width: 90, render: (d: unknown[]) => d.length },
          { title: t('user.subusers.lastLogin'), dataIndex: 'last_login_time', render: (v: number | null) => formatDateTime(v) },
          {
            title: t('user.subusers.enabled'),
            dataIndex: 'status',
            width: 80,
            render: (status: number, r) => (
              <Switch
                size="small"
                checked={status === 1}
                onChange={(enabled) => setStatus.mutate({ u: r, enabled })}
                disabled={!mayCall(Routes.subUsers.update)}
                aria-label={t('user.subusers.enabled')}
              />
            ),
          },
          {
            title: t('user.common.actions'),
            key: 'actions',
            fixed: 'right',
            width: 270,
            render: (_v, r) => (
              <Space size={0}>
                {mayCall(Routes.subUsers.update) && (
                  <Button type="link" size="small" onClick={() => setDialog({ editing: r })}>
                    {t('user.common.edit')}
                  </Button>
                )}
                {mayCall(Routes.roles.setUserRoles) && (
                  <Button type="link" size="small" onClick={() => setRoleOf(r)}>
                    {t('user.roles.assign')}
                  </Button>
                )}
                {mayCall(Routes.subUsers.resetPassword) && (
                  <Button
                    type="link"
                    size="small"
                    onClick={async () => {
                      if (await reauth()) setResetting(r);
                    }}
                  >
                    {t('user.subusers.reset')}
                  </Button>
                )}
                {mayCall(Routes.subUsers.remove) && (
                  <Popconfirm
                    title={t('user.subusers.deleteConfirm', { name: r.username })}
                    okText={t('common.action.ok')}
                    cancelText={t('common.action.cancel')}
                    okButtonProps={{ danger: true }}
                    onConfirm={() => remove.mutateAsync(r)}
                  >
                    <Button type="link" size="small" danger>
                      {t('user.common.delete')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <SubUserDialog open={dialog !== null} editing={dialog?.editing ?? null} tenantId={tenantId} onClose={() => setDialog(null)} />
      <ResetPasswordDialog user={resetting} tenantId={tenantId} onClose={() => setResetting(null)} />
      <UserRolesDialog tenantId={tenantId} user={roleOf} onClose={() => setRoleOf(null)} />
      {reauthDialog}
    </>
  );
}
