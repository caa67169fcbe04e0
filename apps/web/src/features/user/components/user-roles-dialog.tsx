import type { SubUser } from '@loggerhead/contract/schemas/accounts.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Checkbox, Empty, Modal, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { rolesQuery, userApi, userKeys } from '../api/user.api.ts';

/** Gives a sub-user its roles (spec §6 control:user-role): it holds their menus and keys beside its own. */
export function UserRolesDialog({ tenantId, user, onClose }: { tenantId: string | null; user: SubUser | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const roles = useQuery(rolesQuery(tenantId));
  const held = useQuery({
    queryKey: userKeys.userRoles(tenantId, user?.id ?? ''),
    queryFn: ({ signal }) => userApi.userRoles(tenantId as string, user?.id as string, signal),
    enabled: Boolean(tenantId && user),
  });
  const [chosen, setChosen] = useState<string[]>([]);
  useEffect(() => {
    if (held.data) setChosen(held.data.list.map((r) => r.id));
  }, [held.data]);
  const save = useMutation({
    mutationFn: () => userApi.setUserRoles(tenantId as string, user?.id as string, chosen),
    onSuccess: () => {
      message.success(t('user.common.saved'));
      void qc.invalidateQueries({ queryKey: userKeys.roles(tenantId) });
      onClose();
    },
  });
  return (
    <Modal
      open={user !== null}
      title={t('user.roles.assignTitle', { name: user?.username ?? '' })}
      okText={t('user.common.save')}
      cancelText={t('common.action.cancel')}
      confirmLoading={save.isPending}
      okButtonProps={{ disabled: held.isLoading, 'data-testid': 'user-roles-save' }}
      onOk={() => save.mutate()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Alert type="info" showIcon title={t('user.roles.assignHint')} style={{ marginBottom: 16 }} />
      {/* A list of boxes, not a drop-down: every role is in view and nothing covers the dialog's buttons. */}
      <Spin spinning={roles.isLoading || held.isLoading}>
        {roles.data && roles.data.list.length === 0 ? (
          <Empty description={t('user.roles.none')} />
        ) : (
          <Checkbox.Group
            data-testid="user-roles-select"
            value={chosen}
            onChange={(v) => setChosen(v as string[])}
            style={{ display: 'flex', flexDirection: 'column', gap: 8, maxHeight: 320, overflowY: 'auto' }}
            options={(roles.data?.list ?? []).map((r) => ({
              value: r.id,
              label: r.common ? `${r.name} (${t('roles.table.common')})` : r.name,
            }))}
          />
        )}
      </Spin>
    </Modal>
  );
}
