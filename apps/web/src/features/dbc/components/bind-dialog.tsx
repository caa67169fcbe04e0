import type { ChannelBinding } from '@loggerhead/contract/schemas/dbc.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Form, Modal, Radio, Select, Switch } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { dbcApi } from '../../../api/dbc.api.ts';
import { dbcKeys, dbcListQuery, strategyListQuery } from '../../../api/dbc.queries.ts';
import { BackfillFields, type BackfillValues, backfillOf } from './backfill.tsx';

interface Values extends BackfillValues {
  kind: 'dbc' | 'strategy';
  dbc_id?: string;
  strategy_id?: string;
  start: boolean;
}

/** Binds one CAN channel to a DBC file (all its signals) or a signal strategy (its signals only). */
export function BindDialog({
  tenantId,
  thingsId,
  channel,
  current,
  onClose,
}: {
  tenantId: string;
  thingsId: string;
  channel: number | null;
  current?: ChannelBinding;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<Values>();
  const kind = Form.useWatch('kind', form);
  const start = Form.useWatch('start', form);
  const open = channel !== null;
  const files = useQuery({ ...dbcListQuery(tenantId, { current_page: 1, page_size: 100 }), enabled: open });
  const strategies = useQuery({ ...strategyListQuery(tenantId, { current_page: 1, page_size: 100 }), enabled: open });

  useEffect(() => {
    if (!open) return;
    form.setFieldsValue({
      kind: current?.strategy_id ? 'strategy' : 'dbc',
      dbc_id: current && !current.strategy_id ? current.dbc_id : undefined,
      strategy_id: current?.strategy_id ?? undefined,
      start: current ? current.state === 'started' : true,
      backfill: false,
    });
  }, [open, current, form]);

  const bind = useMutation({
    mutationFn: (v: Values) =>
      dbcApi.bind(tenantId, thingsId, channel as number, {
        ...(v.kind === 'dbc' ? { dbc_id: v.dbc_id } : { strategy_id: v.strategy_id }),
        state: v.start ? 'started' : 'paused',
        ...(v.start && backfillOf(v) ? { backfill: backfillOf(v) } : {}),
      }),
    onSuccess: (b) => {
      void message.success(t('dbc.bind.done', { channel: `CAN${b.channel}` }));
      void qc.invalidateQueries({ queryKey: dbcKeys.device(tenantId, thingsId) });
      void qc.invalidateQueries({ queryKey: dbcKeys.files() });
      void qc.invalidateQueries({ queryKey: dbcKeys.strategies() });
      onClose();
    },
  });

  return (
    <Modal
      open={open}
      title={t('dbc.bind.title', { channel: `CAN${channel ?? ''}` })}
      okText={t('common.action.ok')}
      cancelText={t('common.action.cancel')}
      confirmLoading={bind.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        name="dbc-bind"
        layout="vertical"
        onFinish={(v) => bind.mutate(v)}
        initialValues={{ kind: 'dbc', start: true }}
      >
        <Form.Item name="kind" label={t('dbc.bind.kind')}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'dbc', label: t('dbc.bind.kindDbc') },
              { value: 'strategy', label: t('dbc.bind.kindStrategy') },
            ]}
          />
        </Form.Item>
        {kind === 'strategy' ? (
          <Form.Item
            name="strategy_id"
            label={t('dbc.bind.strategy')}
            rules={[{ required: true, message: t('dbc.bind.strategyRequired') }]}
          >
            <Select
              showSearch
              optionFilterProp="label"
              loading={strategies.isPending}
              placeholder={t('dbc.bind.strategyPlaceholder')}
              options={(strategies.data?.list ?? []).map((s) => ({
                value: s.id,
                label: `${s.nickname ? `${s.nickname} · ` : ''}${s.name} (${s.dbc_name}, ${s.signal_count})`,
              }))}
            />
          </Form.Item>
        ) : (
          <Form.Item name="dbc_id" label={t('dbc.bind.dbc')} rules={[{ required: true, message: t('dbc.bind.dbcRequired') }]}>
            <Select
              showSearch
              optionFilterProp="label"
              loading={files.isPending}
              placeholder={t('dbc.bind.dbcPlaceholder')}
              data-testid="bind-dbc-select"
              options={(files.data?.list ?? []).map((f) => ({ value: f.id, label: f.name }))}
            />
          </Form.Item>
        )}
        <Form.Item name="start" label={t('dbc.bind.startNow')} valuePropName="checked">
          <Switch />
        </Form.Item>
        {start && <BackfillFields />}
      </Form>
    </Modal>
  );
}
