import type { RouteResponse, Routes } from '@loggerhead/contract/routes/index.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, Input, Modal, Popconfirm, Select, Space, Table, Tag, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { webDeployApi } from '../api/web-deploy.api.ts';
import { WebReleaseDialog } from './web-release-dialog.tsx';

type Version = RouteResponse<typeof Routes.webConfig.versions>[number];
type DeployUser = RouteResponse<typeof Routes.webConfig.deployUsers>[number];
type DeployLog = RouteResponse<typeof Routes.webConfig.deployLogs>[number];
const KEY = ['system', 'web-deploy'] as const;

/**
 * System manager: the console versions (upload a built console as .tar.gz; release after reviewing
 * its files and index.html with the password; roll back; serve the built console again; remove),
 * the deploy configuration, the server configuration, the web-deploy users, the deploy log.
 */
export function WebDeployPanel() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: KEY });
  const versions = useQuery({ queryKey: [...KEY, 'versions'], queryFn: ({ signal }) => webDeployApi.versions(signal) });
  const logs = useQuery({ queryKey: [...KEY, 'logs'], queryFn: ({ signal }) => webDeployApi.logs(signal) });
  const users = useQuery({ queryKey: [...KEY, 'users'], queryFn: ({ signal }) => webDeployApi.users(signal) });
  const config = useQuery({ queryKey: [...KEY, 'config'], queryFn: ({ signal }) => webDeployApi.config(signal) });
  const server = useQuery({ queryKey: [...KEY, 'server'], queryFn: ({ signal }) => webDeployApi.serverConfig(signal) });
  const [uploadOpen, setUploadOpen] = useState(false);
  const [userOpen, setUserOpen] = useState(false);
  const [passwordOf, setPasswordOf] = useState<DeployUser | null>(null);
  const [releasing, setReleasing] = useState<Version | null>(null);
  const [uploadForm] = Form.useForm<{ version: string; description?: string }>();
  const [userForm] = Form.useForm<{ username: string; password: string }>();
  const [passwordForm] = Form.useForm<{ password: string }>();
  const [file, setFile] = useState<File | null>(null);

  const run = useMutation({ mutationFn: (f: () => Promise<unknown>) => f(), onSuccess: refresh });
  const upload = useMutation({
    mutationFn: (v: { version: string; description?: string }) => webDeployApi.upload(v.version, v.description ?? '', file as File),
    onSuccess: () => {
      setUploadOpen(false);
      uploadForm.resetFields();
      setFile(null);
      refresh();
    },
  });
  const createUser = useMutation({
    mutationFn: (v: { username: string; password: string }) => webDeployApi.createUser(v),
    onSuccess: () => {
      setUserOpen(false);
      userForm.resetFields();
      refresh();
    },
  });
  const setPassword = useMutation({
    mutationFn: (v: { password: string }) => webDeployApi.setPassword(passwordOf?.id as string, v.password),
    onSuccess: () => {
      setPasswordOf(null);
      passwordForm.resetFields();
      refresh();
    },
  });
  const password = [
    { required: true, message: t('system.deploy.passwordRule') },
    { pattern: /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d).{8,64}$/, message: t('system.deploy.passwordRule') },
  ];

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }} data-testid="web-deploy-panel">
      <Card
        size="small"
        data-testid="deploy-versions"
        title={t('system.deploy.versions')}
        extra={
          <Space>
            <Popconfirm title={t('system.deploy.builtInConfirm')} onConfirm={() => run.mutate(() => webDeployApi.builtIn())}>
              <Button danger loading={run.isPending} data-testid="deploy-built-in">
                {t('system.deploy.builtIn')}
              </Button>
            </Popconfirm>
            <Button onClick={() => run.mutate(() => webDeployApi.rollback())} loading={run.isPending} data-testid="deploy-rollback">
              {t('system.deploy.rollback')}
            </Button>
            <Button type="primary" onClick={() => setUploadOpen(true)} data-testid="deploy-upload">
              {t('system.deploy.upload')}
            </Button>
          </Space>
        }
      >
        <Table<Version>
          rowKey="id"
          size="small"
          pagination={false}
          loading={versions.isFetching}
          dataSource={versions.data ?? []}
          columns={[
            { title: t('system.deploy.version'), dataIndex: 'version' },
            { title: t('system.deploy.description'), dataIndex: 'description' },
            { title: t('system.deploy.files'), dataIndex: 'file_count', width: 90 },
            { title: t('system.deploy.uploadedAt'), dataIndex: 'created_at', render: (v: number) => formatDateTime(v), width: 180 },
            {
              title: t('system.deploy.state'),
              dataIndex: 'released',
              width: 110,
              render: (r: boolean) => (r ? <Tag color="green">{t('system.deploy.served')}</Tag> : null),
            },
            {
              title: t('system.deploy.actions'),
              width: 190,
              render: (_: unknown, v: Version) => (
                <Space>
                  <Button size="small" disabled={v.released} onClick={() => setReleasing(v)}>
                    {t('system.deploy.release')}
                  </Button>
                  <Popconfirm
                    title={t(v.released ? 'system.deploy.removeServedConfirm' : 'system.deploy.removeConfirm')}
                    onConfirm={() => run.mutate(() => webDeployApi.remove(v.id))}
                  >
                    <Button size="small" danger>
                      {t('system.deploy.remove')}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </Card>

      <Card size="small" title={t('system.deploy.config')}>
        {config.data && (
          <Form
            layout="inline"
            initialValues={config.data}
            onFinish={(v: { resourcePath: string; isDebug: 0 | 1 }) => run.mutate(() => webDeployApi.saveConfig(v))}
          >
            <Form.Item name="resourcePath" label="resourcePath" rules={[{ required: true, pattern: /^\/[\w./-]*$/ }]}>
              <Input style={{ width: 200 }} />
            </Form.Item>
            <Form.Item name="isDebug" label="isDebug">
              <Select
                style={{ width: 120 }}
                options={[
                  { value: 0, label: t('system.deploy.debugOff') },
                  { value: 1, label: t('system.deploy.debugOn') },
                ]}
              />
            </Form.Item>
            <Button htmlType="submit">{t('system.deploy.save')}</Button>
          </Form>
        )}
      </Card>

      <Card size="small" title={t('system.deploy.serverConfig')}>
        {server.data && (
          <Form
            initialValues={{ items: Object.entries(server.data).map(([name, value]) => ({ name, value })) }}
            onFinish={(v: { items?: { name: string; value: string }[] }) =>
              run.mutate(() => webDeployApi.saveServerConfig(Object.fromEntries((v.items ?? []).map((i) => [i.name, i.value ?? '']))))
            }
          >
            <Form.List name="items">
              {(fields, { add, remove }) => (
                <>
                  {fields.map((f) => (
                    <Space key={f.key} align="baseline">
                      <Form.Item name={[f.name, 'name']} rules={[{ required: true, pattern: /^[\w.-]{1,64}$/ }]}>
                        <Input placeholder={t('system.deploy.settingName')} style={{ width: 200 }} />
                      </Form.Item>
                      <Form.Item name={[f.name, 'value']}>
                        <Input placeholder={t('system.deploy.settingValue')} style={{ width: 320 }} />
                      </Form.Item>
                      <Button type="link" danger onClick={() => remove(f.name)}>
                        {t('system.deploy.remove')}
                      </Button>
                    </Space>
                  ))}
                  <Space>
                    <Button onClick={() => add({ name: '', value: '' })}>{t('system.deploy.addSetting')}</Button>
                    <Button htmlType="submit">{t('system.deploy.save')}</Button>
                  </Space>
                </>
              )}
            </Form.List>
          </Form>
        )}
      </Card>

      <Card
        size="small"
        title={t('system.deploy.users')}
        extra={
          <Button onClick={() => setUserOpen(true)} data-testid="deploy-user-create">
            {t('system.deploy.createUser')}
          </Button>
        }
      >
        <Typography.Paragraph type="secondary">{t('system.deploy.usersHint')}</Typography.Paragraph>
        <Table<DeployUser>
          rowKey="id"
          size="small"
          pagination={false}
          dataSource={users.data ?? []}
          columns={[
            { title: t('system.deploy.username'), dataIndex: 'username' },
            { title: t('system.deploy.createdAt'), dataIndex: 'created_at', render: (v: number) => formatDateTime(v) },
            {
              title: t('system.deploy.lastLogin'),
              dataIndex: 'last_login_at',
              render: (v: number | null) => (v ? formatDateTime(v) : '—'),
            },
            {
              title: t('system.deploy.actions'),
              width: 200,
              render: (_: unknown, u: DeployUser) => (
                <Space>
                  <Button size="small" onClick={() => setPasswordOf(u)}>
                    {t('system.deploy.setPassword')}
                  </Button>
                  <Popconfirm
                    title={t('system.deploy.removeUserConfirm')}
                    onConfirm={() => run.mutate(() => webDeployApi.removeUser(u.id))}
                  >
                    <Button size="small" danger>
                      {t('system.deploy.remove')}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </Card>

      <Card size="small" title={t('system.deploy.log')} data-testid="deploy-log">
        <Table<DeployLog>
          rowKey="id"
          size="small"
          loading={logs.isFetching}
          dataSource={logs.data ?? []}
          pagination={{ pageSize: 10 }}
          columns={[
            { title: t('system.deploy.when'), dataIndex: 'created_at', render: (v: number) => formatDateTime(v), width: 180 },
            {
              title: t('system.deploy.action'),
              dataIndex: 'action',
              render: (a: string) => t(`system.deploy.act.${a}`, { defaultValue: a }),
            },
            { title: t('system.deploy.subject'), dataIndex: 'version' },
            { title: t('system.deploy.who'), dataIndex: 'username' },
            { title: t('system.deploy.role'), dataIndex: 'role', render: (r: DeployLog['role']) => t(`system.deploy.roleOf.${r}`) },
          ]}
        />
      </Card>

      <WebReleaseDialog
        version={releasing}
        onClose={() => setReleasing(null)}
        onReleased={() => {
          setReleasing(null);
          refresh();
        }}
      />

      <Modal
        open={uploadOpen}
        title={t('system.deploy.upload')}
        onCancel={() => setUploadOpen(false)}
        onOk={() => uploadForm.submit()}
        okButtonProps={{ disabled: !file, loading: upload.isPending }}
        destroyOnHidden
      >
        <Form form={uploadForm} layout="vertical" onFinish={(v) => upload.mutate(v)}>
          <Form.Item name="version" label={t('system.deploy.version')} rules={[{ required: true, pattern: /^[\w.+-]{1,64}$/ }]}>
            <Input placeholder="1.4.0" />
          </Form.Item>
          <Form.Item name="description" label={t('system.deploy.description')}>
            <Input maxLength={256} />
          </Form.Item>
          <Upload
            accept=".tar.gz,.tgz,application/gzip"
            maxCount={1}
            beforeUpload={(f) => {
              setFile(f);
              return false;
            }}
            onRemove={() => setFile(null)}
          >
            <Button>{t('system.deploy.chooseBundle')}</Button>
          </Upload>
        </Form>
      </Modal>

      <Modal
        open={userOpen}
        title={t('system.deploy.createUser')}
        onCancel={() => setUserOpen(false)}
        onOk={() => userForm.submit()}
        okButtonProps={{ loading: createUser.isPending }}
        destroyOnHidden
      >
        <Form form={userForm} layout="vertical" onFinish={(v) => createUser.mutate(v)}>
          <Form.Item name="username" label={t('system.deploy.username')} rules={[{ required: true, pattern: /^[\w.@-]{3,64}$/ }]}>
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item name="password" label={t('system.deploy.password')} rules={password}>
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        </Form>
      </Modal>

      <Modal
        open={passwordOf !== null}
        title={`${t('system.deploy.setPassword')}: ${passwordOf?.username ?? ''}`}
        onCancel={() => setPasswordOf(null)}
        onOk={() => passwordForm.submit()}
        okButtonProps={{ loading: setPassword.isPending }}
        destroyOnHidden
      >
        <Form form={passwordForm} layout="vertical" onFinish={(v) => setPassword.mutate(v)}>
          <Form.Item name="password" label={t('system.deploy.password')} rules={password}>
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}
