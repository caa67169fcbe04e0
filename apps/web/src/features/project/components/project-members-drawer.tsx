import type { Project } from '@loggerhead/contract/schemas/project.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Badge, Button, Drawer, Flex, Select, Table, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Paginator } from '../../../components/data-view/paginator.tsx';
import { firstPage, type PageState, rowNumber } from '../../../components/data-view/paging.ts';
import { can } from '../../../session/can.ts';
import {
  type PickerKind,
  type ProjectBind,
  type ProjectUnbind,
  pickerQuery,
  projectApi,
  projectDevicesQuery,
  projectKeys,
  projectMembersQuery,
} from '../api/project.api.ts';

interface Props {
  tenantId: string;
  project: Project | null;
  onClose: () => void;
}

type Access = 'read' | 'write';

/** Picks members of one kind and adds them to the project. */
function AddMembers({
  tenantId,
  kind,
  testId,
  onAdd,
  withAccess,
}: {
  tenantId: string;
  kind: PickerKind;
  testId: string;
  onAdd: (ids: string[], access: Access) => Promise<unknown>;
  withAccess?: boolean;
}) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<string[]>([]);
  const [access, setAccess] = useState<Access>('read');
  const [busy, setBusy] = useState(false);
  const options = useQuery(pickerQuery(tenantId, kind, true));
  return (
    <Flex gap={8} style={{ marginBottom: 16 }}>
      <Select
        mode="multiple"
        allowClear
        showSearch
        optionFilterProp="label"
        style={{ flex: 1 }}
        placeholder={t(`project.members.pick.${kind}`)}
        aria-label={t(`project.members.pick.${kind}`)}
        data-testid={`${testId}-pick`}
        loading={options.isFetching}
        value={picked}
        onChange={setPicked}
        options={options.data ?? []}
      />
      {withAccess && (
        <Select<Access>
          style={{ width: 120 }}
          value={access}
          onChange={setAccess}
          aria-label={t('project.members.access')}
          data-testid={`${testId}-access`}
          options={(['read', 'write'] as const).map((a) => ({ value: a, label: t(`project.access.${a}`) }))}
        />
      )}
      <Button
        type="primary"
        disabled={!picked.length}
        loading={busy}
        data-testid={`${testId}-add`}
        onClick={async () => {
          setBusy(true);
          try {
            await onAdd(picked, access);
            setPicked([]);
          } finally {
            setBusy(false);
          }
        }}
      >
        {t('project.members.add')}
      </Button>
    </Flex>
  );
}

/** A project's devices, groups, vehicles and sub-users: add and remove them (the manager). */
export function ProjectMembersDrawer({ tenantId, project, onClose }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [paging, setPaging] = useState<PageState>(firstPage(20));
  const mayBind = can('project:project:bind');
  const mayUnbind = can('project:project:unbind');
  const id = project?.id ?? null;
  const devices = useQuery(projectDevicesQuery(tenantId, id, { current_page: paging.page, page_size: paging.size }));
  const members = useQuery(projectMembersQuery(tenantId, id));

  const refresh = (key: 'project.members.added' | 'project.members.removed') => (r: { changed: number }) => {
    void message.success(t(key, { count: r.changed }));
    return qc.invalidateQueries({ queryKey: projectKeys.all });
  };
  const bind = useMutation({
    mutationFn: (body: ProjectBind) => projectApi.bind(tenantId, id as string, body),
    onSuccess: refresh('project.members.added'),
  });
  const unbind = useMutation({
    mutationFn: (body: ProjectUnbind) => projectApi.unbind(tenantId, id as string, body),
    onSuccess: refresh('project.members.removed'),
  });
  const removeButton = (body: ProjectUnbind, key: string) =>
    mayUnbind ? (
      <Button
        type="link"
        size="small"
        danger
        data-testid="project-member-remove"
        loading={unbind.isPending && JSON.stringify(unbind.variables) === key}
        onClick={() => unbind.mutate(body)}
      >
        {t('project.members.remove')}
      </Button>
    ) : null;
  const actions = mayUnbind ? [{ title: t('project.col.actions'), key: 'actions', width: 100 }] : [];

  const named = (kind: 'groups' | 'vehicles', field: 'group_ids' | 'vehicle_ids') => (
    <>
      {mayBind && (
        <AddMembers tenantId={tenantId} kind={kind} testId={`project-${kind}`} onAdd={(ids) => bind.mutateAsync({ [field]: ids })} />
      )}
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        data-testid={`project-${kind}`}
        loading={members.isFetching && !members.data}
        dataSource={members.data?.[kind] ?? []}
        columns={[
          { title: t(`project.members.${kind}Name`), dataIndex: 'name' },
          ...actions.map((a) => ({
            ...a,
            render: (_v: unknown, r: { id: string }) => removeButton({ [field]: [r.id] }, JSON.stringify({ [field]: [r.id] })),
          })),
        ]}
      />
    </>
  );

  return (
    <Drawer
      open={project !== null}
      onClose={onClose}
      width={760}
      title={t('project.members.title', { name: project?.name ?? '' })}
      destroyOnHidden
    >
      <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t('project.members.scopeNote')} />
      <Tabs
        items={[
          {
            key: 'things',
            label: t('project.members.tab.things'),
            children: (
              <>
                {mayBind && (
                  <AddMembers
                    tenantId={tenantId}
                    kind="things"
                    testId="project-things"
                    onAdd={(ids) => bind.mutateAsync({ things_ids: ids })}
                  />
                )}
                <Table
                  size="small"
                  rowKey="things_id"
                  pagination={false}
                  data-testid="project-things"
                  loading={devices.isFetching && !devices.data}
                  dataSource={devices.data?.list ?? []}
                  columns={[
                    { title: '#', key: 'n', width: 56, render: (_v, _r, i) => rowNumber(paging.page, paging.size, i) },
                    { title: t('project.members.deviceName'), dataIndex: 'name' },
                    {
                      title: t('project.members.deviceId'),
                      dataIndex: 'third_things_id',
                      render: (v: string) => <Typography.Text className="lh-mono">{v}</Typography.Text>,
                    },
                    {
                      title: t('project.members.online'),
                      dataIndex: 'is_online',
                      render: (v: boolean) => (
                        <Badge status={v ? 'success' : 'default'} text={v ? t('project.members.isOnline') : t('project.members.offline')} />
                      ),
                    },
                    {
                      title: t('project.members.via'),
                      dataIndex: 'direct',
                      render: (v: boolean) => <Tag>{v ? t('project.members.direct') : t('project.members.indirect')}</Tag>,
                    },
                    ...actions.map((a) => ({
                      ...a,
                      render: (_v: unknown, r: { things_id: string; direct: boolean }) =>
                        r.direct ? removeButton({ things_ids: [r.things_id] }, JSON.stringify({ things_ids: [r.things_id] })) : null,
                    })),
                  ]}
                />
                <div style={{ marginTop: 16 }}>
                  <Paginator value={paging} total={devices.data?.total ?? 0} onChange={setPaging} />
                </div>
              </>
            ),
          },
          { key: 'groups', label: t('project.members.tab.groups'), children: named('groups', 'group_ids') },
          { key: 'vehicles', label: t('project.members.tab.vehicles'), children: named('vehicles', 'vehicle_ids') },
          {
            key: 'users',
            label: t('project.members.tab.users'),
            children: (
              <>
                {mayBind && (
                  <AddMembers
                    tenantId={tenantId}
                    kind="users"
                    testId="project-users"
                    withAccess
                    onAdd={(ids, access) => bind.mutateAsync({ users: ids.map((user_id) => ({ user_id, access })) })}
                  />
                )}
                <Table
                  size="small"
                  rowKey="user_id"
                  pagination={false}
                  data-testid="project-users"
                  loading={members.isFetching && !members.data}
                  dataSource={members.data?.users ?? []}
                  columns={[
                    { title: t('project.members.username'), dataIndex: 'username' },
                    { title: t('project.members.access'), dataIndex: 'access', render: (v: Access) => t(`project.access.${v}`) },
                    ...actions.map((a) => ({
                      ...a,
                      render: (_v: unknown, r: { user_id: string }) =>
                        removeButton({ user_ids: [r.user_id] }, JSON.stringify({ user_ids: [r.user_id] })),
                    })),
                  ]}
                />
              </>
            ),
          },
        ]}
      />
    </Drawer>
  );
}
