import { PlusOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { MappingRule } from '@loggerhead/contract/schemas/mapping-rules.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Flex, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDeleteButton } from '../../../components/confirm-delete-button.tsx';
import { mayCall } from '../../../session/can.ts';
import { modelsQuery, publicModelsQuery } from '../api/model.api.ts';
import { mappingRulesQuery, rulesApi, rulesKeys } from '../api/rules.api.ts';
import { MappingRuleDialog } from './mapping-rule-dialog.tsx';

/** One mapping as a line: `t_raw × 0.1 − 40 → env.temperature`. */
export function mappingText(m: MappingRule['mappings'][number]): string {
  const scale = m.scale !== 1 ? ` × ${m.scale}` : '';
  const offset = m.offset ? ` ${m.offset < 0 ? '−' : '+'} ${Math.abs(m.offset)}` : '';
  return `${m.source_key}${scale}${offset} → ${m.target}`;
}

/** The tenant's mapping rules (decision 0156): raw uplink keys or CAN signals onto model properties, applied at ingest. */
export function MappingRulePanel({ tenantId }: { tenantId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const rules = useQuery(mappingRulesQuery(tenantId));
  const own = useQuery(modelsQuery(tenantId));
  const pub = useQuery(publicModelsQuery());
  const modelName = new Map([...(own.data?.list ?? []), ...(pub.data?.list ?? [])].map((m) => [m.id, m.display_name || m.name]));
  const [editing, setEditing] = useState<MappingRule | null | undefined>(undefined);
  const done = () => void qc.invalidateQueries({ queryKey: rulesKeys.mapping(tenantId) });
  const remove = useMutation({
    mutationFn: (id: string) => rulesApi.removeMapping(tenantId, id),
    onSuccess: () => {
      message.success(t('device-type.model.deleted'));
      done();
    },
  });
  return (
    <>
      <Flex justify="space-between" style={{ marginBottom: 12 }}>
        <Typography.Text type="secondary">{t('device-type.mapping.intro')}</Typography.Text>
        {mayCall(Routes.mappingRules.create) && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)} data-testid="add-mapping-rule">
            {t('device-type.mapping.add')}
          </Button>
        )}
      </Flex>
      <Table<MappingRule>
        data-testid="mapping-rule-table"
        rowKey="id"
        size="middle"
        loading={rules.isFetching && !rules.data}
        dataSource={rules.data?.list ?? []}
        pagination={{ pageSize: 20, size: 'small' }}
        columns={[
          { key: 'name', title: t('device-type.mapping.name'), render: (_v, r) => <Typography.Text strong>{r.name}</Typography.Text> },
          { key: 'model', title: t('device-type.rule.model'), render: (_v, r) => modelName.get(r.info_model_id) ?? r.info_model_id },
          { key: 'source', title: t('device-type.mapping.source'), render: (_v, r) => t(`device-type.mapping.sources.${r.source}`) },
          {
            key: 'status',
            title: t('device-type.rule.status'),
            render: (_v, r) =>
              r.status === 1 ? <Tag color="green">{t('device-type.mapping.on')}</Tag> : <Tag>{t('device-type.mapping.off')}</Tag>,
          },
          {
            key: 'mappings',
            title: t('device-type.mapping.mappings'),
            render: (_v, r) => (
              <Flex vertical gap={2}>
                {r.mappings.map((m) => (
                  <Typography.Text key={m.source_key} code>
                    {mappingText(m)}
                    {m.unit ? ` (${m.unit})` : ''}
                  </Typography.Text>
                ))}
              </Flex>
            ),
          },
          {
            key: 'ops',
            title: t('device-type.col.actions'),
            render: (_v, r) => (
              <Flex gap={4}>
                {mayCall(Routes.mappingRules.update) && (
                  <Button type="link" size="small" onClick={() => setEditing(r)}>
                    {t('device-type.action.edit')}
                  </Button>
                )}
                {mayCall(Routes.mappingRules.remove) && (
                  <ConfirmDeleteButton
                    label={t('device-type.action.delete')}
                    title={t('device-type.mapping.confirmDelete', { name: r.name })}
                    content={t('device-type.mapping.confirmDeleteText')}
                    onConfirm={() => remove.mutateAsync(r.id)}
                  />
                )}
              </Flex>
            ),
          },
        ]}
      />
      {editing !== undefined && (
        <MappingRuleDialog
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
