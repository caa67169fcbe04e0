import type { SubUser } from '@loggerhead/contract/schemas/accounts.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Checkbox, Collapse, Descriptions, Empty, Modal, Spin, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EMPTY } from '../../../lib/format.ts';
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
  const holds = useQuery({
    queryKey: userKeys.userPrivileges(tenantId, user?.id ?? ''),
    queryFn: ({ signal }) => userApi.userPrivileges(tenantId as string, user?.id as string, signal),
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
      void qc.invalidateQueries({ queryKey: userKeys.userPrivileges(tenantId, user?.id ?? '') });
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
      {/* What the sub-user holds now, its own grants and menus with its saved roles' (the server's view). */}
      {holds.data && (
        <Descriptions
          size="small"
          column={1}
          bordered
          style={{ marginTop: 16 }}
          data-testid="user-privileges"
          title={t('user.roles.holds')}
        >
          <Descriptions.Item label={t('user.roles.holdsMenus')}>
            {holds.data.menus.length ? holds.data.menus.map((m) => <Tag key={m}>{t(`app.menu.${m}`)}</Tag>) : EMPTY}
          </Descriptions.Item>
          <Descriptions.Item label={t('user.roles.holdsKeys')}>
            {holds.data.apis.length ? (
              <Collapse
                ghost
                size="small"
                items={[
                  {
                    key: 'keys',
                    label: t('user.roles.holdsKeyCount', { n: holds.data.apis.length }),
                    children: (
                      <div style={{ maxHeight: 160, overflowY: 'auto' }}>
                        {holds.data.apis.map((a) => (
                          <Tag key={a.name} className="lh-mono" style={{ marginBottom: 4 }}>
                            {a.name}
                          </Tag>
                        ))}
                      </div>
                    ),
                  },
                ]}
              />
            ) : (
              EMPTY
            )}
          </Descriptions.Item>
        </Descriptions>
      )}
    </Modal>
  );
}
