import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { MappingEntity } from '@loggerhead/contract/schemas/mapping-rules.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, type ButtonProps, Flex, Form, Input, Modal, Select, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDeleteButton } from '../../../components/confirm-delete-button.tsx';
import { mayCall } from '../../../session/can.ts';
import { type EntityBody, entitiesQuery, rulesApi, rulesKeys } from '../api/rules.api.ts';

const TYPES = [1, 2, 4, 5, 7] as const;

function EntityDialog({ tenantId, entity, onClose }: { tenantId: string; entity: MappingEntity | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<EntityBody>();
  const save = useMutation({
    mutationFn: (body: EntityBody) => (entity ? rulesApi.updateEntity(tenantId, entity.id, body) : rulesApi.createEntity(tenantId, body)),
    onSuccess: () => {
      message.success(t('device-type.model.saved'));
      onClose();
    },
  });
  return (
    <Modal
      open
      width={760}
      title={t(entity ? 'device-type.entity.edit' : 'device-type.entity.add')}
      onOk={() => form.submit()}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'entity-save' } as ButtonProps}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<EntityBody>
        form={form}
        layout="vertical"
        onFinish={(v) => save.mutate({ ...v, fields: v.fields.map((f) => ({ ...f, key: f.key.trim() })) })}
        initialValues={entity ?? { source: 'json', fields: [{ key: '', name: '', data_type: 1, unit: '' }] }}
      >
        <Flex gap={12}>
          <Form.Item
            name="name"
            label={t('device-type.entity.name')}
            rules={[{ required: true, whitespace: true, max: 64 }]}
            style={{ flex: 1 }}
          >
            <Input data-testid="entity-name" />
          </Form.Item>
          <Form.Item name="source" label={t('device-type.mapping.source')} style={{ width: 180 }}>
            <Select
              options={[
                { value: 'json', label: t('device-type.mapping.sources.json') },
                { value: 'can', label: t('device-type.mapping.sources.can') },
              ]}
            />
          </Form.Item>
        </Flex>
        <Form.Item name="description" label={t('device-type.mapping.description')}>
          <Input maxLength={256} />
        </Form.Item>
        <Form.List name="fields">
          {(fields, { add, remove }) => (
            <>
              {fields.map((f) => (
                <Flex key={f.key} gap={8} align="baseline">
                  <Form.Item
                    name={[f.name, 'key']}
                    rules={[{ required: true, whitespace: true, message: t('device-type.mapping.keyRequired') }]}
                    style={{ flex: 1 }}
                  >
                    <Input placeholder={t('device-type.entity.key')} className="lh-mono" />
                  </Form.Item>
                  <Form.Item name={[f.name, 'name']} style={{ flex: 1 }}>
                    <Input placeholder={t('device-type.entity.fieldName')} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'data_type']} style={{ width: 120 }}>
                    <Select options={TYPES.map((v) => ({ value: v, label: t(`device-type.entity.types.${v}`) }))} />
                  </Form.Item>
                  <Form.Item name={[f.name, 'unit']}>
                    <Input placeholder={t('device-type.mapping.unit')} style={{ width: 110 }} />
                  </Form.Item>
                  <MinusCircleOutlined aria-label={t('device-type.action.delete')} onClick={() => fields.length > 1 && remove(f.name)} />
                </Flex>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ key: '', name: '', data_type: 1, unit: '' })} block>
                {t('device-type.entity.addField')}
              </Button>
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}

/** The tenant's entities (decision 0156): raw uplink shapes that mapping rules take their keys from. */
export function EntityPanel({ tenantId }: { tenantId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const list = useQuery(entitiesQuery(tenantId));
  const [editing, setEditing] = useState<MappingEntity | null | undefined>(undefined);
  const done = () => void qc.invalidateQueries({ queryKey: rulesKeys.all });
  const remove = useMutation({
    mutationFn: (id: string) => rulesApi.removeEntity(tenantId, id),
    onSuccess: () => {
      message.success(t('device-type.model.deleted'));
      done();
    },
  });
  return (
    <>
      <Flex justify="space-between" style={{ marginBottom: 12 }}>
        <Typography.Text type="secondary">{t('device-type.entity.intro')}</Typography.Text>
        {mayCall(Routes.mappingEntities.create) && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)} data-testid="add-entity">
            {t('device-type.entity.add')}
          </Button>
        )}
      </Flex>
      <Table<MappingEntity>
        data-testid="entity-table"
        rowKey="id"
        size="middle"
        loading={list.isFetching && !list.data}
        dataSource={list.data?.list ?? []}
        pagination={{ pageSize: 100, size: 'small' }}
        columns={[
          { key: 'name', title: t('device-type.entity.name'), render: (_v, e) => <Typography.Text strong>{e.name}</Typography.Text> },
          { key: 'source', title: t('device-type.mapping.source'), render: (_v, e) => t(`device-type.mapping.sources.${e.source}`) },
          {
            key: 'fields',
            title: t('device-type.entity.fields'),
            render: (_v, e) => (
              <Typography.Text code>{e.fields.map((f) => `${f.key}${f.unit ? ` [${f.unit}]` : ''}`).join(', ')}</Typography.Text>
            ),
          },
          { key: 'rules', title: t('device-type.entity.rules'), align: 'right', dataIndex: 'rules_count' },
          {
            key: 'ops',
            title: t('device-type.col.actions'),
            render: (_v, e) => (
              <Flex gap={4}>
                {mayCall(Routes.mappingEntities.update) && (
                  <Button type="link" size="small" onClick={() => setEditing(e)}>
                    {t('device-type.action.edit')}
                  </Button>
                )}
                {mayCall(Routes.mappingEntities.remove) && (
                  <ConfirmDeleteButton
                    label={t('device-type.action.delete')}
                    title={t('device-type.entity.confirmDelete', { name: e.name })}
                    content={t('device-type.entity.confirmDeleteText')}
                    onConfirm={() => remove.mutateAsync(e.id)}
                  />
                )}
              </Flex>
            ),
          },
        ]}
      />
      {editing !== undefined && (
        <EntityDialog
          tenantId={tenantId}
          entity={editing}
          onClose={() => {
            setEditing(undefined);
            done();
          }}
        />
      )}
    </>
  );
}
