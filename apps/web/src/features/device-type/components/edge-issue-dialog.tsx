import type { EdgeRule } from '@loggerhead/contract/schemas/edge.ts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { App, type ButtonProps, Form, Modal, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { groupPickQuery } from '../../../api/groups.api.ts';
import { modelDevicesQuery, rulesApi } from '../api/rules.api.ts';

/** Issues a rule to devices of its model and/or a group's members of that model. */
export function EdgeIssueDialog({ tenantId, rule, onClose }: { tenantId: string; rule: EdgeRule; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ things_ids?: string[]; group_id?: string }>();
  const devices = useQuery(modelDevicesQuery(tenantId, rule.info_model_id));
  const groups = useQuery(groupPickQuery(tenantId));
  const issue = useMutation({
    mutationFn: (v: { things_ids?: string[]; group_id?: string }) =>
      rulesApi.issue(tenantId, rule.id, { things_ids: v.things_ids ?? [], ...(v.group_id ? { group_id: v.group_id } : {}) }),
    onSuccess: (r) => {
      message.success(t('device-type.edge.issuedTo', { count: r.issued }));
      onClose();
    },
  });
  return (
    <Modal
      open
      title={t('device-type.edge.issueTitle', { name: rule.name, version: rule.version })}
      onOk={() => form.submit()}
      okText={t('device-type.edge.issue')}
      okButtonProps={{ loading: issue.isPending, 'data-testid': 'edge-issue-ok' } as ButtonProps}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('device-type.edge.issueHelp')}</Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        onFinish={(v) => {
          if (!v.things_ids?.length && !v.group_id) {
            form.setFields([{ name: 'things_ids', errors: [t('device-type.edge.pickTarget')] }]);
            return;
          }
          issue.mutate(v);
        }}
      >
        <Form.Item name="things_ids" label={t('device-type.edge.devices')}>
          <Select
            mode="multiple"
            showSearch
            optionFilterProp="label"
            loading={devices.isFetching}
            data-testid="edge-issue-devices"
            options={(devices.data?.list ?? []).map((d) => ({ value: d.id, label: `${d.name} (${d.third_things_id})` }))}
          />
        </Form.Item>
        <Form.Item name="group_id" label={t('device-type.edge.group')}>
          <Select allowClear options={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
