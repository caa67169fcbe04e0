import { PlusOutlined } from '@ant-design/icons';
import type { Role } from '@loggerhead/contract/schemas/roles.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RoleDialog } from '../../../components/roles/role-dialog.tsx';
import { RolesTable } from '../../../components/roles/roles-table.tsx';
import { systemApi, systemKeys } from '../api/system.api.ts';

/** Common roles (spec §7 control common-roles): defined here once, given to sub-users by every tenant manager. */
export function CommonRolesPanel() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const list = useQuery({ queryKey: systemKeys.commonRoles(), queryFn: ({ signal }) => systemApi.commonRoles(signal) });
  const [target, setTarget] = useState<Role | 'new' | null>(null);
  return (
    <>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} wrap>
        <Typography.Text type="secondary">{t('system.roles.hint')}</Typography.Text>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setTarget('new')} data-testid="common-role-add">
          {t('system.roles.add')}
        </Button>
      </Space>
      <RolesTable
        roles={list.data?.list ?? []}
        loading={list.isFetching}
        editable={() => true}
        onEdit={setTarget}
        onDelete={async (r) => {
          await systemApi.removeCommonRole(r.id);
          message.success(t('system.roles.deleted'));
          await qc.invalidateQueries({ queryKey: systemKeys.commonRoles() });
        }}
      />
      <RoleDialog
        target={target}
        save={(role, body) => (role ? systemApi.updateCommonRole(role.id, body) : systemApi.createCommonRole(body))}
        invalidate={systemKeys.commonRoles()}
        onClose={() => setTarget(null)}
      />
    </>
  );
}
