import { CAPACITY_FIELDS, CapacityRequestSchema, StorageMode } from '@loggerhead/contract/schemas/billing.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Col, Collapse, Form, Input, InputNumber, Modal, Radio, Row, Skeleton, Space, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorText } from '../../../api/error-funnel.ts';
import { useSession } from '../../../session/use-session.ts';
import { capacityApi } from '../api/capacity.api.ts';
import { capacityKeys, devicesQuery, packageQuery } from '../api/capacity.queries.ts';
import { checkNumber, currentValue, FORM_FIELDS, type FormValues, generalAllowed, initialValue, toRequest } from './capacity-rules.ts';
import { QuickDeletePicker } from './quick-delete-picker.tsx';
import { TpsEstimator } from './tps-estimator.tsx';

/**
 * The capacity/package request form (spec §2 dialog, §5 rules): every number at least the
 * current package value, at most 100000 (batch recall 50), integers only; storage mode with
 * its help and the quick-delete device picker. It becomes a capacity work order.
 */
export function CapacityRequestDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { tenantId, role } = useSession();
  const [form] = Form.useForm<FormValues>();
  const pkg = useQuery({ ...packageQuery(tenantId), enabled: open && Boolean(tenantId) });
  const devices = useQuery({ ...devicesQuery(tenantId), enabled: open && Boolean(tenantId) });
  const manager = role === 'manager';

  const mode = Form.useWatch('special_storage', form);
  const months = Form.useWatch('retention_months', form);
  const storage = Form.useWatch('database_storage_space', form);
  const quickLimit = Form.useWatch('quick_delete_things_num', form) ?? 0;
  const general = generalAllowed(months ?? null, storage ?? null);

  // The form mounts with its values (the dialog is destroyed when hidden); it mounts again
  // once the device list is in, so the package's quick-delete devices show as ticked.
  const initial = useMemo((): FormValues | null => {
    const p = pkg.data;
    if (!p) return null;
    const chosen = new Set(p.quick_delete_things_list.map((q) => q.third_things_id));
    return {
      ...Object.fromEntries(FORM_FIELDS.map((f) => [f, initialValue(p, f)])),
      special_storage: p.special_storage,
      quick_delete_things: (devices.data ?? []).filter((d) => chosen.has(d.third_things_id)).map((d) => d.id),
      phone: '',
      description: '',
    };
  }, [pkg.data, devices.data]);

  // Spec §4: above 3 months or 2 GB general storage is not offered; the request becomes exclusive.
  useEffect(() => {
    if (mode === StorageMode.general && !general) form.setFieldValue('special_storage', StorageMode.exclusive);
  }, [mode, general, form]);

  const send = useMutation({
    mutationFn: (v: FormValues) => capacityApi.request(tenantId as string, toRequest(v, devices.data ?? [])),
    meta: { silent: true },
    onSuccess: (order) => {
      void qc.invalidateQueries({ queryKey: capacityKeys.all });
      void qc.invalidateQueries({ queryKey: ['workorder'] });
      onClose();
      modal.success({
        title: t('capacity.request.sent'),
        content: t('capacity.request.sentText', { id: order.identifier }),
        okText: t('capacity.request.openOrder'),
        onOk: () => navigate(`/Container/WorkOrderDetail?id=${encodeURIComponent(order.id)}`),
      });
    },
    onError: (e) => {
      const fields = e.errors.filter((x) => x.field && (FORM_FIELDS as readonly string[]).includes(x.field));
      if (fields.length) {
        form.setFields(fields.map((x) => ({ name: x.field as keyof FormValues, errors: [t('capacity.form.belowCurrent')] })));
      } else void message.error(errorText(e, t, (k) => i18n.exists(k)));
    },
  });

  // Bought at once instead of asked for: the numbers above the package become a capacity order.
  const [buyMonths, setBuyMonths] = useState(1);
  const buy = useMutation({
    mutationFn: async () => {
      const v = await form.validateFields();
      const body = toRequest(v, devices.data ?? []) as Record<string, unknown>;
      const content: Record<string, number> = {};
      for (const f of CAPACITY_FIELDS) {
        const n = body[f];
        const have = pkg.data?.[f];
        if (typeof n === 'number' && typeof have === 'number' && n > have) content[f] = n;
      }
      return capacityApi.order(tenantId as string, { type: 2, content, duration: buyMonths });
    },
    meta: { silent: true },
    onSuccess: (order) => {
      void qc.invalidateQueries({ queryKey: ['billing'] });
      onClose();
      navigate(`/Container/UserManager/Orders?pay=${encodeURIComponent(order.id)}`);
    },
    onError: (e) => {
      if ('errorFields' in (e as object)) return;
      void message.error(errorText(e as Parameters<typeof errorText>[0], t, (k) => i18n.exists(k)));
    },
  });

  const p = pkg.data;
  return (
    <Modal
      open={open}
      title={t('capacity.request.title')}
      okText={t('capacity.request.submit')}
      cancelText={t('common.action.cancel')}
      okButtonProps={{ disabled: !manager || !p }}
      confirmLoading={send.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      footer={(_, { OkBtn, CancelBtn }) => (
        <Space wrap style={{ justifyContent: 'flex-end' }}>
          <CancelBtn />
          <span>{t('capacity.buy.months')}</span>
          <InputNumber min={1} max={36} precision={0} value={buyMonths} onChange={(n) => setBuyMonths(n ?? 1)} disabled={!manager} />
          <Button onClick={() => buy.mutate()} loading={buy.isPending} disabled={!manager || !p} data-testid="capacity-buy">
            {t('capacity.buy.now')}
          </Button>
          <OkBtn />
        </Space>
      )}
      width={760}
      destroyOnHidden
      data-testid="capacity-request"
    >
      {!manager && <Alert type="warning" showIcon message={t('capacity.request.managerOnly')} style={{ marginBottom: 16 }} />}
      {!p ? (
        <Skeleton active />
      ) : (
        <Form<FormValues>
          key={`${p.updated_at}|${devices.isSuccess}`}
          form={form}
          name="capacity"
          layout="vertical"
          initialValues={initial ?? undefined}
          onFinish={(v) => send.mutate(v)}
          disabled={!manager}
        >
          <Row gutter={16}>
            {FORM_FIELDS.map((f) => {
              const cur = currentValue(p, f);
              return (
                <Col span={8} key={f}>
                  <Form.Item
                    name={f}
                    label={t(`capacity.field.${f}`)}
                    extra={t('capacity.form.current', { n: cur ?? t('capacity.form.unlimited') })}
                    rules={
                      cur === null
                        ? []
                        : [
                            {
                              validator: (_r, v) => {
                                const key = checkNumber(p, f, v);
                                return key ? Promise.reject(new Error(t(key, { min: cur }))) : Promise.resolve();
                              },
                            },
                          ]
                    }
                  >
                    <InputNumber
                      style={{ width: '100%' }}
                      precision={0}
                      disabled={cur === null}
                      placeholder={t('capacity.form.unlimited')}
                    />
                  </Form.Item>
                </Col>
              );
            })}
          </Row>
          <Form.Item name="special_storage" label={t('capacity.field.special_storage')}>
            <Radio.Group>
              <Radio value={StorageMode.general} disabled={!general}>
                {t('capacity.mode.general')}
              </Radio>
              <Radio value={StorageMode.exclusive}>{t('capacity.mode.exclusive')}</Radio>
              <Radio value={StorageMode.quickDelete}>{t('capacity.mode.quickDelete')}</Radio>
            </Radio.Group>
          </Form.Item>
          <Typography.Paragraph type="secondary" style={{ marginTop: -12 }} data-testid="storage-help">
            {t('capacity.mode.help')}{' '}
            <a href="/doc?type=quickDelete" target="_blank" rel="noreferrer">
              {t('capacity.mode.helpLink')}
            </a>
          </Typography.Paragraph>
          {mode === StorageMode.quickDelete && (
            <Form.Item
              name="quick_delete_things"
              rules={[
                {
                  validator: (_r, v: string[] = []) =>
                    v.length <= quickLimit
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('capacity.picker.tooMany', { limit: quickLimit }))),
                },
              ]}
            >
              <QuickDeletePicker devices={devices.data ?? []} loading={devices.isFetching} limit={quickLimit} />
            </Form.Item>
          )}
          <Row gutter={16}>
            <Col span={8}>
              <Form.Item
                name="phone"
                label={t('capacity.field.phone')}
                rules={[
                  {
                    validator: (_r, v?: string) =>
                      !v || CapacityRequestSchema.shape.phone.safeParse(v).success
                        ? Promise.resolve()
                        : Promise.reject(new Error(t('capacity.form.phone'))),
                  },
                ]}
              >
                <Input maxLength={21} />
              </Form.Item>
            </Col>
            <Col span={16}>
              <Form.Item name="description" label={t('capacity.field.description')} rules={[{ max: 2000 }]}>
                <Input.TextArea rows={1} autoSize={{ minRows: 1, maxRows: 4 }} maxLength={2000} />
              </Form.Item>
            </Col>
          </Row>
        </Form>
      )}
      <Collapse
        size="small"
        items={[{ key: 'tps', label: t('capacity.tps.title'), children: <TpsEstimator /> }]}
        style={{ marginTop: 8 }}
      />
    </Modal>
  );
}
