import { LockOutlined } from '@ant-design/icons';
import type { RouteResponse, Routes } from '@loggerhead/contract/routes/index.ts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Descriptions, Form, Input, Modal, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/error-funnel.ts';
import { formatBytes } from '../../../lib/format.ts';
import { webDeployApi } from '../api/web-deploy.api.ts';

type Version = RouteResponse<typeof Routes.webConfig.versions>[number];
type Review = RouteResponse<typeof Routes.webConfig.reviewVersion>;

const DIFF_COLOR = { '+': '#e6ffec', '-': '#ffebe9', '=': 'transparent' } as const;
const CHANGE_COLOR = { added: 'green', changed: 'orange', same: 'default' } as const;

/**
 * Releasing a console version (decision 0206): whoever changes the console's code holds every
 * session opened in it, so the system manager first sees the version's files, who uploaded it and
 * what changes in index.html against the one served now, then enters the own password again.
 */
export function WebReleaseDialog({
  version,
  onClose,
  onReleased,
}: {
  version: Version | null;
  onClose: () => void;
  onReleased: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<{ password: string }>();
  const review = useQuery({
    queryKey: ['system', 'web-deploy', 'review', version?.id],
    queryFn: ({ signal }) => webDeployApi.review(version?.id as string, signal),
    enabled: version !== null,
  });
  const release = useMutation({
    meta: { silent: true },
    mutationFn: (password: string) => webDeployApi.release(version?.id as string, password),
    onSuccess: () => {
      form.resetFields();
      onReleased();
    },
    onError: (e) => form.setFields([{ name: 'password', errors: [errorText(e, t, (k) => i18n.exists(k))] }]),
  });
  const r: Review | undefined = review.data;
  const changed = r?.index_diff.some((d) => d.op !== '=') ?? false;

  return (
    <Modal
      open={version !== null}
      width={900}
      title={t('system.deploy.releaseTitle', { version: version?.version ?? '' })}
      okText={t('system.deploy.release')}
      cancelText={t('common.action.cancel')}
      okButtonProps={{ disabled: !r, danger: true }}
      confirmLoading={release.isPending}
      destroyOnHidden
      onOk={() => void form.validateFields().then((v) => release.mutate(v.password))}
      onCancel={() => {
        form.resetFields();
        onClose();
      }}
    >
      <div data-testid="deploy-release-review">
        <Alert type="warning" showIcon style={{ marginBottom: 12 }} message={t('system.deploy.releaseWarning')} />
        {r && (
          <>
            <Descriptions size="small" column={2} style={{ marginBottom: 12 }}>
              <Descriptions.Item label={t('system.deploy.uploadedBy')}>
                {r.uploaded_by ? `${r.uploaded_by.username} (${t(`system.deploy.roleOf.${r.uploaded_by.role}`)})` : '—'}
              </Descriptions.Item>
              <Descriptions.Item label={t('system.deploy.comparedWith')}>
                {r.served ? r.served.version : t('system.deploy.builtInConsole')}
              </Descriptions.Item>
            </Descriptions>
            <Typography.Title level={5}>{t('system.deploy.bundleFiles', { count: r.files.length })}</Typography.Title>
            <Table
              data-testid="deploy-release-files"
              rowKey="path"
              size="small"
              pagination={false}
              scroll={{ y: 180 }}
              dataSource={r.files}
              columns={[
                { title: t('system.deploy.filePath'), dataIndex: 'path' },
                {
                  title: t('system.deploy.fileChange'),
                  dataIndex: 'change',
                  width: 100,
                  render: (c: Review['files'][number]['change']) =>
                    c ? <Tag color={CHANGE_COLOR[c]}>{t(`system.deploy.change.${c}`)}</Tag> : '—',
                },
                {
                  title: t('system.deploy.fileSize'),
                  dataIndex: 'bytes',
                  width: 110,
                  render: (b: number) => (b < 0 ? '—' : formatBytes(b)),
                },
                {
                  title: 'SHA-256',
                  dataIndex: 'sha256',
                  width: 170,
                  render: (h: string) => <Typography.Text code>{h ? h.slice(0, 16) : '—'}</Typography.Text>,
                },
              ]}
            />
            <Typography.Title level={5} style={{ marginTop: 12 }}>
              {t('system.deploy.indexDiff')}
            </Typography.Title>
            {!changed && <Typography.Paragraph type="secondary">{t('system.deploy.indexSame')}</Typography.Paragraph>}
            <pre
              data-testid="deploy-release-diff"
              style={{ maxHeight: 260, overflow: 'auto', fontSize: 12, border: '1px solid #f0f0f0', padding: 8, margin: 0 }}
            >
              {r.index_diff.map((d, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one diff, in order
                <div key={i} data-op={d.op} style={{ background: DIFF_COLOR[d.op], whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                  {d.op === '=' ? ' ' : d.op} {d.line}
                </div>
              ))}
            </pre>
          </>
        )}
        <Form form={form} name="release" preserve={false} style={{ marginTop: 12 }} onFinish={(v) => release.mutate(v.password)}>
          <Form.Item
            name="password"
            label={t('system.deploy.yourPassword')}
            rules={[{ required: true, message: t('widgets.reauth.required') }]}
          >
            <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
          </Form.Item>
        </Form>
      </div>
    </Modal>
  );
}
