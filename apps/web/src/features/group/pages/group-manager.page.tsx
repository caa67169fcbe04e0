import { PlusOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { Group } from '@loggerhead/contract/schemas/org.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDeleteButton } from '../../../components/confirm-delete-button.tsx';
import { type ChooserColumn, ColumnChooserTable } from '../../../components/data-view/column-chooser-table.tsx';
import { Paginator } from '../../../components/data-view/paginator.tsx';
import { firstPage, type PageState } from '../../../components/data-view/paging.ts';
import { EMPTY, formatDateTime } from '../../../lib/format.ts';
import { can } from '../../../session/can.ts';
import { useSession } from '../../../session/use-session.ts';
import { groupApi, groupKeys, groupListQuery } from '../api/group.api.ts';
import { GroupCommandsDrawer } from '../components/group-commands-drawer.tsx';
import { GroupFormDialog } from '../components/group-form-dialog.tsx';
import { GroupMembersDrawer } from '../components/group-members-drawer.tsx';
import { GroupUpgradeDialog } from '../components/group-upgrade-dialog.tsx';

/** Spec §9: groups come 100 per page. */
const GROUP_PAGE_SIZE = 100;

/** Device groups (spec §1 groups, §7 /out-group-mgmt): groups, their devices and group commands. */
export default function GroupManagerPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const { tenantId } = useSession();
  const [keyword, setKeyword] = useState<string | undefined>();
  const [paging, setPaging] = useState<PageState>(firstPage(GROUP_PAGE_SIZE));
  const [target, setTarget] = useState<Group | 'new' | null>(null);
  const [membersOf, setMembersOf] = useState<Group | null>(null);
  const [commandsOf, setCommandsOf] = useState<Group | null>(null);
  const [upgradeOf, setUpgradeOf] = useState<Group | null>(null);
  const list = useQuery(groupListQuery(tenantId, { current_page: paging.page, page_size: paging.size, keyword }));

  const remove = useMutation({
    mutationFn: (id: string) => groupApi.remove(tenantId as string, id),
    onSuccess: () => {
      void message.success(t('group.delete.done'));
      return qc.invalidateQueries({ queryKey: groupKeys.all });
    },
  });

  const columns: ChooserColumn<Group>[] = [
    { key: 'name', title: t('group.col.name'), render: (g) => <Typography.Text strong>{g.name}</Typography.Text> },
    { key: 'description', title: t('group.col.description'), ellipsis: true, width: 240, render: (g) => g.description || EMPTY },
    { key: 'things_count', title: t('group.col.things') },
    { key: 'updated_at', title: t('group.col.updatedAt'), render: (g) => formatDateTime(g.updated_at) },
    {
      key: 'actions',
      title: t('group.col.actions'),
      always: true,
      fixed: 'right',
      render: (g) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setMembersOf(g)} data-testid="group-members-open">
            {t('group.action.members')}
          </Button>
          <Button type="link" size="small" onClick={() => setCommandsOf(g)} data-testid="group-commands-open">
            {t('group.action.commands')}
          </Button>
          {can(Routes.firmware.notify.permission) && (
            <Button type="link" size="small" onClick={() => setUpgradeOf(g)} data-testid="group-upgrade-open">
              {t('group.action.upgrade')}
            </Button>
          )}
          {can('group:group:update') && (
            <Button type="link" size="small" onClick={() => setTarget(g)}>
              {t('group.action.edit')}
            </Button>
          )}
          {can('group:group:delete') && (
            <ConfirmDeleteButton
              label={t('group.action.delete')}
              title={t('group.delete.title')}
              content={t('group.delete.confirm', { name: g.name })}
              onConfirm={() => remove.mutateAsync(g.id)}
            />
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card
      variant="borderless"
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('group.manager.title')}
        </Typography.Title>
      }
      extra={
        can('group:group:create') && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setTarget('new')} data-testid="add-group">
            {t('group.list.add')}
          </Button>
        )
      }
    >
      <ColumnChooserTable<Group>
        configKey="group.manager.table"
        testId="group-table"
        columns={columns}
        rows={list.data?.list ?? []}
        rowKey={(g) => g.id}
        loading={list.isFetching && !list.data}
        firstIndex={(paging.page - 1) * paging.size + 1}
        toolbar={
          <Input.Search
            allowClear
            placeholder={t('group.list.search')}
            style={{ width: 280 }}
            onSearch={(v) => {
              setKeyword(v.trim() || undefined);
              setPaging((p) => firstPage(p.size));
            }}
          />
        }
      />
      <div style={{ marginTop: 16 }}>
        <Paginator value={paging} total={list.data?.total ?? 0} onChange={setPaging} />
      </div>
      {tenantId && (
        <>
          <GroupFormDialog tenantId={tenantId} target={target} onClose={() => setTarget(null)} />
          <GroupMembersDrawer tenantId={tenantId} group={membersOf} onClose={() => setMembersOf(null)} />
          <GroupCommandsDrawer tenantId={tenantId} group={commandsOf} onClose={() => setCommandsOf(null)} />
          <GroupUpgradeDialog tenantId={tenantId} group={upgradeOf} onClose={() => setUpgradeOf(null)} />
        </>
      )}
    </Card>
  );
}
