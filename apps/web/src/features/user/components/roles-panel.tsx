import { PlusOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { Role } from '@loggerhead/contract/schemas/roles.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RoleDialog } from '../../../components/roles/role-dialog.tsx';
import { RolesTable } from '../../../components/roles/roles-table.tsx';
import { mayCall } from '../../../session/can.ts';
import { rolesQuery, userApi, userKeys } from '../api/user.api.ts';

/** The tenant's roles (spec §6 control:tenant-role): its own, which the manager edits, and the platform's common ones. */
export function RolesPanel({ tenantId }: { tenantId: string | null }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const list = useQuery(rolesQuery(tenantId));
  const [target, setTarget] = useState<Role | 'new' | null>(null);
  const tid = tenantId as string;
  return (
    <>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} wrap>
        <Typography.Text type="secondary">{t('user.roles.hint')}</Typography.Text>
        {mayCall(Routes.roles.create) && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setTarget('new')} data-testid="role-add">
            {t('user.roles.add')}
          </Button>
        )}
      </Space>
      <RolesTable
        roles={list.data?.list ?? []}
        loading={list.isFetching}
        editable={(r) => !r.common}
        onEdit={mayCall(Routes.roles.update) ? setTarget : undefined}
        onDelete={
          mayCall(Routes.roles.remove)
            ? async (r) => {
                await userApi.removeRole(tid, r.id);
                message.success(t('user.common.deleted'));
                await qc.invalidateQueries({ queryKey: userKeys.roles(tenantId) });
              }
            : undefined
        }
      />
      <RoleDialog
        target={target}
        save={(role, body) => (role ? userApi.updateRole(tid, role.id, body) : userApi.createRole(tid, body))}
        invalidate={userKeys.roles(tenantId)}
        onClose={() => setTarget(null)}
      />
    </>
  );
}
