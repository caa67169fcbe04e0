import { DeleteOutlined, DownloadOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import {
  CONFIG_LIMITS,
  type ConfigNumberField,
  type DeviceConfig,
  DeviceConfigSchema,
  MAX_ID_FILTERS,
  MAX_TIME_FILTERS,
} from '@loggerhead/contract/schemas/command.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Checkbox, Col, Flex, Form, Input, InputNumber, Row, Select, Space, Typography, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { mayCall } from '../../../session/can.ts';
import { type ConfigResult, configApi } from '../api/config.api.ts';
import { commandQuery, isFinal, lastConfigQuery, remoteKeys } from '../api/remote.queries.ts';
import { cleanConfig, configFileText, parseConfigFile } from '../lib/config-file.ts';
import { CommandStateTag } from './command-list.tsx';

const NUMBER_FIELDS = Object.keys(CONFIG_LIMITS) as ConfigNumberField[];
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Device configuration (spec §9): read from / write to the logger; every range is a form rule; JSON import/export. */
export function ConfigEditor({ thingId, tenantId }: { thingId: string; tenantId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<DeviceConfig>();
  const [pending, setPending] = useState<string | null>(null);
  const last = useQuery(lastConfigQuery(tenantId, thingId));
  const followed = useQuery(commandQuery(tenantId, thingId, pending));

  useEffect(() => {
    if (last.data) form.setFieldsValue(last.data.config);
  }, [last.data, form]);
  useEffect(() => {
    // A command the device answered later than the request waited: the server now holds the result.
    if (followed.data && isFinal(followed.data.state)) {
      client.invalidateQueries({ queryKey: remoteKeys.device(tenantId, thingId) });
      if (followed.data.state !== 'answered' || followed.data.code !== 0)
        message.error(followed.data.message || t(`remote.state.${followed.data.state}`));
      setPending(null);
    }
  }, [followed.data, client, tenantId, thingId, message, t]);

  const settle = (r: ConfigResult, done: string) => {
    if (r.config) {
      form.setFieldsValue(r.config);
      message.success(t(done));
    } else if (!isFinal(r.command.state)) setPending(r.command.correlation_id);
    else message.error(r.command.message || t(`remote.state.${r.command.state}`));
    client.invalidateQueries({ queryKey: remoteKeys.device(tenantId, thingId) });
  };
  const read = useMutation({ mutationFn: () => configApi.read(tenantId, thingId), onSuccess: (r) => settle(r, 'remote.config.readDone') });
  const write = useMutation({
    mutationFn: (c: DeviceConfig) => configApi.write(tenantId, thingId, c),
    onSuccess: (r) => settle(r, 'remote.config.written'),
  });

  const submit = async () => {
    const raw = await form.validateFields().catch(() => null);
    if (!raw) return; // the form shows what is wrong
    const values = cleanConfig(raw);
    const parsed = DeviceConfigSchema.safeParse(values);
    if (!parsed.success) {
      message.error(parsed.error.issues[0]?.message ?? '');
      return;
    }
    write.mutate(parsed.data);
  };
  const exportFile = () => {
    const blob = new Blob([configFileText(cleanConfig(form.getFieldsValue(true)))], { type: 'application/json' });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = `config-${thingId}.json`;
    a.click();
    URL.revokeObjectURL(url);
  };
  const importFile = async (file: File) => {
    // Size first: a file above 10 MB is refused without reading it.
    const r = parseConfigFile(file.size > 10 * 1024 * 1024 ? '' : await file.text(), file.size);
    if (r.ok) {
      form.resetFields();
      form.setFieldsValue(r.config);
      message.success(t('remote.config.imported'));
    } else message.error(`${t(`remote.config.fileError.${r.error}`)}${r.detail ? ` (${r.detail})` : ''}`);
    return false;
  };
  const busy = read.isPending || write.isPending || pending !== null;

  return (
    <Card
      size="small"
      title={t('remote.config.title')}
      data-testid="config-editor"
      extra={
        <Space wrap>
          {followed.data && !isFinal(followed.data.state) && <CommandStateTag state={followed.data.state} />}
          {mayCall(Routes.config.read) && (
            <Button size="small" loading={read.isPending} disabled={busy} onClick={() => read.mutate()}>
              {t('remote.config.read')}
            </Button>
          )}
          {mayCall(Routes.config.write) && (
            <Button size="small" type="primary" loading={write.isPending} disabled={busy} onClick={submit}>
              {t('remote.config.write')}
            </Button>
          )}
          <Upload accept=".json,application/json" showUploadList={false} beforeUpload={importFile}>
            <Button size="small" icon={<UploadOutlined />}>
              {t('remote.config.import')}
            </Button>
          </Upload>
          <Button size="small" icon={<DownloadOutlined />} onClick={exportFile}>
            {t('remote.config.export')}
          </Button>
        </Space>
      }
    >
      {last.data && (
        <Typography.Paragraph type="secondary">
          {t(`remote.config.source.${last.data.source}`, { time: formatDateTime(last.data.updated_at) })}
        </Typography.Paragraph>
      )}
      <Form form={form} layout="vertical" size="small" disabled={busy}>
        <Row gutter={12}>
          {NUMBER_FIELDS.map((f) => {
            const [min, max] = CONFIG_LIMITS[f];
            return (
              <Col key={f} xs={24} sm={12} md={8} lg={6}>
                <Form.Item
                  name={f}
                  label={t(`remote.config.field.${f}`)}
                  extra={`${min} – ${max}`}
                  rules={[{ type: 'integer', min, max, message: t('remote.config.range', { min, max }) }]}
                >
                  <InputNumber style={{ width: '100%' }} precision={0} />
                </Form.Item>
              </Col>
            );
          })}
          <Col xs={24} sm={12} md={8} lg={6}>
            <Form.Item name="remote_host" label={t('remote.config.field.remote_host')} rules={[{ max: 253 }]}>
              <Input />
            </Form.Item>
          </Col>
        </Row>
        <Typography.Title level={5}>{t('remote.config.timeFilters', { max: MAX_TIME_FILTERS })}</Typography.Title>
        <Form.List name="time_filters">
          {(fields, { add, remove }) => (
            <Flex vertical gap={4}>
              {fields.map((field) => (
                <Space key={field.key} align="baseline">
                  <Form.Item name={[field.name, 'begin']} rules={[{ required: true, pattern: HHMM, message: t('remote.config.hhmm') }]}>
                    <Input placeholder="HH:MM" style={{ width: 90 }} aria-label={t('remote.config.begin')} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'end']} rules={[{ required: true, pattern: HHMM, message: t('remote.config.hhmm') }]}>
                    <Input placeholder="HH:MM" style={{ width: 90 }} aria-label={t('remote.config.end')} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'enabled']} valuePropName="checked" initialValue={true}>
                    <Checkbox>{t('remote.config.enabled')}</Checkbox>
                  </Form.Item>
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    onClick={() => remove(field.name)}
                    aria-label={t('remote.frames.remove')}
                  />
                </Space>
              ))}
              <Button
                size="small"
                icon={<PlusOutlined />}
                disabled={fields.length >= MAX_TIME_FILTERS}
                onClick={() => add({ enabled: true })}
                style={{ width: 'fit-content' }}
              >
                {t('remote.config.addFilter')}
              </Button>
            </Flex>
          )}
        </Form.List>
        <Typography.Title level={5}>{t('remote.config.idFilters', { max: MAX_ID_FILTERS })}</Typography.Title>
        <Form.List name="id_filters">
          {(fields, { add, remove }) => (
            <Flex vertical gap={4}>
              {fields.map((field) => (
                <Space key={field.key} align="baseline" wrap>
                  <Form.Item name={[field.name, 'channel']} rules={[{ required: true, type: 'integer', min: 0, max: 15 }]}>
                    <InputNumber min={0} max={15} placeholder={t('remote.frames.channel')} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'ext']} valuePropName="checked" initialValue={false}>
                    <Checkbox>{t('remote.frames.ext')}</Checkbox>
                  </Form.Item>
                  <Form.Item name={[field.name, 'id_from']} rules={[{ required: true, type: 'integer', min: 0, max: 0x1fffffff }]}>
                    <InputNumber min={0} max={0x1fffffff} placeholder={t('remote.config.idFrom')} />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'id_to']}
                    dependencies={[
                      ['id_filters', field.name, 'id_from'],
                      ['id_filters', field.name, 'ext'],
                    ]}
                    rules={[
                      { required: true, type: 'integer', min: 0, max: 0x1fffffff },
                      ({ getFieldValue }) => ({
                        validator: (_r, v: number | undefined) => {
                          const from = getFieldValue(['id_filters', field.name, 'id_from']) as number | undefined;
                          const ext = getFieldValue(['id_filters', field.name, 'ext']) as boolean | undefined;
                          if (v !== undefined && from !== undefined && from > v) return Promise.reject(t('remote.config.idOrder'));
                          if (v !== undefined && !ext && v > 0x7ff) return Promise.reject(t('remote.frames.error.idStd'));
                          return Promise.resolve();
                        },
                      }),
                    ]}
                  >
                    <InputNumber min={0} max={0x1fffffff} placeholder={t('remote.config.idTo')} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'action']} initialValue="accept">
                    <Select
                      style={{ width: 110 }}
                      options={[
                        { value: 'accept', label: t('remote.config.accept') },
                        { value: 'reject', label: t('remote.config.reject') },
                      ]}
                    />
                  </Form.Item>
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    onClick={() => remove(field.name)}
                    aria-label={t('remote.frames.remove')}
                  />
                </Space>
              ))}
              <Button
                size="small"
                icon={<PlusOutlined />}
                disabled={fields.length >= MAX_ID_FILTERS}
                onClick={() => add({ ext: false, action: 'accept' })}
                style={{ width: 'fit-content' }}
              >
                {t('remote.config.addFilter')}
              </Button>
            </Flex>
          )}
        </Form.List>
      </Form>
    </Card>
  );
}
