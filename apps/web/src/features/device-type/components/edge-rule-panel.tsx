import { PlusOutlined, SendOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { EdgeIssuance, EdgeRule } from '@loggerhead/contract/schemas/edge.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Flex, Select, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmDeleteButton } from '../../../components/confirm-delete-button.tsx';
import { mayCall } from '../../../session/can.ts';
import { modelsQuery, publicModelsQuery } from '../api/model.api.ts';
import { edgeRulesQuery, issuancesQuery, rulesApi, rulesKeys } from '../api/rules.api.ts';
import { EdgeIssueDialog } from './edge-issue-dialog.tsx';
import { EdgeRuleDialog } from './edge-rule-dialog.tsx';

const time = (ms: number | null) => (ms ? new Date(ms).toLocaleString() : '--');
const STATE_COLOR: Record<EdgeIssuance['state'], string> = {
  issued: 'blue',
  accepted: 'green',
  rejected: 'red',
  timeout: 'orange',
  cancelled: 'default',
};

/**
 * The tenant's edge-computing rules (decision 0155) and below, their issuance history: each device a
 * rule was sent to, and whether it took it (issued, accepted, rejected, timed out), live.
 */
export function EdgeRulePanel({ tenantId }: { tenantId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const rules = useQuery(edgeRulesQuery(tenantId));
  const [ruleFilter, setRuleFilter] = useState<string | undefined>();
  const [page, setPage] = useState({ current: 1, size: 20 });
  const history = useQuery(issuancesQuery(tenantId, ruleFilter, page.current, page.size));
  const own = useQuery(modelsQuery(tenantId));
  const pub = useQuery(publicModelsQuery());
  const modelName = new Map([...(own.data?.list ?? []), ...(pub.data?.list ?? [])].map((m) => [m.id, m.display_name || m.name]));
  const [editing, setEditing] = useState<EdgeRule | null | undefined>(undefined);
  const [issuing, setIssuing] = useState<EdgeRule | null>(null);
  const done = () => void qc.invalidateQueries({ queryKey: rulesKeys.all });
  const remove = useMutation({
    mutationFn: (id: string) => rulesApi.removeEdge(tenantId, id),
    onSuccess: () => {
      message.success(t('device-type.model.deleted'));
      done();
    },
  });
  const what = (r: EdgeRule) =>
    r.kind === 'filter'
      ? t('device-type.edge.filterText', { field: r.field, threshold: r.threshold })
      : t('device-type.edge.aggregateText', {
          field: r.field,
          fn: t(`device-type.edge.functions.${r.function ?? 'mean'}`),
          window: r.window_s,
        });

  return (
    <>
      <Flex justify="space-between" style={{ marginBottom: 12 }}>
        <Typography.Text type="secondary">{t('device-type.edge.intro')}</Typography.Text>
        {mayCall(Routes.edgeRules.create) && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)} data-testid="add-edge-rule">
            {t('device-type.edge.add')}
          </Button>
        )}
      </Flex>
      <Table<EdgeRule>
        data-testid="edge-rule-table"
        rowKey="id"
        size="middle"
        loading={rules.isFetching && !rules.data}
        dataSource={rules.data?.list ?? []}
        pagination={{ pageSize: 20, size: 'small' }}
        columns={[
          { key: 'name', title: t('device-type.edge.name'), render: (_v, r) => <Typography.Text strong>{r.name}</Typography.Text> },
          { key: 'model', title: t('device-type.rule.model'), render: (_v, r) => modelName.get(r.info_model_id) ?? r.info_model_id },
          { key: 'what', title: t('device-type.edge.what'), render: (_v, r) => <Typography.Text code>{what(r)}</Typography.Text> },
          { key: 'version', title: t('device-type.edge.version'), align: 'right', dataIndex: 'version' },
          {
            key: 'issued',
            title: t('device-type.edge.accepted'),
            align: 'right',
            render: (_v, r) => <span data-testid={`edge-accepted-${r.name}`}>{`${r.accepted} / ${r.issued}`}</span>,
          },
          {
            key: 'ops',
            title: t('device-type.col.actions'),
            render: (_v, r) => (
              <Flex gap={4}>
                {mayCall(Routes.edgeRules.issue) && (
                  <Button
                    type="link"
                    size="small"
                    icon={<SendOutlined />}
                    onClick={() => setIssuing(r)}
                    data-testid={`edge-issue-${r.name}`}
                  >
                    {t('device-type.edge.issue')}
                  </Button>
                )}
                {mayCall(Routes.edgeRules.update) && (
                  <Button type="link" size="small" onClick={() => setEditing(r)}>
                    {t('device-type.action.edit')}
                  </Button>
                )}
                {mayCall(Routes.edgeRules.remove) && (
                  <ConfirmDeleteButton
                    label={t('device-type.action.delete')}
                    title={t('device-type.edge.confirmDelete', { name: r.name })}
                    content={t('device-type.edge.confirmDeleteText')}
                    onConfirm={() => remove.mutateAsync(r.id)}
                  />
                )}
              </Flex>
            ),
          },
        ]}
      />
      <Flex justify="space-between" align="center" style={{ margin: '16px 0 8px' }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('device-type.edge.history')}
        </Typography.Title>
        <Select
          allowClear
          style={{ width: 240 }}
          placeholder={t('device-type.edge.allRules')}
          value={ruleFilter}
          onChange={(v) => {
            setRuleFilter(v);
            setPage((p) => ({ ...p, current: 1 }));
          }}
          options={(rules.data?.list ?? []).map((r) => ({ value: r.id, label: r.name }))}
        />
      </Flex>
      <Table<EdgeIssuance>
        data-testid="edge-issuances"
        rowKey="id"
        size="small"
        dataSource={history.data?.list ?? []}
        pagination={{
          current: page.current,
          pageSize: page.size,
          total: history.data?.total ?? 0,
          size: 'small',
          onChange: (current, size) => setPage({ current, size }),
        }}
        columns={[
          { key: 'at', title: t('device-type.edge.issuedAt'), render: (_v, i) => time(i.issued_at) },
          { key: 'rule', title: t('device-type.edge.name'), render: (_v, i) => `${i.rule_name} v${i.rule_version}` },
          {
            key: 'thing',
            title: t('device-type.rule.device'),
            render: (_v, i) => <Link to={`/Container/HomePage/DeviceDetails?id=${encodeURIComponent(i.things_id)}`}>{i.things_name}</Link>,
          },
          {
            key: 'state',
            title: t('device-type.edge.state'),
            render: (_v, i) => (
              <Tag color={STATE_COLOR[i.state]} data-testid={`edge-state-${i.things_name}`}>
                {t(`device-type.edge.states.${i.state}`)}
              </Tag>
            ),
          },
          {
            key: 'answer',
            title: t('device-type.edge.answer'),
            render: (_v, i) => (i.code === null ? '--' : `${i.code} ${i.message ?? ''}`),
          },
          { key: 'answered', title: t('device-type.edge.answeredAt'), render: (_v, i) => time(i.answered_at) },
        ]}
      />
      {editing !== undefined && (
        <EdgeRuleDialog
          tenantId={tenantId}
          rule={editing}
          onClose={() => {
            setEditing(undefined);
            done();
          }}
        />
      )}
      {issuing && (
        <EdgeIssueDialog
          tenantId={tenantId}
          rule={issuing}
          onClose={() => {
            setIssuing(null);
            done();
          }}
        />
      )}
    </>
  );
}
