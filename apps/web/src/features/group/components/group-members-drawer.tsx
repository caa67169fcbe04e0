import type { Group } from '@loggerhead/contract/schemas/org.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Badge, Button, Drawer, Flex, Select, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Paginator } from '../../../components/data-view/paginator.tsx';
import { firstPage, type PageState, rowNumber } from '../../../components/data-view/paging.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { can } from '../../../session/can.ts';
import { groupApi, groupKeys, groupMembersQuery, pickerDevicesQuery } from '../api/group.api.ts';

interface Props {
  tenantId: string;
  group: Group | null;
  onClose: () => void;
}

/** A group's devices: bind more (the devices picker) and unbind (spec §7 bind/unbind). */
export function GroupMembersDrawer({ tenantId, group, onClose }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [paging, setPaging] = useState<PageState>(firstPage(20));
  const [picked, setPicked] = useState<string[]>([]);
  const mayBind = can('group:device:bind');
  const mayUnbind = can('group:device:unbind');
  const members = useQuery(groupMembersQuery(tenantId, group?.id ?? null, { current_page: paging.page, page_size: paging.size }));
  const devices = useQuery(pickerDevicesQuery(tenantId, group !== null && mayBind));

  const done = (key: 'group.members.bound' | 'group.members.unbound') => (r: { changed: number }) => {
    void message.success(t(key, { count: r.changed }));
    return qc.invalidateQueries({ queryKey: groupKeys.all });
  };
  const bind = useMutation({
    mutationFn: () => groupApi.bind(tenantId, group?.id as string, picked),
    onSuccess: (r) => {
      setPicked([]);
      return done('group.members.bound')(r);
    },
  });
  const unbind = useMutation({
    mutationFn: (id: string) => groupApi.unbind(tenantId, group?.id as string, [id]),
    onSuccess: done('group.members.unbound'),
  });

  return (
    <Drawer
      open={group !== null}
      onClose={onClose}
      width={720}
      title={t('group.members.title', { name: group?.name ?? '' })}
      destroyOnHidden
    >
      {mayBind && (
        <Flex gap={8} style={{ marginBottom: 16 }}>
          <Select
            mode="multiple"
            allowClear
            showSearch
            optionFilterProp="label"
            style={{ flex: 1 }}
            placeholder={t('group.members.pick')}
            aria-label={t('group.members.pick')}
            data-testid="group-device-pick"
            loading={devices.isFetching}
            value={picked}
            onChange={setPicked}
            options={(devices.data ?? [])
              .filter((d) => d.access === 'write')
              .map((d) => ({ value: d.id, label: `${d.name} (${d.third_things_id})` }))}
          />
          <Button type="primary" disabled={!picked.length} loading={bind.isPending} onClick={() => bind.mutate()} data-testid="group-bind">
            {t('group.members.bind')}
          </Button>
        </Flex>
      )}
      <Table
        size="small"
        rowKey="things_id"
        pagination={false}
        loading={members.isFetching && !members.data}
        dataSource={members.data?.list ?? []}
        data-testid="group-members"
        columns={[
          { title: '#', key: 'n', width: 56, render: (_v, _r, i) => rowNumber(paging.page, paging.size, i) },
          { title: t('group.members.name'), dataIndex: 'name' },
          {
            title: t('group.members.id'),
            dataIndex: 'third_things_id',
            render: (v: string) => <Typography.Text className="lh-mono">{v}</Typography.Text>,
          },
          {
            title: t('group.members.online'),
            dataIndex: 'is_online',
            render: (v: boolean) => (
              <Badge status={v ? 'success' : 'default'} text={v ? t('group.members.isOnline') : t('group.members.offline')} />
            ),
          },
          { title: t('group.members.boundAt'), dataIndex: 'bound_at', render: (v: number) => formatDateTime(v) },
          ...(mayUnbind
            ? [
                {
                  title: t('group.col.actions'),
                  key: 'actions',
                  render: (_v: unknown, r: { things_id: string }) => (
                    <Button
                      type="link"
                      size="small"
                      danger
                      loading={unbind.isPending && unbind.variables === r.things_id}
                      onClick={() => unbind.mutate(r.things_id)}
                    >
                      {t('group.members.unbind')}
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
      />
      <div style={{ marginTop: 16 }}>
        <Paginator value={paging} total={members.data?.total ?? 0} onChange={setPaging} />
      </div>
    </Drawer>
  );
}
