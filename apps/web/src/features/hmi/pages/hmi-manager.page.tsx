import { PlusOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { HmiScreenSummary, HmiUser } from '@loggerhead/contract/schemas/hmi.ts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Modal, Select, Space, Table, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ConfirmDeleteButton } from '../../../components/confirm-delete-button.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { mayCall } from '../../../session/can.ts';
import { useSession } from '../../../session/use-session.ts';
import { hmiApi, hmiKeys } from '../api/hmi.api.ts';

/** A new screen: name and description; the editor opens on it. */
function NewScreenDialog({ tenantId, open, onClose }: { tenantId: string; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [form] = Form.useForm<{ name: string; description?: string }>();
  const create = useMutation({
    mutationFn: (v: { name: string; description?: string }) =>
      hmiApi.create(tenantId, { name: v.name.trim(), description: v.description?.trim() ?? '' }),
    onSuccess: (s) => {
      void qc.invalidateQueries({ queryKey: hmiKeys.all });
      onClose();
      navigate(`/Container/HmiManager/HmiEditor?id=${s.id}`);
    },
  });
  return (
    <Modal
      open={open}
      title={t('hmi.list.new')}
      okText={t('common.action.ok')}
      cancelText={t('common.action.cancel')}
      confirmLoading={create.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" name="hmi-new" onFinish={(v) => create.mutate(v)} preserve={false}>
        <Form.Item
          name="name"
          label={t('hmi.field.name')}
          rules={[{ required: true, whitespace: true, max: 64, message: t('hmi.field.nameRule') }]}
        >
          <Input data-testid="hmi-new-name" maxLength={64} />
        </Form.Item>
        <Form.Item name="description" label={t('hmi.field.description')}>
          <Input.TextArea maxLength={256} autoSize={{ minRows: 1, maxRows: 3 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function ScreenList({ tenantId }: { tenantId: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [page, setPage] = useState({ current: 1, size: 20 });
  const [keyword, setKeyword] = useState('');
  const [adding, setAdding] = useState(false);
  const list = useQuery({
    queryKey: hmiKeys.list(tenantId, page.current, page.size, keyword),
    queryFn: ({ signal }) =>
      hmiApi.list(tenantId, { current_page: page.current, page_size: page.size, ...(keyword ? { keyword } : {}) }, signal),
    placeholderData: keepPreviousData,
  });
  const status = useMutation({
    mutationFn: (s: HmiScreenSummary) => (s.status === 1 ? hmiApi.unpublish(tenantId, s.id) : hmiApi.publish(tenantId, s.id)),
    onSuccess: () => void qc.invalidateQueries({ queryKey: hmiKeys.all }),
  });
  return (
    <>
      <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
        <Input.Search
          allowClear
          placeholder={t('hmi.list.search')}
          style={{ width: 240 }}
          onSearch={(v) => {
            setKeyword(v.trim());
            setPage((p) => ({ ...p, current: 1 }));
          }}
        />
        {mayCall(Routes.hmi.create) && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="hmi-new">
            {t('hmi.list.new')}
          </Button>
        )}
      </Space>
      <Table<HmiScreenSummary>
        rowKey="id"
        size="middle"
        loading={list.isFetching}
        dataSource={list.data?.list ?? []}
        locale={{ emptyText: t('hmi.list.empty') }}
        pagination={{
          current: page.current,
          pageSize: page.size,
          total: list.data?.total ?? 0,
          onChange: (current, size) => setPage({ current, size }),
        }}
        columns={[
          { title: t('hmi.field.name'), dataIndex: 'name' },
          { title: t('hmi.field.description'), dataIndex: 'description', ellipsis: true },
          {
            title: t('hmi.col.status'),
            dataIndex: 'status',
            render: (s: number, r) => (
              <Tag color={s === 1 ? 'green' : 'default'} data-testid={`hmi-status-${r.name}`}>
                {t(s === 1 ? 'hmi.status.published' : 'hmi.status.draft')}
              </Tag>
            ),
          },
          { title: t('hmi.col.widgets'), dataIndex: 'widget_count' },
          { title: t('hmi.col.users'), dataIndex: 'user_count' },
          { title: t('hmi.col.updated'), dataIndex: 'updated_at', render: (v: number) => formatDateTime(v) },
          {
            title: t('hmi.col.actions'),
            render: (_v, s) => (
              <Space size={4} wrap>
                <Button
                  type="link"
                  size="small"
                  onClick={() => navigate(`/Container/HmiManager/HmiEditor?id=${s.id}`)}
                  data-testid={`hmi-edit-${s.name}`}
                >
                  {t('hmi.action.edit')}
                </Button>
                <Button type="link" size="small" onClick={() => navigate(`/HmiView?id=${s.id}`)} data-testid={`hmi-view-${s.name}`}>
                  {t('hmi.action.view')}
                </Button>
                {mayCall(Routes.hmi.publish) && (
                  <Button
                    type="link"
                    size="small"
                    loading={status.isPending && status.variables?.id === s.id}
                    onClick={() => status.mutate(s)}
                    data-testid={`hmi-publish-${s.name}`}
                  >
                    {t(s.status === 1 ? 'hmi.action.unpublish' : 'hmi.action.publish')}
                  </Button>
                )}
                {mayCall(Routes.hmi.remove) && (
                  <ConfirmDeleteButton
                    label={t('hmi.action.delete')}
                    title={t('hmi.delete.title', { name: s.name })}
                    content={t('hmi.delete.text')}
                    onConfirm={async () => {
                      await hmiApi.remove(tenantId, s.id);
                      await qc.invalidateQueries({ queryKey: hmiKeys.all });
                    }}
                  />
                )}
              </Space>
            ),
          },
        ]}
      />
      <NewScreenDialog tenantId={tenantId} open={adding} onClose={() => setAdding(false)} />
    </>
  );
}

/** The tenant's sub-users and the screens each is given (the manager's). */
function HmiUsers({ tenantId }: { tenantId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const users = useQuery({ queryKey: hmiKeys.users(tenantId), queryFn: ({ signal }) => hmiApi.users(tenantId, signal) });
  const screens = useQuery({
    queryKey: hmiKeys.list(tenantId, 1, 1000, ''),
    queryFn: ({ signal }) => hmiApi.list(tenantId, { current_page: 1, page_size: 1000 }, signal),
  });
  const [edits, setEdits] = useState<Record<string, string[]>>({});
  const save = useMutation({
    mutationFn: (u: HmiUser) => hmiApi.setUserScreens(tenantId, u.user_id, edits[u.user_id] ?? u.screen_ids),
    onSuccess: (u) => {
      void message.success(t('hmi.users.saved'));
      setEdits(({ [u.user_id]: _done, ...rest }) => rest);
      void qc.invalidateQueries({ queryKey: hmiKeys.all });
    },
  });
  const options = (screens.data?.list ?? []).map((s) => ({
    value: s.id,
    label: s.status === 1 ? s.name : `${s.name} (${t('hmi.status.draft')})`,
  }));
  return (
    <>
      <Typography.Paragraph type="secondary">{t('hmi.users.help')}</Typography.Paragraph>
      <Table<HmiUser>
        rowKey="user_id"
        size="middle"
        loading={users.isFetching}
        dataSource={users.data ?? []}
        locale={{ emptyText: t('hmi.users.empty') }}
        pagination={false}
        columns={[
          { title: t('hmi.users.username'), dataIndex: 'username' },
          { title: t('hmi.users.name'), dataIndex: 'name' },
          {
            title: t('hmi.users.screens'),
            render: (_v, u) => (
              <Select
                mode="multiple"
                style={{ minWidth: 320 }}
                value={edits[u.user_id] ?? u.screen_ids}
                options={options}
                optionFilterProp="label"
                disabled={!mayCall(Routes.hmi.setUserScreens)}
                onChange={(ids: string[]) => setEdits((e) => ({ ...e, [u.user_id]: ids }))}
                data-testid={`hmi-user-screens-${u.username}`}
              />
            ),
          },
          {
            title: t('hmi.col.actions'),
            render: (_v, u) =>
              mayCall(Routes.hmi.setUserScreens) && (
                <Button
                  type="link"
                  disabled={!edits[u.user_id]}
                  loading={save.isPending && save.variables?.user_id === u.user_id}
                  onClick={() => save.mutate(u)}
                  data-testid={`hmi-user-save-${u.username}`}
                >
                  {t('hmi.users.save')}
                </Button>
              ),
          },
        ]}
      />
    </>
  );
}

/** HMI screens (spec /out-hmi): the tenant's screens, and the HMI users they are given to. */
export default function HmiManagerPage() {
  const { t } = useTranslation();
  const { tenantId } = useSession();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'users' ? 'users' : 'screens';
  if (!tenantId) return null;
  return (
    <Card variant="borderless">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('app.menu.hmi')}
      </Typography.Title>
      <Tabs
        activeKey={tab}
        onChange={(k) => setParams({ tab: k }, { replace: true })}
        destroyOnHidden
        items={[
          { key: 'screens', label: t('hmi.tab.screens'), children: <ScreenList tenantId={tenantId} /> },
          ...(mayCall(Routes.hmi.users) ? [{ key: 'users', label: t('hmi.tab.users'), children: <HmiUsers tenantId={tenantId} /> }] : []),
        ]}
      />
    </Card>
  );
}
