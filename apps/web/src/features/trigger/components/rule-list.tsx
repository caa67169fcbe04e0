import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { TriggerRule, TriggerRuleImportResult } from '@loggerhead/contract/schemas/alert.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, List, Popconfirm, Space, Switch, Table, Tag, Tooltip, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { saveBlob } from '../../../components/data-view/file-download.ts';
import { Paginator } from '../../../components/data-view/paginator.tsx';
import { firstPage, type PageState } from '../../../components/data-view/paging.ts';
import { mayCall } from '../../../session/can.ts';
import { triggerApi } from '../api/trigger.api.ts';
import { ruleListQuery, triggerKeys } from '../api/trigger.queries.ts';
import { editRuleHref, parseImportFile } from '../trigger-rule.logic.ts';

interface Props {
  tenantId: string;
  thingsId: string;
}

/** The device's trigger rules: enable/disable, delete (only disabled), import/export JSON. */
export function RuleList({ tenantId, thingsId }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [page, setPage] = useState<PageState>(firstPage());
  const [importResult, setImportResult] = useState<TriggerRuleImportResult | null>(null);
  const q = useQuery(ruleListQuery(tenantId, { things_id: thingsId, current_page: page.page, page_size: page.size }));
  const refresh = () => qc.invalidateQueries({ queryKey: triggerKeys.rules(tenantId) });

  const status = useMutation({
    mutationFn: (v: { id: string; enabled: boolean }) => triggerApi.setStatus(tenantId, v.id, v.enabled),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => triggerApi.remove(tenantId, id),
    onSuccess: () => {
      message.success(t('trigger.list.deleted'));
      return refresh();
    },
  });
  const exportRules = useMutation({
    mutationFn: () => triggerApi.exportRules(tenantId, thingsId),
    onSuccess: (file) => saveBlob(new Blob([JSON.stringify(file, null, 2)], { type: 'application/json' }), 'trigger-rules.json'),
  });
  const importRules = useMutation({
    mutationFn: (rules: Record<string, unknown>[]) => triggerApi.importRules(tenantId, thingsId, rules),
    onSuccess: (result) => {
      setImportResult(result);
      return refresh();
    },
  });

  const onFile = async (file: File) => {
    const rules = parseImportFile(await file.text());
    if (!rules) message.error(t('trigger.import.badFile'));
    else importRules.mutate(rules);
    return false;
  };

  return (
    <div data-testid="trigger-rules">
      <Space style={{ marginBottom: 12 }} wrap>
        {mayCall(Routes.alert.create) && (
          <Link to={editRuleHref(thingsId)}>
            <Button type="primary" data-testid="trigger-add">
              {t('trigger.list.add')}
            </Button>
          </Link>
        )}
        {mayCall(Routes.alert.importRules) && (
          <Upload accept=".json,application/json" showUploadList={false} beforeUpload={onFile}>
            <Button loading={importRules.isPending} data-testid="trigger-import">
              {t('trigger.list.import')}
            </Button>
          </Upload>
        )}
        {mayCall(Routes.alert.exportRules) && (
          <Button loading={exportRules.isPending} onClick={() => exportRules.mutate()} data-testid="trigger-export">
            {t('trigger.list.export')}
          </Button>
        )}
      </Space>
      {importResult && (
        <Alert
          data-testid="trigger-import-result"
          style={{ marginBottom: 12 }}
          type={importResult.failed ? 'warning' : 'success'}
          closable={{ onClose: () => setImportResult(null) }}
          title={t('trigger.import.summary', { imported: importResult.imported, failed: importResult.failed })}
          description={
            importResult.failed ? (
              <List
                size="small"
                dataSource={importResult.results.filter((r) => !r.ok)}
                renderItem={(r) => (
                  <List.Item>
                    <Typography.Text>
                      {t('trigger.import.row', { index: r.index + 1 })} {r.name ?? ''}:{' '}
                      {r.code && t(`errors.${r.code}`, { defaultValue: r.message ?? r.code })}
                    </Typography.Text>
                  </List.Item>
                )}
              />
            ) : null
          }
        />
      )}
      <Table<TriggerRule>
        rowKey="id"
        size="small"
        loading={q.isFetching}
        dataSource={q.data?.list ?? []}
        pagination={false}
        columns={[
          {
            title: t('trigger.field.name'),
            dataIndex: 'name',
            render: (name: string, r) => <Link to={editRuleHref(thingsId, r.id)}>{name}</Link>,
          },
          {
            title: t('trigger.field.level'),
            dataIndex: 'level',
            render: (l: string) => (
              <Tag color={l === 'urgent' ? 'red' : 'blue'}>{l === 'urgent' ? t('trigger.level.urgent') : t('trigger.level.ordinary')}</Tag>
            ),
          },
          {
            title: t('trigger.field.dataType'),
            dataIndex: 'data_type',
            render: (d: string) => t(`trigger.dataType.${d}`),
          },
          {
            title: t('trigger.field.status'),
            dataIndex: 'status',
            render: (s: number, r) => (
              <Switch
                size="small"
                data-testid="trigger-status"
                checked={s === 1}
                loading={status.isPending && status.variables?.id === r.id}
                disabled={!mayCall(Routes.alert.setStatus)}
                onChange={(enabled) => status.mutate({ id: r.id, enabled })}
              />
            ),
          },
          {
            title: t('trigger.list.actions'),
            key: 'actions',
            render: (_, r) => (
              <Space>
                {mayCall(Routes.alert.update) && <Link to={editRuleHref(thingsId, r.id)}>{t('trigger.list.edit')}</Link>}
                {!mayCall(Routes.alert.remove) ? null : r.status === 1 ? (
                  <Tooltip title={t('errors.alert.rule-enabled')}>
                    <Button size="small" type="link" danger disabled>
                      {t('trigger.list.delete')}
                    </Button>
                  </Tooltip>
                ) : (
                  <Popconfirm title={t('trigger.list.confirmDelete')} onConfirm={() => remove.mutate(r.id)}>
                    <Button size="small" type="link" danger data-testid="trigger-delete">
                      {t('trigger.list.delete')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <div style={{ marginTop: 8 }}>
        <Paginator value={page} total={q.data?.total ?? 0} onChange={setPage} />
      </div>
    </div>
  );
}
