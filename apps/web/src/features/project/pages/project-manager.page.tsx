import { PlusOutlined } from '@ant-design/icons';
import type { Project } from '@loggerhead/contract/schemas/project.ts';
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
import { projectApi, projectKeys, projectListQuery } from '../api/project.api.ts';
import { ProjectFormDialog } from '../components/project-form-dialog.tsx';
import { ProjectMembersDrawer } from '../components/project-members-drawer.tsx';

/** Projects (spec §1 projects): what each project holds, and which sub-users see only its devices. */
export default function ProjectManagerPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const { tenantId } = useSession();
  const [keyword, setKeyword] = useState<string | undefined>();
  const [paging, setPaging] = useState<PageState>(firstPage(20));
  const [target, setTarget] = useState<Project | 'new' | null>(null);
  const [membersOf, setMembersOf] = useState<Project | null>(null);
  const list = useQuery(projectListQuery(tenantId, { current_page: paging.page, page_size: paging.size, keyword }));

  const remove = useMutation({
    mutationFn: (id: string) => projectApi.remove(tenantId as string, id),
    onSuccess: () => {
      void message.success(t('project.delete.done'));
      return qc.invalidateQueries({ queryKey: projectKeys.all });
    },
  });

  const columns: ChooserColumn<Project>[] = [
    { key: 'name', title: t('project.col.name'), render: (p) => <Typography.Text strong>{p.name}</Typography.Text> },
    { key: 'description', title: t('project.col.description'), ellipsis: true, width: 220, render: (p) => p.description || EMPTY },
    { key: 'device_count', title: t('project.col.devices') },
    { key: 'group_count', title: t('project.col.groups') },
    { key: 'vehicle_count', title: t('project.col.vehicles') },
    { key: 'user_count', title: t('project.col.users') },
    { key: 'updated_at', title: t('project.col.updatedAt'), render: (p) => formatDateTime(p.updated_at) },
    {
      key: 'actions',
      title: t('project.col.actions'),
      always: true,
      fixed: 'right',
      render: (p) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setMembersOf(p)} data-testid="project-members-open">
            {t('project.action.members')}
          </Button>
          {can('project:project:update') && (
            <Button type="link" size="small" onClick={() => setTarget(p)}>
              {t('project.action.edit')}
            </Button>
          )}
          {can('project:project:delete') && (
            <ConfirmDeleteButton
              label={t('project.action.delete')}
              title={t('project.delete.title')}
              content={t('project.delete.confirm', { name: p.name })}
              onConfirm={() => remove.mutateAsync(p.id)}
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
          {t('project.manager.title')}
        </Typography.Title>
      }
      extra={
        can('project:project:create') && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setTarget('new')} data-testid="add-project">
            {t('project.list.add')}
          </Button>
        )
      }
    >
      <ColumnChooserTable<Project>
        configKey="project.manager.table"
        testId="project-table"
        columns={columns}
        rows={list.data?.list ?? []}
        rowKey={(p) => p.id}
        loading={list.isFetching && !list.data}
        firstIndex={(paging.page - 1) * paging.size + 1}
        toolbar={
          <Input.Search
            allowClear
            placeholder={t('project.list.search')}
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
          <ProjectFormDialog tenantId={tenantId} target={target} onClose={() => setTarget(null)} />
          <ProjectMembersDrawer tenantId={tenantId} project={membersOf} onClose={() => setMembersOf(null)} />
        </>
      )}
    </Card>
  );
}
