import { GRANTABLE_KEYS, type PermissionKey } from '@loggerhead/contract/permissions.ts';
import { useQuery } from '@tanstack/react-query';
import { DatePicker, Form, Input, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/form-modal.tsx';
import { can } from '../../../session/can.ts';
import { apiKeyApi, apiKeyKeys } from '../api/api-key.api.ts';

interface Values {
  name: string;
  permissions: string[];
  things_ids: string[];
  expires?: Dayjs | null;
}

const INITIAL: Values = { name: '', permissions: [], things_ids: [], expires: null };

/** Creates a key: name, permission keys (only those the user holds), optional devices and expiry. */
export function ApiKeyDialog({
  tenantId,
  open,
  onClose,
  onCreated,
}: {
  tenantId: string;
  open: boolean;
  onClose: () => void;
  onCreated: (token: string) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [keyword, setKeyword] = useState<string | undefined>();
  const devices = useQuery({
    queryKey: apiKeyKeys.devices(tenantId, keyword),
    queryFn: ({ signal }) => apiKeyApi.devices(tenantId, keyword, signal),
    enabled: open,
  });
  const holdable = GRANTABLE_KEYS.filter((k) => !k.startsWith('control:api-key:') && can(k as PermissionKey));
  const required = [{ required: true, message: t('api-key.form.required') }];
  return (
    <FormModal<Values>
      open={open}
      title={t('api-key.form.title')}
      form={form}
      record={null}
      initial={INITIAL}
      submit={async (v) => {
        const created = await apiKeyApi.create(tenantId, {
          name: v.name.trim(),
          permissions: v.permissions,
          things_ids: v.things_ids.length ? v.things_ids : null,
          expires_at: v.expires ? v.expires.valueOf() : null,
        });
        onCreated(created.token);
        return created;
      }}
      invalidate={apiKeyKeys.all}
      savedText={t('api-key.created.title')}
      fields={['name', 'permissions', 'things_ids']}
      onClose={onClose}
      name="api-key"
      width={620}
    >
      <Form.Item name="name" label={t('api-key.form.name')} rules={required}>
        <Input maxLength={64} />
      </Form.Item>
      <Form.Item name="permissions" label={t('api-key.form.permissions')} extra={t('api-key.form.permissionsHelp')} rules={required}>
        <Select mode="multiple" options={holdable.map((k) => ({ value: k, label: k }))} data-testid="api-key-permissions" />
      </Form.Item>
      <Form.Item name="things_ids" label={t('api-key.form.devices')}>
        <Select
          mode="multiple"
          showSearch
          filterOption={false}
          placeholder={t('api-key.form.devicesSearch')}
          onSearch={(v) => setKeyword(v.trim() || undefined)}
          loading={devices.isFetching}
          options={(devices.data?.list ?? []).map((d) => ({ value: d.id, label: `${d.name} (${d.third_things_id})` }))}
        />
      </Form.Item>
      <Form.Item name="expires" label={t('api-key.form.expires')}>
        <DatePicker showTime />
      </Form.Item>
    </FormModal>
  );
}
