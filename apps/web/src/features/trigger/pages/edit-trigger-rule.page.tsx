import { ArrowLeftOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Divider, Form, Input, InputNumber, Radio, Result, Select, Space, Spin, Switch } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { bindingsQuery, dbcMessagesQuery } from '../../../api/dbc.queries.ts';
import { fenceListQuery } from '../../../api/efence.api.ts';
import { mayCall } from '../../../session/can.ts';
import { useSession } from '../../../session/use-session.ts';
import { triggerApi } from '../api/trigger.api.ts';
import { ruleQuery, triggerKeys } from '../api/trigger.queries.ts';
import { ActionsFields } from '../components/actions-fields.tsx';
import { ConditionList } from '../components/condition-list.tsx';
import {
  COMMAND_MIN_MINUTES,
  type ConditionForm,
  formToInput,
  NOTIFY_MIN_MINUTES,
  newRuleForm,
  type RuleForm,
  ruleToForm,
  signalConditionCount,
} from '../trigger-rule.form.ts';
import { parseFrameId } from '../trigger-rule.logic.ts';

const MAX_MINUTES = 7 * 24 * 60;

/** /Container/EditTriggerRule?things_id=…&id=… — create (no id) or edit one trigger rule (spec §3, §5). */
export default function EditTriggerRulePage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [params] = useSearchParams();
  const { tenantId } = useSession();
  const thingsId = params.get('things_id') ?? '';
  const id = params.get('id') ?? '';
  const [form] = Form.useForm<RuleForm>();
  const rule = useQuery(ruleQuery(tenantId, id));
  const fences = useQuery(fenceListQuery(tenantId, { things_id: thingsId || undefined, current_page: 1, page_size: 100 }));
  const dataType = Form.useWatch('data_type', form) ?? 'raw';
  const frameFormat = Form.useWatch('frame_format', form) ?? 'standard';
  const channel = Form.useWatch('channel', form);
  // A signal rule needs a DBC bound to its channel (spec §5): its messages and signals are offered.
  const bindings = useQuery({ ...bindingsQuery(tenantId, thingsId), enabled: dataType === 'signal' && Boolean(tenantId && thingsId) });
  const binding = bindings.data?.find((b) => b.channel === channel);
  const dbcMessages = useQuery(dbcMessagesQuery(tenantId, binding?.dbc_id ?? null));
  const back = () => navigate(`/Container/HomePage/DeviceDetails?id=${encodeURIComponent(thingsId)}&tab=trigger`);

  useEffect(() => {
    if (rule.data) form.setFieldsValue(ruleToForm(rule.data));
  }, [rule.data, form]);

  const save = useMutation({
    mutationFn: (f: RuleForm) => {
      const body = formToInput(f, thingsId);
      return id ? triggerApi.update(tenantId as string, id, body) : triggerApi.create(tenantId as string, body);
    },
    onSuccess: async () => {
      message.success(t('trigger.edit.saved'));
      await qc.invalidateQueries({ queryKey: triggerKeys.rules(tenantId) });
      back();
    },
  });

  if (!thingsId) return <Result status="warning" title={t('trigger.edit.title')} subTitle={t('trigger.edit.noDevice')} />;
  if (id && rule.isPending) return <Spin style={{ display: 'block', margin: '80px auto' }} />;

  return (
    <Card
      variant="borderless"
      data-testid="edit-trigger-rule"
      title={
        <Space>
          <Button icon={<ArrowLeftOutlined />} type="text" onClick={back} aria-label={t('trigger.edit.back')} />
          {id ? t('trigger.edit.title') : t('trigger.edit.newTitle')}
        </Space>
      }
    >
      <Form<RuleForm>
        form={form}
        layout="vertical"
        initialValues={newRuleForm()}
        onFinish={(v) => save.mutate(v)}
        style={{ maxWidth: 960 }}
        scrollToFirstError
      >
        <Form.Item
          name="name"
          label={t('trigger.field.name')}
          rules={[
            { required: true, whitespace: true, message: t('trigger.edit.nameRequired') },
            { max: 50, message: t('trigger.edit.nameLength') },
          ]}
        >
          <Input maxLength={50} showCount data-testid="trigger-name" />
        </Form.Item>
        <Form.Item name="data_type" label={t('trigger.field.dataType')}>
          <Radio.Group
            options={(['raw', 'signal', 'fence'] as const).map((d) => ({ value: d, label: t(`trigger.dataType.${d}`) }))}
            optionType="button"
            onChange={(e) => {
              // A signal rule needs one signal condition: the first condition becomes it.
              const list = form.getFieldValue('conditions') as ConditionForm[] | undefined;
              if (e.target.value === 'signal' && list?.length && signalConditionCount(list) === 0)
                form.setFieldValue(['conditions', 0], { source: 'signal', op: list[0].op ?? '>', value: list[0].value });
              if (e.target.value === 'raw' && list?.some((c) => c?.source === 'signal'))
                form.setFieldValue(
                  'conditions',
                  list.map((c) =>
                    c?.source === 'signal' ? { ...c, source: 'data', start_byte: 0, length: 1, byte_order: 'intel', signed: false } : c,
                  ),
                );
            }}
          />
        </Form.Item>
        {dataType !== 'fence' ? (
          <>
            <Space wrap align="start">
              <Form.Item name="channel" label={t('trigger.field.channel')} rules={[{ required: true }]}>
                <InputNumber min={0} max={15} precision={0} />
              </Form.Item>
              <Form.Item name="frame_format" label={t('trigger.field.frameFormat')}>
                <Select
                  style={{ width: 140 }}
                  onChange={() => form.validateFields(['frame_id']).catch(() => undefined)}
                  options={[
                    { value: 'standard', label: t('trigger.frame.standard') },
                    { value: 'extended', label: t('trigger.frame.extended') },
                  ]}
                />
              </Form.Item>
              <Form.Item name="frame_type" label={t('trigger.field.frameType')}>
                <Select
                  style={{ width: 140 }}
                  options={[
                    { value: 'data', label: t('trigger.frame.data') },
                    { value: 'remote', label: t('trigger.frame.remote') },
                  ]}
                />
              </Form.Item>
              <Form.Item
                name="frame_id"
                label={t('trigger.field.frameId')}
                extra={frameFormat === 'extended' ? '0x0 – 0x1FFFFFFF' : '0x0 – 0x7FF'}
                rules={[
                  { required: dataType === 'raw', message: t('trigger.edit.frameIdRequired') },
                  {
                    validator: async (_, v: string | undefined) => {
                      if (v && parseFrameId(v, frameFormat) === null)
                        throw new Error(frameFormat === 'extended' ? t('trigger.edit.frameIdExtended') : t('trigger.edit.frameIdStandard'));
                    },
                  },
                ]}
              >
                <Input prefix="0x" style={{ width: 160 }} data-testid="trigger-frame-id" />
              </Form.Item>
            </Space>
            <Form.Item name="condition_join" label={t('trigger.field.join')}>
              <Radio.Group
                options={[
                  { value: 'and', label: t('trigger.join.and') },
                  { value: 'or', label: t('trigger.join.or') },
                ]}
              />
            </Form.Item>
            {dataType === 'signal' && bindings.isSuccess && !binding && (
              <Alert
                type="warning"
                showIcon
                style={{ marginBottom: 12 }}
                title={t('errors.alert.not-bound')}
                data-testid="trigger-not-bound"
              />
            )}
            <ConditionList dataType={dataType} messages={dataType === 'signal' ? dbcMessages.data : undefined} />
          </>
        ) : (
          <Space wrap align="start">
            <Form.Item
              name="fence_id"
              label={t('trigger.field.fence')}
              rules={[{ required: true, message: t('trigger.edit.fenceRequired') }]}
            >
              <Select
                style={{ width: 240 }}
                loading={fences.isFetching}
                options={(fences.data?.list ?? []).map((f) => ({ value: f.id, label: f.name }))}
              />
            </Form.Item>
            <Form.Item
              name="fence_rule"
              label={t('trigger.field.fenceRule')}
              rules={[{ required: true, message: t('trigger.edit.fenceRuleRequired') }]}
            >
              <Radio.Group
                options={[
                  { value: 'in', label: t('trigger.fence.in') },
                  { value: 'out', label: t('trigger.fence.out') },
                ]}
              />
            </Form.Item>
          </Space>
        )}
        <Divider />
        <Space wrap align="start">
          <Form.Item name="level" label={t('trigger.field.level')}>
            <Radio.Group
              options={[
                { value: 'ordinary', label: t('trigger.level.ordinary') },
                { value: 'urgent', label: t('trigger.level.urgent') },
              ]}
            />
          </Form.Item>
          <Form.Item name="enabled" label={t('trigger.field.status')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="share" label={t('trigger.field.share')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Space>
        <Form.Item name="description" label={t('trigger.field.description')} rules={[{ max: 500 }]}>
          <Input.TextArea maxLength={500} rows={2} />
        </Form.Item>
        <Form.Item name="alert_description" label={t('trigger.field.alertDescription')} rules={[{ max: 500 }]}>
          <Input.TextArea maxLength={500} rows={2} />
        </Form.Item>
        <Divider titlePlacement="start">{t('trigger.edit.actions')}</Divider>
        <ActionsFields name="actions" />
        <Space wrap align="start">
          <Form.Item
            name="notify_minutes"
            label={t('trigger.field.notifyEvery')}
            extra={t('trigger.edit.minMinutes', { min: NOTIFY_MIN_MINUTES })}
            rules={[
              { required: true },
              {
                type: 'number',
                min: NOTIFY_MIN_MINUTES,
                max: MAX_MINUTES,
                message: t('trigger.edit.minMinutes', { min: NOTIFY_MIN_MINUTES }),
              },
            ]}
          >
            <InputNumber min={NOTIFY_MIN_MINUTES} max={MAX_MINUTES} precision={0} addonAfter={t('trigger.edit.minutes')} />
          </Form.Item>
          <Form.Item
            name="command_minutes"
            label={t('trigger.field.commandEvery')}
            extra={t('trigger.edit.minMinutes', { min: COMMAND_MIN_MINUTES })}
            rules={[
              { required: true },
              {
                type: 'number',
                min: COMMAND_MIN_MINUTES,
                max: MAX_MINUTES,
                message: t('trigger.edit.minMinutes', { min: COMMAND_MIN_MINUTES }),
              },
            ]}
          >
            <InputNumber min={COMMAND_MIN_MINUTES} max={MAX_MINUTES} precision={0} addonAfter={t('trigger.edit.minutes')} />
          </Form.Item>
        </Space>
        <Divider titlePlacement="start">{t('trigger.edit.recover')}</Divider>
        <ActionsFields name="recover" />
        <Space style={{ display: 'flex', marginTop: 8 }}>
          {mayCall(id ? Routes.alert.update : Routes.alert.create) && (
            <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="trigger-save">
              {t('trigger.edit.save')}
            </Button>
          )}
          <Button onClick={back}>{t('trigger.edit.cancel')}</Button>
        </Space>
      </Form>
    </Card>
  );
}
