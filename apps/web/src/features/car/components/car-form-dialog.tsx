import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { type Vehicle, VIN_RE } from '@loggerhead/contract/schemas/things.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Flex, Form, Input, Modal, Select, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/error-funnel.ts';
import { carApi, type VehicleInput } from '../api/car.api.ts';
import { carKeys, pickerDevicesQuery } from '../api/car.queries.ts';
import { MONO } from './mono.ts';

interface Props {
  tenantId: string;
  /** null closed, 'new' to add, a vehicle to edit. */
  target: Vehicle | 'new' | null;
  onClose: () => void;
  onSaved?: (v: Vehicle) => void;
}

interface FormValues {
  name: string;
  vin?: string;
  description?: string;
  channels: { name: string; things_id?: string; channel?: number }[];
}

/** Add or edit a vehicle: name, VIN (ISO 3779), and its channels bound to device CAN channels. */
export function CarFormDialog({ tenantId, target, onClose, onSaved }: Props) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const qc = useQueryClient();
  const devices = useQuery({ ...pickerDevicesQuery(tenantId), enabled: target !== null });
  const editing = target !== null && target !== 'new' ? target : null;

  useEffect(() => {
    if (target === null) return;
    form.setFieldsValue(
      editing
        ? {
            name: editing.name,
            vin: editing.vin ?? '',
            description: editing.description ?? '',
            channels: editing.channels.map((c) => ({ name: c.name, things_id: c.things_id, channel: c.channel })),
          }
        : { name: '', vin: '', description: '', channels: [] },
    );
  }, [target, editing, form]);

  const save = useMutation({
    mutationFn: (body: VehicleInput) => (editing ? carApi.update(tenantId, editing.id, body) : carApi.create(tenantId, body)),
    meta: { silent: true },
    onSuccess: (v) => {
      void qc.invalidateQueries({ queryKey: carKeys.vehicles() });
      void message.success(t('car.form.saved'));
      onSaved?.(v);
      onClose();
    },
    onError: (e) => {
      const field = e.errors[0]?.field;
      const text = errorText(e, t, (k) => i18n.exists(k));
      if (field === 'vin' || field === 'name') form.setFields([{ name: field, errors: [text] }]);
      else void message.error(text);
    },
  });

  const channelCount = (thingsId?: string) => devices.data?.find((d) => d.id === thingsId)?.can_channels ?? 0;

  return (
    <Modal
      open={target !== null}
      title={editing ? t('car.form.editTitle') : t('car.form.addTitle')}
      okText={t('common.action.ok')}
      cancelText={t('common.action.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      width={720}
      forceRender
    >
      <Form<FormValues>
        form={form}
        layout="vertical"
        name="car-form"
        onFinish={(v) =>
          save.mutate({
            name: v.name.trim(),
            vin: v.vin?.trim() ? v.vin.trim() : null,
            description: v.description?.trim() || null,
            channels: (v.channels ?? []).map((c) => ({
              name: c.name.trim(),
              things_id: c.things_id as string,
              channel: c.channel as number,
            })),
          })
        }
      >
        <Flex gap={16}>
          <Form.Item
            name="name"
            label={t('car.form.name')}
            style={{ flex: 1 }}
            rules={[{ required: true, whitespace: true, message: t('car.form.nameRequired') }]}
          >
            <Input maxLength={64} />
          </Form.Item>
          <Form.Item
            name="vin"
            label={t('car.form.vin')}
            style={{ flex: 1 }}
            normalize={(v: string) => v?.toUpperCase().replace(/\s/g, '')}
            rules={[{ pattern: VIN_RE, message: t('car.form.vinFormat') }]}
          >
            <Input maxLength={17} showCount placeholder={t('car.form.vinPlaceholder')} style={{ fontFamily: MONO }} />
          </Form.Item>
        </Flex>
        <Form.Item name="description" label={t('car.form.description')}>
          <Input.TextArea maxLength={256} rows={2} />
        </Form.Item>
        <Typography.Text strong>{t('car.form.channels')}</Typography.Text>
        <Form.List name="channels">
          {(fields, { add, remove }) => (
            <div style={{ marginTop: 8 }}>
              {fields.map((field, i) => (
                <Flex key={field.key} gap={8} align="start">
                  <Form.Item
                    name={[field.name, 'name']}
                    style={{ flex: 1 }}
                    rules={[{ required: true, whitespace: true, message: t('car.form.channelNameRequired') }]}
                  >
                    <Input placeholder={t('car.form.channelName')} maxLength={32} aria-label={t('car.form.channelName')} />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'things_id']}
                    style={{ flex: 1.4 }}
                    rules={[{ required: true, message: t('car.form.deviceRequired') }]}
                  >
                    <Select
                      showSearch={{ optionFilterProp: 'label' }}
                      placeholder={t('car.form.device')}
                      aria-label={t('car.form.device')}
                      loading={devices.isPending}
                      options={(devices.data ?? [])
                        .filter((d) => d.can_channels > 0)
                        .map((d) => ({ value: d.id, label: `${d.name} (${d.third_things_id})` }))}
                      onChange={() => form.setFieldValue(['channels', field.name, 'channel'], undefined)}
                    />
                  </Form.Item>
                  <Form.Item noStyle shouldUpdate>
                    {() => {
                      const thingsId = form.getFieldValue(['channels', field.name, 'things_id']) as string | undefined;
                      return (
                        <Form.Item
                          name={[field.name, 'channel']}
                          style={{ width: 130 }}
                          rules={[
                            { required: true, message: t('car.form.deviceChannelRequired') },
                            {
                              validator: async (_r, value) => {
                                const all = (form.getFieldValue('channels') ?? []) as FormValues['channels'];
                                const clash = all.some((c, j) => j !== i && c?.things_id === thingsId && c?.channel === value);
                                if (value !== undefined && clash) throw new Error(t('car.form.duplicateChannel'));
                              },
                            },
                          ]}
                        >
                          <Select
                            placeholder={t('car.form.deviceChannel')}
                            aria-label={t('car.form.deviceChannel')}
                            options={Array.from({ length: channelCount(thingsId) }, (_, n) => ({ value: n, label: `CAN${n}` }))}
                          />
                        </Form.Item>
                      );
                    }}
                  </Form.Item>
                  <Button icon={<DeleteOutlined />} aria-label={t('car.form.removeChannel')} onClick={() => remove(field.name)} />
                </Flex>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ name: `CAN${fields.length}` })} block>
                {t('car.form.addChannel')}
              </Button>
            </div>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
