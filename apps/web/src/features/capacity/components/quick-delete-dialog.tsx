import { LockOutlined } from '@ant-design/icons';
import type { QuickDeleteTask } from '@loggerhead/contract/schemas/billing.ts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, DatePicker, Form, Input, Modal, Progress, Radio, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/api-error.ts';
import { errorText, reasonText } from '../../../api/error-funnel.ts';
import { formatBytes } from '../../../lib/format.ts';
import { capacityApi } from '../api/capacity.api.ts';

interface Values {
  scope: 'all' | 'range';
  range?: [Dayjs | null, Dayjs | null] | null;
  password: string;
}

const DONE = 3;
const FAILED = 4;

/**
 * Quick delete of one device's data (spec §2 password re-confirmation, §4 "password
 * confirmation → task created → list refreshed"): everything, or a time range; the password
 * goes with the request; then the task's progress until it ends, and `onFinished`.
 */
export function QuickDeleteDialog({
  tenantId,
  device,
  onClose,
  onFinished,
}: {
  tenantId: string;
  device: { id: string; label: string } | null;
  onClose: () => void;
  onFinished: (task: QuickDeleteTask) => void;
}) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [taskId, setTaskId] = useState<string | null>(null);
  const scope = Form.useWatch('scope', form);

  useEffect(() => {
    if (!device) setTaskId(null);
  }, [device]);

  const create = useMutation({
    meta: { silent: true },
    mutationFn: (v: Values) =>
      capacityApi.quickDelete(tenantId, {
        things_id: device?.id ?? '',
        delete_children: 1,
        password: v.password,
        start_time: v.scope === 'range' ? v.range?.[0]?.valueOf() : undefined,
        end_time: v.scope === 'range' ? v.range?.[1]?.valueOf() : undefined,
      }),
    onSuccess: (task) => setTaskId(task.id),
    onError: (e) => {
      const text = errorText(e, t, (k) => i18n.exists(k));
      const field = e instanceof ApiError && e.errors[0]?.field === 'start_time' ? 'range' : 'password';
      form.setFields([{ name: field, errors: [text] }]);
    },
  });

  // Spec §9 polling: the task is read every second until it ends.
  const task = useQuery({
    queryKey: ['capacity', 'quick-delete', tenantId, taskId],
    queryFn: ({ signal }) => capacityApi.quickDeleteTask(tenantId, taskId as string, signal),
    enabled: Boolean(taskId),
    refetchInterval: (q) => (q.state.data && q.state.data.status >= DONE ? false : 1000),
  });
  const status = task.data?.status;
  // Reported once per task, however often the parent renders.
  const reported = useRef<string | null>(null);
  useEffect(() => {
    if (task.data && task.data.status >= DONE && reported.current !== task.data.id) {
      reported.current = task.data.id;
      onFinished(task.data);
    }
  }, [task.data, onFinished]);

  const running = Boolean(taskId) && (status === undefined || status < DONE);
  const finished = status !== undefined && status >= DONE;

  return (
    <Modal
      open={Boolean(device)}
      title={t('capacity.quickDelete.title')}
      okText={finished ? t('common.action.ok') : t('capacity.quickDelete.button')}
      okButtonProps={{ danger: !finished, disabled: running }}
      cancelButtonProps={{ style: finished ? { display: 'none' } : undefined }}
      cancelText={t('common.action.cancel')}
      confirmLoading={create.isPending}
      closable={!running}
      maskClosable={false}
      destroyOnHidden
      onCancel={onClose}
      onOk={() => {
        if (finished) return onClose();
        void form.validateFields().then((v) => create.mutate(v));
      }}
    >
      {!taskId ? (
        <Form<Values> form={form} layout="vertical" preserve={false} initialValues={{ scope: 'all' }} name="quick-delete">
          <Typography.Paragraph>
            {t('capacity.quickDelete.device')}: <Typography.Text strong>{device?.label}</Typography.Text>
          </Typography.Paragraph>
          <Form.Item name="scope" label={t('capacity.quickDelete.scope')}>
            <Radio.Group
              options={[
                { value: 'all', label: t('capacity.quickDelete.scopeAll') },
                { value: 'range', label: t('capacity.quickDelete.scopeRange') },
              ]}
            />
          </Form.Item>
          {scope === 'range' && (
            <Form.Item
              name="range"
              label={t('capacity.quickDelete.range')}
              extra={t('capacity.quickDelete.rangeHint')}
              rules={[
                {
                  validator: (_r, v: Values['range']) =>
                    v?.[0] || v?.[1] ? Promise.resolve() : Promise.reject(new Error(t('capacity.quickDelete.rangeRequired'))),
                },
              ]}
            >
              <DatePicker.RangePicker showTime allowEmpty={[true, true]} style={{ width: '100%' }} />
            </Form.Item>
          )}
          <Typography.Paragraph type="secondary">
            {scope === 'range' ? t('capacity.quickDelete.confirmRange') : t('capacity.quickDelete.confirm')}
          </Typography.Paragraph>
          <Form.Item name="password" rules={[{ required: true, message: t('widgets.reauth.required') }]}>
            <Input.Password
              prefix={<LockOutlined />}
              placeholder={t('widgets.reauth.placeholder')}
              autoComplete="current-password"
              autoFocus
              data-testid="quick-delete-password"
            />
          </Form.Item>
        </Form>
      ) : (
        <div data-testid="quick-delete-progress">
          <Progress percent={task.data?.process_rate ?? 0} status={status === FAILED ? 'exception' : finished ? 'success' : 'active'} />
          <Typography.Paragraph style={{ marginTop: 12 }}>
            {status === FAILED
              ? t('capacity.quickDelete.failed')
              : finished
                ? t('capacity.quickDelete.done', { size: formatBytes(task.data?.deleted_bytes ?? 0) })
                : t('capacity.quickDelete.running', { done: task.data?.steps_done ?? 0, total: task.data?.steps_total ?? 0 })}
          </Typography.Paragraph>
          {status === FAILED && task.data?.error && <Alert type="error" message={reasonText(task.data.error, t, (k) => i18n.exists(k))} />}
        </div>
      )}
    </Modal>
  );
}
