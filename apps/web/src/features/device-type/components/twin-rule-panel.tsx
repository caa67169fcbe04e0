import { PlusOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { TwinAction, TwinCondition, TwinRule } from '@loggerhead/contract/schemas/twin.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Flex, Switch, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDeleteButton } from '../../../components/confirm-delete-button.tsx';
import { mayCall } from '../../../session/can.ts';
import { modelApi, modelKeys, modelsQuery, publicModelsQuery, twinRuleFiresQuery, twinRulesQuery } from '../api/model.api.ts';
import { TwinRuleDialog } from './twin-rule-dialog.tsx';

const time = (ms: number) => new Date(ms).toLocaleString();

/** A rule's conditions as one line: `env.temp > 30 and env.fan = true`. */
export const conditionText = (c: TwinCondition[]) => c.map((x, i) => `${i ? ` ${x.join} ` : ''}${x.field} ${x.op} ${x.value}`).join('');

/**
 * The tenant's twin rules (decision 0124): conditions on the reported state of a model's devices (or
 * of chosen devices) and what each does when they turn true; below, the latest fires, live.
 */
export function TwinRulePanel({ tenantId }: { tenantId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const rules = useQuery(twinRulesQuery(tenantId));
  const fires = useQuery(twinRuleFiresQuery(tenantId));
  const own = useQuery(modelsQuery(tenantId));
  const pub = useQuery(publicModelsQuery());
  const modelName = new Map([...(own.data?.list ?? []), ...(pub.data?.list ?? [])].map((m) => [m.id, m.display_name || m.name]));
  const [editing, setEditing] = useState<TwinRule | null | undefined>(undefined);
  const done = () => void qc.invalidateQueries({ queryKey: modelKeys.rules(tenantId) });
  const remove = useMutation({
    mutationFn: (id: string) => modelApi.removeRule(tenantId, id),
    onSuccess: () => {
      message.success(t('device-type.model.deleted'));
      done();
    },
  });
  const status = useMutation({
    mutationFn: (v: { id: string; on: boolean }) => modelApi.setRuleStatus(tenantId, v.id, v.on ? 1 : 0),
    onSuccess: done,
  });
  const actionText = (a: TwinAction) =>
    a.type === 'event'
      ? t('device-type.rule.action.eventText', { message: a.message })
      : t('device-type.rule.action.desiredText', { values: JSON.stringify(a.values) });

  return (
    <>
      <Flex justify="flex-end" style={{ marginBottom: 12 }}>
        {mayCall(Routes.twinRules.create) && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)} data-testid="add-twin-rule">
            {t('device-type.rule.add')}
          </Button>
        )}
      </Flex>
      <Table<TwinRule>
        data-testid="twin-rule-table"
        rowKey="id"
        size="middle"
        loading={rules.isFetching && !rules.data}
        dataSource={rules.data?.list ?? []}
        pagination={{ pageSize: 20, size: 'small' }}
        columns={[
          { key: 'name', title: t('device-type.rule.name'), render: (_v, r) => <Typography.Text strong>{r.name}</Typography.Text> },
          {
            key: 'status',
            title: t('device-type.rule.status'),
            render: (_v, r) => (
              <Switch
                size="small"
                checked={r.status === 1}
                disabled={!mayCall(Routes.twinRules.setStatus)}
                loading={status.isPending && status.variables?.id === r.id}
                onChange={(on) => status.mutate({ id: r.id, on })}
                aria-label={t('device-type.rule.status')}
              />
            ),
          },
          {
            key: 'conditions',
            title: t('device-type.rule.conditions'),
            render: (_v, r) => <Typography.Text code>{conditionText(r.trigger_condition)}</Typography.Text>,
          },
          {
            key: 'filter',
            title: t('device-type.rule.filter'),
            render: (_v, r) =>
              r.trigger_filter.info_model_id
                ? (modelName.get(r.trigger_filter.info_model_id) ?? r.trigger_filter.info_model_id)
                : r.trigger_filter.things_ids?.length
                  ? t('device-type.rule.devices', { count: r.trigger_filter.things_ids.length })
                  : t('device-type.rule.allDevices'),
          },
          {
            key: 'actions',
            title: t('device-type.rule.actions'),
            render: (_v, r) => r.actions.map((a, i) => <Tag key={a.id ?? i}>{actionText(a)}</Tag>),
          },
          {
            key: 'fires',
            title: t('device-type.rule.fires'),
            align: 'right',
            render: (_v, r) => <span data-testid={`rule-fires-${r.name}`}>{r.fires}</span>,
          },
          {
            key: 'ops',
            title: t('device-type.col.actions'),
            render: (_v, r) => (
              <Flex gap={4}>
                {mayCall(Routes.twinRules.update) && (
                  <Button type="link" size="small" onClick={() => setEditing(r)}>
                    {t('device-type.action.edit')}
                  </Button>
                )}
                {mayCall(Routes.twinRules.remove) && (
                  <ConfirmDeleteButton
                    label={t('device-type.action.delete')}
                    title={t('device-type.rule.confirmDelete', { name: r.name })}
                    content={t('device-type.rule.confirmDeleteText')}
                    onConfirm={() => remove.mutateAsync(r.id)}
                  />
                )}
              </Flex>
            ),
          },
        ]}
      />
      <Typography.Title level={5}>{t('device-type.rule.fireLog')}</Typography.Title>
      <Table
        data-testid="twin-rule-fires"
        rowKey="id"
        size="small"
        dataSource={fires.data?.list ?? []}
        pagination={false}
        columns={[
          { key: 'at', title: t('device-type.model.events.time'), render: (_v, f) => time(f.fired_at) },
          { key: 'rule', title: t('device-type.rule.name'), dataIndex: 'rule_name' },
          {
            key: 'thing',
            title: t('device-type.rule.device'),
            render: (_v, f) => <Typography.Text className="lh-mono">{f.things_id}</Typography.Text>,
          },
          {
            key: 'values',
            title: t('device-type.rule.values'),
            render: (_v, f) => <Typography.Text code>{JSON.stringify(f.values)}</Typography.Text>,
          },
        ]}
      />
      {editing !== undefined && (
        <TwinRuleDialog
          tenantId={tenantId}
          rule={editing}
          onClose={() => {
            setEditing(undefined);
            done();
          }}
        />
      )}
    </>
  );
}
