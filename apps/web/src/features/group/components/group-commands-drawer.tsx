import { COMMAND_STATES, type CommandState, FINAL_COMMAND_STATES, Operations } from '@loggerhead/contract/schemas/command.ts';
import type { Group } from '@loggerhead/contract/schemas/org.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Divider, Drawer, Flex, Form, Input, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Paginator } from '../../../components/data-view/paginator.tsx';
import { firstPage, type PageState } from '../../../components/data-view/paging.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { can } from '../../../session/can.ts';
import { groupApi, groupCommandQuery, groupCommandsQuery, groupKeys } from '../api/group.api.ts';

const STATE_COLOURS: Record<CommandState, string> = {
  queued: 'default',
  sent: 'processing',
  delivered: 'blue',
  answered: 'success',
  failed: 'error',
  timeout: 'warning',
  expired: 'default',
  cancelled: 'default',
};

function StateTag({ state, count }: { state: CommandState; count?: number }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATE_COLOURS[state]} data-testid={`state-${state}`}>
      {t(`group.state.${state}`)}
      {count !== undefined ? ` ${count}` : ''}
    </Tag>
  );
}

/** Starting params of the operations offered (the device checks them, as for a single command). */
const TEMPLATES: Record<string, string> = {
  [Operations.sendCan]: JSON.stringify({ frames: [{ channel: 0, id: '0x123', data: '0102030405060708' }] }, null, 2),
  [Operations.stopCan]: '{}',
  [Operations.getConfig]: '{}',
};

interface FormValues {
  description?: string;
  operation_name: string;
  params: string;
}

/**
 * Group commands (spec §7 /out-group-mgmt group command): a description and a payload sent to every
 * member, and each member's state as its own device command moves (queued, sent, answered…).
 */
export function GroupCommandsDrawer({ tenantId, group, onClose }: { tenantId: string; group: Group | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const [paging, setPaging] = useState<PageState>(firstPage());
  const [open, setOpen] = useState<string | null>(null);
  const groupId = group?.id ?? null;
  const history = useQuery(groupCommandsQuery(tenantId, groupId, { current_page: paging.page, page_size: paging.size }));
  const detail = useQuery(groupCommandQuery(tenantId, groupId, open));
  const maySend = can('group:device:command');

  const send = useMutation({
    mutationFn: (v: FormValues) =>
      groupApi.command(tenantId, groupId as string, {
        description: v.description?.trim() || undefined,
        payload: { operation_name: v.operation_name.trim(), operation_params: JSON.parse(v.params || '{}') },
      }),
    onSuccess: (c) => {
      void message.success(t('group.command.sent', { count: c.items.length }));
      setOpen(c.id);
      return qc.invalidateQueries({ queryKey: groupKeys.all });
    },
  });

  const jsonRule = {
    validator: (_: unknown, v: string) => {
      try {
        const o = JSON.parse(v || '{}');
        return o && typeof o === 'object' && !Array.isArray(o)
          ? Promise.resolve()
          : Promise.reject(new Error(t('group.command.paramsObject')));
      } catch {
        return Promise.reject(new Error(t('group.command.paramsJson')));
      }
    },
  };

  const states = (s: Record<string, number>) => (
    <Space size={[0, 4]} wrap>
      {COMMAND_STATES.filter((k) => s[k]).map((k) => (
        <StateTag key={k} state={k} count={s[k]} />
      ))}
    </Space>
  );

  return (
    <Drawer
      open={group !== null}
      onClose={onClose}
      width={820}
      title={t('group.command.title', { name: group?.name ?? '' })}
      destroyOnHidden
    >
      {maySend && (
        <Form
          form={form}
          layout="vertical"
          initialValues={{ operation_name: Operations.sendCan, params: TEMPLATES[Operations.sendCan] }}
          onFinish={(v) => send.mutate(v)}
        >
          <Form.Item name="description" label={t('group.command.description')} rules={[{ max: 256 }]}>
            <Input data-testid="group-command-description" />
          </Form.Item>
          <Form.Item name="operation_name" label={t('group.command.operation')} rules={[{ required: true, max: 128 }]}>
            <Select
              showSearch
              data-testid="group-command-operation"
              options={Object.keys(TEMPLATES).map((op) => ({ value: op, label: op }))}
              onChange={(op: string) => form.setFieldValue('params', TEMPLATES[op] ?? '{}')}
            />
          </Form.Item>
          <Form.Item name="params" label={t('group.command.params')} rules={[jsonRule]}>
            <Input.TextArea rows={5} className="lh-mono" data-testid="group-command-params" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={send.isPending} data-testid="group-command-send">
            {t('group.command.send')}
          </Button>
        </Form>
      )}
      {open && detail.data && (
        <>
          <Divider titlePlacement="start">{t('group.command.detail', { time: formatDateTime(detail.data.created_at) })}</Divider>
          <Flex vertical gap={8}>
            {states(detail.data.states)}
            {detail.data.items.some((i) => !FINAL_COMMAND_STATES.includes(i.state)) && (
              <Typography.Text type="secondary">{t('group.command.waiting')}</Typography.Text>
            )}
            <Table
              size="small"
              rowKey="things_id"
              pagination={false}
              dataSource={detail.data.items}
              data-testid="group-command-items"
              columns={[
                { title: t('group.members.name'), dataIndex: 'name' },
                {
                  title: t('group.members.id'),
                  dataIndex: 'third_things_id',
                  render: (v: string) => <Typography.Text className="lh-mono">{v}</Typography.Text>,
                },
                { title: t('group.command.state'), dataIndex: 'state', render: (s: CommandState) => <StateTag state={s} /> },
                { title: t('group.command.code'), dataIndex: 'code', render: (v: number | null) => (v === null ? '--' : v) },
                { title: t('group.command.message'), dataIndex: 'message', render: (v: string | null) => v || '--' },
                { title: t('group.command.answeredAt'), dataIndex: 'answered_at', render: (v: number | null) => formatDateTime(v) },
              ]}
            />
          </Flex>
        </>
      )}
      <Divider titlePlacement="start">{t('group.command.history')}</Divider>
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        loading={history.isFetching && !history.data}
        dataSource={history.data?.list ?? []}
        onRow={(r) => ({ onClick: () => setOpen(r.id), style: { cursor: 'pointer' } })}
        columns={[
          { title: t('group.command.createdAt'), dataIndex: 'created_at', render: (v: number) => formatDateTime(v) },
          { title: t('group.command.description'), dataIndex: 'description', render: (v: string | null) => v || '--' },
          { title: t('group.command.operation'), dataIndex: 'operation_name' },
          { title: t('group.command.states'), dataIndex: 'states', render: (s: Record<string, number>) => states(s) },
        ]}
      />
      <div style={{ marginTop: 16 }}>
        <Paginator value={paging} total={history.data?.total ?? 0} onChange={setPaging} />
      </div>
    </Drawer>
  );
}
