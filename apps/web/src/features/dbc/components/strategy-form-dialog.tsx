import type { DbcMessageInfo, Strategy } from '@loggerhead/contract/schemas/dbc.ts';
import { STRATEGY_MAX_SIGNALS } from '@loggerhead/contract/schemas/dbc.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Form, Input, Modal, Select } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/api-error.ts';
import { dbcApi } from '../../../api/dbc.api.ts';
import { dbcKeys, dbcListQuery, dbcMessagesQuery } from '../../../api/dbc.queries.ts';
import { errorText } from '../../../api/error-funnel.ts';
import { type PickerItem, TransferPicker } from '../../../components/widgets/transfer-picker.tsx';
import { defaultStrategyName, signalRef, splitSignalRef, strategyNameProblem, strategySignalsProblem } from '../lib/names.ts';
import { canIdText } from './dbc-messages-view.tsx';

interface Values {
  name: string;
  nickname?: string;
  description?: string;
  dbc_id?: string;
  signals: string[];
  remark?: string;
}

/** Every signal of a DBC file as a picker row (`Message.Signal`, with id and unit). */
export function signalItems(messages: DbcMessageInfo[]): PickerItem[] {
  return messages.flatMap((m) =>
    m.signals.map((s) => ({
      key: signalRef(m.name, s.name),
      title: signalRef(m.name, s.name),
      description: [canIdText(m.id, m.ext), s.unit].filter(Boolean).join(' '),
    })),
  );
}

/** Create or edit a signal strategy: name (DBCSIG_ prefix by default), nickname, description, DBC, 1-100 signals, remark. */
export function StrategyFormDialog({
  tenantId,
  target,
  onClose,
}: {
  tenantId: string;
  target: Strategy | 'new' | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [general, setGeneral] = useState<string | null>(null);
  const editing = target && target !== 'new' ? target : null;
  const dbcId = Form.useWatch('dbc_id', form);
  const files = useQuery({ ...dbcListQuery(tenantId, { current_page: 1, page_size: 100 }), enabled: Boolean(target) });
  const messages = useQuery(dbcMessagesQuery(tenantId, dbcId ?? null));
  const items = useMemo(() => signalItems(messages.data ?? []), [messages.data]);

  useEffect(() => {
    if (!target) return;
    form.resetFields();
    setGeneral(null);
    form.setFieldsValue(
      editing
        ? {
            name: editing.name,
            nickname: editing.nickname ?? undefined,
            description: editing.description ?? undefined,
            dbc_id: editing.dbc_id,
            signals: editing.signals.map((s) => signalRef(s.message, s.signal)),
            remark: editing.remark ?? undefined,
          }
        : { name: defaultStrategyName(), signals: [] },
    );
  }, [target, editing, form]);

  const save = useMutation({
    meta: { silent: true },
    mutationFn: (v: Values) => {
      const body = {
        name: v.name.trim(),
        nickname: v.nickname?.trim() || null,
        description: v.description?.trim() || null,
        dbc_id: v.dbc_id as string,
        signals: v.signals.map(splitSignalRef),
        remark: v.remark?.trim() || null,
      };
      return editing ? dbcApi.updateStrategy(tenantId, editing.id, body) : dbcApi.createStrategy(tenantId, body);
    },
    onSuccess: (s) => {
      void message.success(t('dbc.strategy.saved', { name: s.name }));
      void qc.invalidateQueries({ queryKey: dbcKeys.all });
      onClose();
    },
    onError: (err) => {
      const text = errorText(err, t, (k) => i18n.exists(k));
      const first = err instanceof ApiError ? err.errors[0] : undefined;
      if (first?.field === 'name') form.setFields([{ name: 'name', errors: [text] }]);
      else if (first?.field === 'signals')
        form.setFields([{ name: 'signals', errors: [first.code === 'mapping.unknown-signal' ? `${text}: ${first.message}` : text] }]);
      else setGeneral(text);
    },
  });

  const nameMsg = {
    required: t('dbc.strategy.nameRequired'),
    pattern: t('dbc.strategy.namePattern'),
    length: t('dbc.strategy.nameLength'),
  };

  return (
    <Modal
      open={Boolean(target)}
      width={860}
      title={editing ? t('dbc.strategy.editTitle') : t('dbc.strategy.addTitle')}
      okText={t('common.action.ok')}
      cancelText={t('common.action.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<Values> form={form} name="strategy" layout="vertical" onFinish={(v) => save.mutate(v)}>
        <Form.Item
          name="name"
          label={t('dbc.strategy.name')}
          required
          rules={[
            {
              validator: (_r, v: string | undefined) => {
                const p = strategyNameProblem(v ?? '');
                return p ? Promise.reject(new Error(nameMsg[p])) : Promise.resolve();
              },
            },
          ]}
        >
          <Input maxLength={64} />
        </Form.Item>
        <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 16 }}>
          <Form.Item name="nickname" label={t('dbc.strategy.nickname')}>
            <Input maxLength={64} />
          </Form.Item>
          <Form.Item name="dbc_id" label={t('dbc.strategy.dbc')} rules={[{ required: true, message: t('dbc.strategy.dbcRequired') }]}>
            <Select
              showSearch
              optionFilterProp="label"
              loading={files.isPending}
              options={(files.data?.list ?? []).map((f) => ({ value: f.id, label: f.name }))}
              onChange={() => form.setFieldValue('signals', [])}
              placeholder={t('dbc.strategy.dbcPlaceholder')}
            />
          </Form.Item>
        </div>
        <Form.Item name="description" label={t('dbc.strategy.description')}>
          <Input.TextArea maxLength={512} autoSize={{ minRows: 1, maxRows: 3 }} />
        </Form.Item>
        <Form.Item
          name="signals"
          label={t('dbc.strategy.signals', { max: STRATEGY_MAX_SIGNALS })}
          required
          rules={[
            {
              validator: (_r, v: string[] | undefined) => {
                const p = strategySignalsProblem(v?.length ?? 0);
                return p
                  ? Promise.reject(
                      new Error(t(p === 'min' ? 'dbc.strategy.signalsMin' : 'dbc.strategy.signalsMax', { max: STRATEGY_MAX_SIGNALS })),
                    )
                  : Promise.resolve();
              },
            },
          ]}
        >
          <TransferPicker items={items} testId="strategy-signals" titles={[t('dbc.strategy.available'), t('dbc.strategy.chosen')]} />
        </Form.Item>
        <Form.Item name="remark" label={t('dbc.strategy.remark')}>
          <Input.TextArea maxLength={512} autoSize={{ minRows: 1, maxRows: 3 }} />
        </Form.Item>
      </Form>
      {general && <Alert type="error" showIcon message={general} />}
    </Modal>
  );
}
