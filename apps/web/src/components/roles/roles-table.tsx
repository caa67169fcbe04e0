import type { Role } from '@loggerhead/contract/schemas/roles.ts';
import { Button, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { EMPTY } from '../../lib/format.ts';
import { ConfirmDeleteButton } from '../confirm-delete-button.tsx';

interface Props {
  roles: readonly Role[];
  loading: boolean;
  /** Whether the caller may change this role (a tenant does not change the common ones). */
  editable: (role: Role) => boolean;
  onEdit?: (role: Role) => void;
  onDelete?: (role: Role) => Promise<unknown>;
}

/** Roles with their menus, key count and holders; the common ones marked. */
export function RolesTable({ roles, loading, editable, onEdit, onDelete }: Props) {
  const { t } = useTranslation();
  return (
    <Table<Role>
      rowKey="id"
      data-testid="roles-table"
      loading={loading}
      dataSource={[...roles]}
      pagination={false}
      columns={[
        {
          title: t('roles.table.name'),
          dataIndex: 'name',
          render: (name: string, r) => (
            <Space size={4}>
              <Typography.Text>{name}</Typography.Text>
              {r.common && <Tag color="blue">{t('roles.table.common')}</Tag>}
            </Space>
          ),
        },
        { title: t('roles.table.description'), dataIndex: 'description', render: (v: string | null) => v || EMPTY },
        {
          title: t('roles.table.menus'),
          dataIndex: 'menus',
          render: (menus: string[]) => (menus.length ? menus.map((m) => <Tag key={m}>{t(`app.menu.${m}`)}</Tag>) : EMPTY),
        },
        { title: t('roles.table.keys'), dataIndex: 'keys', width: 100, render: (keys: string[]) => keys.length },
        { title: t('roles.table.holders'), dataIndex: 'user_count', width: 100 },
        {
          title: t('roles.table.actions'),
          key: 'actions',
          width: 160,
          render: (_v, r) =>
            editable(r) ? (
              <Space size={0}>
                {onEdit && (
                  <Button type="link" size="small" onClick={() => onEdit(r)}>
                    {t('roles.table.edit')}
                  </Button>
                )}
                {onDelete && (
                  <ConfirmDeleteButton
                    label={t('roles.table.delete')}
                    title={t('roles.table.deleteTitle')}
                    content={t('roles.table.deleteConfirm', { name: r.name, count: r.user_count })}
                    onConfirm={() => onDelete(r)}
                  />
                )}
              </Space>
            ) : (
              EMPTY
            ),
        },
      ]}
    />
  );
}
