import type { Notice, NoticeCreate } from '@loggerhead/contract/schemas/notice.ts';
import { useMutation } from '@tanstack/react-query';
import { App, Button, DatePicker, Form, Input, Modal, Radio, Select, Switch, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/error-funnel.ts';
import { AnnouncementBar } from '../../../components/notices/announcement-bar.tsx';
import { UpgradeNoticeDialog } from '../../../components/notices/upgrade-notice-dialog.tsx';
import { systemApi } from '../api/system.api.ts';

interface Values {
  kind: 'notice' | 'upgrade';
  title: string;
  content: string;
  platform: 'all' | 0 | 1;
  version: string;
  range: [Dayjs | null, Dayjs | null] | null;
  /** One change a line. */
  changes: string;
  isShow: boolean;
}

const BLANK: Values = { kind: 'notice', title: '', content: '', platform: 'all', version: '', range: null, changes: '', isShow: true };

function valuesOf(n: Notice | null): Values {
  if (!n) return BLANK;
  return {
    kind: n.kind,
    title: n.title,
    content: n.content,
    platform: n.platform === 0 || n.platform === 1 ? n.platform : 'all',
    version: n.version ?? '',
    range: n.startTime || n.endTime ? [n.startTime ? dayjs(n.startTime) : null, n.endTime ? dayjs(n.endTime) : null] : null,
    changes: n.changes.join('\n'),
    isShow: n.isShow,
  };
}

/** The form's values as the API's fields (the change list one entry a non-empty line). */
function bodyOf(v: Values): NoticeCreate {
  return {
    kind: v.kind,
    title: v.title.trim(),
    content: v.content ?? '',
    platform: v.platform === 'all' ? null : v.platform,
    version: v.version?.trim() || null,
    startTime: v.range?.[0]?.toISOString() ?? null,
    endTime: v.range?.[1]?.toISOString() ?? null,
    isShow: v.isShow,
    changes:
      v.kind === 'upgrade'
        ? (v.changes ?? '')
            .split('\n')
            .map((x) => x.trim())
            .filter(Boolean)
        : [],
  };
}

/** A notice as a tenant will see it: the strip above the page, or the upgrade dialog. */
export function NoticePreview({ notice, onClose }: { notice: Notice | null; onClose: () => void }) {
  const { t } = useTranslation();
  if (notice?.kind === 'upgrade') return <UpgradeNoticeDialog notice={notice} onClose={onClose} onNeverShow={onClose} />;
  return (
    <Modal open={notice !== null} title={t('system.notice.previewTitle')} onCancel={onClose} footer={null} width={900}>
      <div data-testid="notice-preview" style={{ position: 'relative', border: '1px solid #eee' }}>
        <AnnouncementBar notice={notice} onClose={onClose} onNeverShow={onClose} />
      </div>
    </Modal>
  );
}

/** Writes a new notice or edits one: kind, text, platform, version, window, change list; previewed before saving. */
export function NoticeEditor({
  notice,
  open,
  onClose,
  onSaved,
}: {
  notice: Notice | null;
  open: boolean;
  onClose: () => void;
  onSaved: (n: Notice) => void;
}) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const kind = Form.useWatch('kind', form);
  const [preview, setPreview] = useState<Notice | null>(null);

  useEffect(() => {
    if (open) {
      form.resetFields();
      form.setFieldsValue(valuesOf(notice));
    }
  }, [open, notice, form]);

  const save = useMutation({
    mutationFn: (v: Values) => (notice ? systemApi.updateNotice(notice.id, bodyOf(v)) : systemApi.createNotice(bodyOf(v))),
    meta: { silent: true },
    onSuccess: (n) => {
      onSaved(n);
      onClose();
    },
    onError: (e) => {
      const text = errorText(e, t, (k) => i18n.exists(k));
      const field = e.errors[0]?.field;
      if (field === 'version' || field === 'title') form.setFields([{ name: field, errors: [text] }]);
      else if (field === 'endTime' || field === 'startTime') form.setFields([{ name: 'range', errors: [text] }]);
      else void message.error(text);
    },
  });

  const showPreview = async () => {
    const v = await form.validateFields();
    const b = bodyOf(v);
    const now = new Date().toISOString();
    setPreview({
      id: 'preview',
      kind: b.kind,
      title: b.title,
      content: b.content,
      platform: b.platform,
      version: b.version,
      startTime: typeof b.startTime === 'string' ? b.startTime : null,
      endTime: typeof b.endTime === 'string' ? b.endTime : null,
      isShow: true,
      changes: b.changes,
      created_at: now,
      updated_at: now,
    });
  };

  const upgrade = kind === 'upgrade';
  return (
    <Modal
      open={open}
      title={t(notice ? 'system.notice.editTitle' : 'system.notice.newTitle')}
      width={640}
      onCancel={onClose}
      forceRender
      footer={[
        <Button key="preview" data-testid="notice-preview-button" onClick={() => void showPreview()}>
          {t('system.notice.preview')}
        </Button>,
        <Button key="cancel" onClick={onClose}>
          {t('common.action.cancel')}
        </Button>,
        <Button key="ok" type="primary" data-testid="notice-save" loading={save.isPending} onClick={() => form.submit()}>
          {t('common.action.ok')}
        </Button>,
      ]}
    >
      <Form<Values> form={form} name="notice" layout="vertical" initialValues={BLANK} onFinish={(v) => save.mutate(v)}>
        <Form.Item name="kind" label={t('system.notice.kindLabel')}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'notice', label: t('system.notice.kind.notice') },
              { value: 'upgrade', label: t('system.notice.kind.upgrade') },
            ]}
          />
        </Form.Item>
        <Form.Item name="title" label={t('system.notice.title')} rules={[{ required: true, whitespace: true, max: 200 }]}>
          <Input />
        </Form.Item>
        <Form.Item name="content" label={t('system.notice.content')} rules={[{ max: 20_000 }]}>
          <Input.TextArea rows={4} />
        </Form.Item>
        <Form.Item name="platform" label={t('system.notice.platformLabel')}>
          <Select
            options={[
              { value: 'all', label: t('system.notice.platform.all') },
              { value: 0, label: t('system.notice.platform.standard') },
              { value: 1, label: t('system.notice.platform.extension') },
            ]}
          />
        </Form.Item>
        <Form.Item
          name="version"
          label={t('system.notice.version')}
          rules={[{ required: upgrade, whitespace: true, message: t('system.notice.versionRequired') }, { max: 32 }]}
        >
          <Input placeholder="v1.3.1" />
        </Form.Item>
        <Form.Item
          name="range"
          label={t(upgrade ? 'system.notice.maintenance' : 'system.notice.schedule')}
          extra={t(upgrade ? 'system.notice.maintenanceHelp' : 'system.notice.scheduleHelp')}
          rules={[
            {
              validator: (_, v: Values['range']) =>
                !upgrade || (v?.[0] && v?.[1]) ? Promise.resolve() : Promise.reject(new Error(t('system.notice.windowRequired'))),
            },
          ]}
        >
          <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" allowEmpty={[true, true]} />
        </Form.Item>
        {upgrade && (
          <Form.Item name="changes" label={t('system.notice.changes')} extra={t('system.notice.changesHelp')}>
            <Input.TextArea rows={4} />
          </Form.Item>
        )}
        <Form.Item name="isShow" label={t('system.notice.publishNow')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Typography.Text type="secondary">{t('system.notice.publishHelp')}</Typography.Text>
      </Form>
      <NoticePreview notice={preview} onClose={() => setPreview(null)} />
    </Modal>
  );
}
