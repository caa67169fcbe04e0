import { PlusOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { DeviceType } from '@loggerhead/contract/schemas/things.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Flex, Input, Popconfirm, Table, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { mayCall } from '../../../session/can.ts';
import { useSession } from '../../../session/use-session.ts';
import { deviceTypeKeys, deviceTypesQuery } from '../api/device-type.api.ts';
import { modelApi, modelKeys, modelsQuery, publicModelsQuery } from '../api/model.api.ts';
import { EdgeRulePanel } from '../components/edge-rule-panel.tsx';
import { EntityPanel } from '../components/entity-panel.tsx';
import { FunctionBlockPanel } from '../components/function-block-panel.tsx';
import { InfoModelDialog } from '../components/info-model-dialog.tsx';
import { MappingRulePanel } from '../components/mapping-rule-panel.tsx';
import { TwinRulePanel } from '../components/twin-rule-panel.tsx';
import { TypeFormDialog } from '../components/type-form-dialog.tsx';

export const detailsPath = (id: string) => `/Container/DeviceTypeDetails?id=${encodeURIComponent(id)}`;

/** Device types (spec §2 DeviceTypeList): the public types and the tenant's own; open one for its data schema. */
export default function DeviceTypeListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { tenantId } = useSession();
  const list = useQuery(deviceTypesQuery(tenantId));
  const [keyword, setKeyword] = useState('');
  const [adding, setAdding] = useState(false);
  const [addingModel, setAddingModel] = useState(false);
  const [tab, setTab] = useState('models');
  const { message } = App.useApp();
  const qc = useQueryClient();
  // Info model facts (function blocks, devices) beside each type: they are the same rows (decision 0123).
  const own = useQuery(modelsQuery(tenantId));
  const pub = useQuery(publicModelsQuery());
  const facts = new Map([...(own.data?.list ?? []), ...(pub.data?.list ?? [])].map((m) => [m.id, m]));
  const remove = useMutation({
    mutationFn: (v: { id: string; force: boolean }) => modelApi.removeModel(tenantId as string, v.id, v.force),
    onSuccess: () => {
      message.success(t('device-type.model.deleted'));
      void qc.invalidateQueries({ queryKey: modelKeys.all });
      void qc.invalidateQueries({ queryKey: deviceTypeKeys.all });
    },
  });
  const k = keyword.trim().toLowerCase();
  const rows = (list.data ?? []).filter((d) => !k || d.name.toLowerCase().includes(k) || (d.display_name ?? '').toLowerCase().includes(k));

  return (
    <Card
      variant="borderless"
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('device-type.list.title')}
        </Typography.Title>
      }
      extra={
        tab === 'models' &&
        mayCall(Routes.infoModels.create) && (
          <Flex gap={8}>
            <Button icon={<PlusOutlined />} onClick={() => setAddingModel(true)} data-testid="add-info-model">
              {t('device-type.model.model.add')}
            </Button>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="add-device-type">
              {t('device-type.list.add')}
            </Button>
          </Flex>
        )
      }
    >
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          { key: 'models', label: t('device-type.model.tab.models') },
          { key: 'blocks', label: t('device-type.model.tab.blocks') },
          ...(mayCall(Routes.twinRules.list) ? [{ key: 'rules', label: t('device-type.model.tab.rules') }] : []),
          ...(mayCall(Routes.mappingEntities.list) ? [{ key: 'entities', label: t('device-type.model.tab.entities') }] : []),
          ...(mayCall(Routes.mappingRules.list) ? [{ key: 'mapping', label: t('device-type.model.tab.mapping') }] : []),
          ...(mayCall(Routes.edgeRules.list) ? [{ key: 'edge', label: t('device-type.model.tab.edge') }] : []),
        ]}
      />
      {tab === 'blocks' && tenantId && <FunctionBlockPanel tenantId={tenantId} />}
      {tab === 'rules' && tenantId && <TwinRulePanel tenantId={tenantId} />}
      {tab === 'entities' && tenantId && <EntityPanel tenantId={tenantId} />}
      {tab === 'mapping' && tenantId && <MappingRulePanel tenantId={tenantId} />}
      {tab === 'edge' && tenantId && <EdgeRulePanel tenantId={tenantId} />}
      {tab === 'models' && (
        <>
          <Input.Search
            allowClear
            placeholder={t('device-type.list.search')}
            style={{ width: 280, marginBottom: 16 }}
            onSearch={setKeyword}
            onChange={(e) => !e.target.value && setKeyword('')}
          />
          <Table<DeviceType>
            data-testid="device-type-table"
            rowKey="id"
            size="middle"
            loading={list.isFetching && !list.data}
            dataSource={rows}
            pagination={{ pageSize: 10, showSizeChanger: true, pageSizeOptions: [10, 20, 30, 40, 50], size: 'small' }}
            onRow={(d) => ({ onClick: () => navigate(detailsPath(d.id)), style: { cursor: 'pointer' } })}
            columns={[
              { key: 'index', title: t('device-type.col.index'), width: 64, align: 'center', render: (_v, _d, i) => i + 1 },
              { key: 'name', title: t('device-type.col.name'), render: (_v, d) => <Typography.Link strong>{d.name}</Typography.Link> },
              { key: 'display_name', title: t('device-type.col.displayName'), render: (_v, d) => d.display_name || '--' },
              {
                key: 'kind',
                title: t('device-type.col.kind'),
                render: (_v, d) => (d.thing_type === 1 ? t('device-type.kind.iot') : t('device-type.kind.can')),
              },
              {
                key: 'channels',
                title: t('device-type.col.channels'),
                align: 'right',
                render: (_v, d) => (d.thing_type === 1 ? '--' : d.can_channels),
              },
              {
                key: 'public',
                title: t('device-type.col.scope'),
                render: (_v, d) =>
                  d.public ? <Tag color="blue">{t('device-type.scope.public')}</Tag> : <Tag>{t('device-type.scope.private')}</Tag>,
              },
              {
                key: 'blocks',
                title: t('device-type.model.model.blocks'),
                render: (_v, d) =>
                  facts.get(d.id)?.info_model_fn_blocks.map((b) => <Tag key={b.fn_block_id}>{b.display_name}</Tag>) ?? '--',
              },
              {
                key: 'things',
                title: t('device-type.model.model.things'),
                align: 'right',
                render: (_v, d) => facts.get(d.id)?.things_number ?? '--',
              },
              { key: 'description', title: t('device-type.col.description'), ellipsis: true, render: (_v, d) => d.description || '--' },
              {
                key: 'actions',
                title: t('device-type.col.actions'),
                render: (_v, d) => (
                  <Flex gap={4} onClick={(e) => e.stopPropagation()}>
                    <Button type="link" size="small" onClick={() => navigate(detailsPath(d.id))}>
                      {t('device-type.action.schema')}
                    </Button>
                    {!d.public && (
                      <Popconfirm
                        title={t('device-type.model.model.confirmDelete')}
                        onConfirm={() => remove.mutate({ id: d.id, force: true })}
                      >
                        <Button type="link" size="small" danger data-testid={`delete-model-${d.name}`}>
                          {t('device-type.action.delete')}
                        </Button>
                      </Popconfirm>
                    )}
                  </Flex>
                ),
              },
            ]}
          />
        </>
      )}
      {tenantId && <TypeFormDialog tenantId={tenantId} open={adding} onClose={() => setAdding(false)} />}
      {tenantId && addingModel && <InfoModelDialog tenantId={tenantId} open onClose={() => setAddingModel(false)} />}
    </Card>
  );
}
