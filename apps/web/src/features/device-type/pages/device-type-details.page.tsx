import { ArrowLeftOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { DataField, DataGroup } from '@loggerhead/contract/schemas/device-type-schema.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Collapse, Descriptions, Empty, Result, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { mayCall } from '../../../session/can.ts';
import { useSession } from '../../../session/use-session.ts';
import { dataSchemaQuery, deviceTypeApi, deviceTypeKeys, deviceTypesQuery } from '../api/device-type.api.ts';
import '../device-type.css';
import { FieldDialog } from '../components/field-dialog.tsx';
import { GroupDialog } from '../components/group-dialog.tsx';

type FieldTarget = { groupId: string; field: DataField | null } | null;

/**
 * A device type and its data schema (spec §2 DeviceTypeDetails, §3): data groups, each with
 * fields that say how the device data views show a value.
 */
export default function DeviceTypeDetailsPage() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const { tenantId } = useSession();
  const types = useQuery(deviceTypesQuery(tenantId));
  const schema = useQuery(dataSchemaQuery(tenantId, id));
  const [group, setGroup] = useState<DataGroup | 'new' | null>(null);
  const [field, setField] = useState<FieldTarget>(null);
  const type = types.data?.find((d) => d.id === id);

  const refresh = () => qc.invalidateQueries({ queryKey: deviceTypeKeys.schema(tenantId, id) });
  const removeGroup = useMutation({
    mutationFn: (g: DataGroup) => deviceTypeApi.deleteGroup(tenantId as string, id, g.id),
    onSuccess: () => {
      void message.success(t('device-type.form.deleted'));
      return refresh();
    },
  });
  const removeField = useMutation({
    mutationFn: (v: { groupId: string; fieldId: string }) => deviceTypeApi.deleteField(tenantId as string, id, v.groupId, v.fieldId),
    onSuccess: () => {
      void message.success(t('device-type.form.deleted'));
      return refresh();
    },
  });

  const back = (
    <Button
      type="text"
      icon={<ArrowLeftOutlined />}
      aria-label={t('device-type.details.back')}
      onClick={() => navigate('/Container/DeviceTypeList')}
    />
  );
  if (!id) return <Result status="warning" title={t('device-type.details.missing')} />;
  if (schema.isError) return <Result status="404" title={t('device-type.details.notFound')} extra={back} />;

  const fieldsTable = (g: DataGroup) => (
    <Table<DataField>
      size="small"
      rowKey="id"
      dataSource={g.fields}
      pagination={false}
      locale={{ emptyText: t('device-type.field.empty') }}
      data-testid={`fields-${g.name}`}
      columns={[
        { key: 'name', title: t('device-type.field.name'), render: (_v, f) => <span className="lh-mono">{f.name}</span> },
        { key: 'display_name', title: t('device-type.field.displayName'), render: (_v, f) => f.display_name || '--' },
        {
          key: 'format',
          title: t('device-type.field.format'),
          render: (_v, f) => (
            <>
              {t(`device-type.format.${f.display_format}`)}
              {f.display_format === 'accuracy' && ` (${f.accuracy})`}
              {f.display_format === 'time' && <Typography.Text type="secondary"> {f.time_format}</Typography.Text>}
            </>
          ),
        },
        {
          key: 'is_array',
          title: t('device-type.field.isArray'),
          render: (_v, f) => (f.is_array ? t('device-type.yes') : t('device-type.no')),
        },
        {
          key: 'is_display',
          title: t('device-type.field.isDisplay'),
          render: (_v, f) => (f.is_display ? <Tag color="green">{t('device-type.yes')}</Tag> : <Tag>{t('device-type.no')}</Tag>),
        },
        { key: 'notes', title: t('device-type.field.notes'), ellipsis: true, render: (_v, f) => f.notes || '--' },
        {
          key: 'actions',
          title: t('device-type.col.actions'),
          width: 140,
          render: (_v, f) => (
            <Space size={0}>
              {mayCall(Routes.deviceTypeSchema.updateField) && (
                <Button type="link" size="small" onClick={() => setField({ groupId: g.id, field: f })}>
                  {t('device-type.action.edit')}
                </Button>
              )}
              {mayCall(Routes.deviceTypeSchema.deleteField) && (
                <Button
                  type="link"
                  size="small"
                  danger
                  onClick={() =>
                    modal.confirm({
                      title: t('device-type.field.deleteConfirm', { name: f.name }),
                      okButtonProps: { danger: true },
                      okText: t('device-type.action.delete'),
                      cancelText: t('common.action.cancel'),
                      onOk: () => removeField.mutateAsync({ groupId: g.id, fieldId: f.id }),
                    })
                  }
                >
                  {t('device-type.action.delete')}
                </Button>
              )}
            </Space>
          ),
        },
      ]}
    />
  );

  return (
    <Card
      variant="borderless"
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          {back}
          {t('device-type.details.title')}
          {type && <Typography.Text type="secondary"> · {type.display_name || type.name}</Typography.Text>}
        </Typography.Title>
      }
      extra={
        mayCall(Routes.deviceTypeSchema.createGroup) && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setGroup('new')} data-testid="add-group">
            {t('device-type.group.add')}
          </Button>
        )
      }
    >
      {type ? (
        <Descriptions size="small" column={{ xs: 1, md: 3 }} style={{ marginBottom: 16 }}>
          <Descriptions.Item label={t('device-type.col.name')}>{type.name}</Descriptions.Item>
          <Descriptions.Item label={t('device-type.col.kind')}>
            {type.thing_type === 1 ? t('device-type.kind.iot') : t('device-type.kind.can')}
          </Descriptions.Item>
          <Descriptions.Item label={t('device-type.col.channels')}>{type.thing_type === 1 ? '--' : type.can_channels}</Descriptions.Item>
          <Descriptions.Item label={t('device-type.col.scope')}>
            {type.public ? t('device-type.scope.public') : t('device-type.scope.private')}
          </Descriptions.Item>
          <Descriptions.Item label={t('device-type.col.description')} span={2}>
            {type.description || '--'}
          </Descriptions.Item>
        </Descriptions>
      ) : (
        <Skeleton active paragraph={{ rows: 1 }} />
      )}
      <Typography.Paragraph type="secondary">{t('device-type.details.schemaHint')}</Typography.Paragraph>
      {!schema.data ? (
        <Skeleton active />
      ) : schema.data.groups.length === 0 ? (
        <Empty description={t('device-type.group.empty')} />
      ) : (
        <Collapse
          defaultActiveKey={schema.data.groups.map((g) => g.id)}
          data-testid="data-groups"
          items={schema.data.groups.map((g) => ({
            key: g.id,
            label: (
              <Space>
                <span className="lh-mono">{g.name}</span>
                {g.display_name && <Typography.Text type="secondary">{g.display_name}</Typography.Text>}
                <Tag>{t('device-type.group.fieldCount', { n: g.fields.length })}</Tag>
              </Space>
            ),
            extra: (
              <Space size={0} onClick={(e) => e.stopPropagation()}>
                {mayCall(Routes.deviceTypeSchema.createField) && (
                  <Button
                    size="small"
                    type="text"
                    icon={<PlusOutlined />}
                    onClick={() => setField({ groupId: g.id, field: null })}
                    data-testid="add-field"
                  >
                    {t('device-type.field.add')}
                  </Button>
                )}
                {mayCall(Routes.deviceTypeSchema.updateGroup) && (
                  <Button
                    size="small"
                    type="text"
                    icon={<EditOutlined />}
                    aria-label={t('device-type.action.edit')}
                    onClick={() => setGroup(g)}
                  />
                )}
                {mayCall(Routes.deviceTypeSchema.deleteGroup) && (
                  <Button
                    size="small"
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('device-type.action.delete')}
                    onClick={() =>
                      modal.confirm({
                        title: t('device-type.group.deleteConfirm', { name: g.name }),
                        content: t('device-type.group.deleteText'),
                        okButtonProps: { danger: true },
                        okText: t('device-type.action.delete'),
                        cancelText: t('common.action.cancel'),
                        onOk: () => removeGroup.mutateAsync(g),
                      })
                    }
                  />
                )}
              </Space>
            ),
            children: fieldsTable(g),
          }))}
        />
      )}
      {tenantId && (
        <>
          <GroupDialog
            tenantId={tenantId}
            typeId={id}
            group={group === 'new' ? null : group}
            open={group !== null}
            onClose={() => setGroup(null)}
          />
          <FieldDialog
            tenantId={tenantId}
            typeId={id}
            groupId={field?.groupId ?? ''}
            field={field?.field ?? null}
            open={field !== null}
            onClose={() => setField(null)}
          />
        </>
      )}
    </Card>
  );
}
