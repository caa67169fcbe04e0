import {
  type CreateSubUserRequest,
  DEFAULT_AREA_CODE,
  type DeviceAccessEntry,
  emailProblem,
  passwordProblem,
  type RuleCode,
  SUB_USERNAME_RE,
  type SubUser,
} from '@loggerhead/contract/schemas/accounts.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Checkbox, Form, type FormRule, Input, Modal, Tabs } from 'antd';
import type { TFunction } from 'i18next';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { grantsForMenus, READ_PRESET, SUB_USER_MENUS } from '../../../components/roles/grants.ts';
import { GrantsTree } from '../../../components/roles/grants-tree.tsx';
import { rules } from '../../../components/widgets/account-rules.ts';
import { PhoneInput } from '../../../components/widgets/phone-input.tsx';
import { useServerErrors } from '../../../components/widgets/use-server-errors.ts';
import { userApi, userKeys } from '../api/user.api.ts';
import { DeviceAccessEditor } from './device-access-editor.tsx';
import { initialPasswordOf } from './subuser-form.ts';

interface Values {
  username: string;
  area_code: string;
  mobile: string;
  email?: string;
  description?: string;
  password?: string;
  menus: string[];
  devices: DeviceAccessEntry[];
  grants: string[];
}

/** An optional field: empty passes, anything else must satisfy the contract's rule. */
const optional = (t: TFunction, problem: (v: string) => RuleCode): FormRule => ({
  validator: async (_r, v: unknown) => {
    const s = typeof v === 'string' ? v.trim() : '';
    const code = s ? problem(s) : null;
    if (code) throw new Error(t(`errors.${code}`));
  },
});

const FIELDS = ['username', 'mobile', 'email', 'description', 'password', 'menus', 'devices', 'grants'];

/** Create (editing = null) or edit a sub-user: identity, menus, device permissions, API permissions (spec §3, §5, §6). */
export function SubUserDialog({
  open,
  editing,
  tenantId,
  onClose,
}: {
  open: boolean;
  editing: SubUser | null;
  tenantId: string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<Values>();
  const errors = useServerErrors();
  const area = Form.useWatch('area_code', form);
  const mobile = Form.useWatch('mobile', form);
  const { clear: clearErrors } = errors;
  const previousMenus = useRef<string[] | null>(null);

  useEffect(() => {
    if (!open) return;
    clearErrors();
    form.resetFields();
    form.setFieldsValue(
      editing
        ? {
            username: editing.username,
            area_code: editing.area_code || DEFAULT_AREA_CODE,
            mobile: editing.mobile ?? '',
            email: editing.email ?? '',
            description: editing.description ?? '',
            menus: editing.menus,
            devices: editing.devices,
            grants: editing.grants,
          }
        : { area_code: DEFAULT_AREA_CODE, menus: ['home'], devices: [], grants: grantsForMenus(READ_PRESET, ['home']) },
    );
    previousMenus.current = editing ? editing.menus : ['home'];
  }, [open, editing, form, clearErrors]);

  const save = useMutation({
    meta: { silent: true },
    mutationFn: (v: Values) => {
      const common = {
        area_code: v.area_code,
        mobile: v.mobile.trim(),
        email: v.email?.trim() || null,
        description: v.description?.trim() || null,
        menus: v.menus as CreateSubUserRequest['menus'],
        devices: v.devices,
        grants: v.grants,
      };
      if (editing) return userApi.updateSubUser(tenantId as string, editing.id, common);
      return userApi.createSubUser(tenantId as string, { ...common, username: v.username.trim(), password: v.password || undefined });
    },
    onSuccess: (u) => {
      message.success(editing ? t('user.common.saved') : t('user.subusers.created', { login: u.login_name }));
      void qc.invalidateQueries({ queryKey: userKeys.subUsers(tenantId) });
      onClose();
    },
    onError: (e) => errors.show(form, e, FIELDS),
  });

  return (
    <Modal
      open={open}
      width={960}
      title={editing ? t('user.subusers.editTitle', { name: editing.username }) : t('user.subusers.createTitle')}
      okText={t('user.common.save')}
      cancelText={t('common.action.cancel')}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'subuser-save' }}
      onOk={() =>
        void form.validateFields().then(
          (v) => save.mutate(v),
          () => {},
        )
      }
      onCancel={onClose}
      forceRender
    >
      {errors.general && <Alert type="error" showIcon title={errors.general} style={{ marginBottom: 16 }} role="alert" />}
      {editing && <Alert type="info" showIcon title={t('user.subusers.reloginHint')} style={{ marginBottom: 16 }} />}
      <Form<Values>
        form={form}
        name="subuser"
        layout="vertical"
        onValuesChange={(changed: Partial<Values>, all: Values) => {
          // A newly bound menu brings the permissions it needs to open.
          if (!changed.menus) return;
          const added = changed.menus.filter((m) => !(previousMenus.current ?? []).includes(m));
          previousMenus.current = changed.menus;
          if (added.length) form.setFieldValue('grants', grantsForMenus(all.grants ?? [], added));
        }}
      >
        <Tabs
          items={[
            {
              key: 'basic',
              label: t('user.subusers.tab.basic'),
              forceRender: true,
              children: (
                <>
                  <Form.Item
                    required
                    name="username"
                    label={t('user.subusers.username')}
                    extra={t('user.subusers.usernameHint')}
                    rules={[
                      { required: true, whitespace: true, message: t('errors.013') },
                      { pattern: SUB_USERNAME_RE, message: t('user.subusers.usernameRule') },
                    ]}
                  >
                    <Input disabled={Boolean(editing)} maxLength={32} autoComplete="off" />
                  </Form.Item>
                  <Form.Item name="area_code" hidden>
                    <Input />
                  </Form.Item>
                  <Form.Item required name="mobile" label={t('user.subusers.mobile')} rules={rules.mobile(t, form)} validateFirst>
                    <PhoneInput areaCode={area} onAreaCodeChange={(a) => form.setFieldValue('area_code', a)} />
                  </Form.Item>
                  <Form.Item name="email" label={t('user.subusers.email')} rules={[optional(t, emailProblem)]}>
                    <Input maxLength={254} autoComplete="off" />
                  </Form.Item>
                  {!editing && (
                    <Form.Item
                      name="password"
                      label={t('user.subusers.password')}
                      extra={t('user.subusers.passwordHint', { initial: mobile ? initialPasswordOf(mobile) : '********' })}
                      rules={[optional(t, passwordProblem)]}
                    >
                      <Input.Password maxLength={32} autoComplete="new-password" />
                    </Form.Item>
                  )}
                  <Form.Item name="description" label={t('user.subusers.description')}>
                    <Input.TextArea maxLength={256} showCount autoSize={{ minRows: 2, maxRows: 4 }} />
                  </Form.Item>
                </>
              ),
            },
            {
              key: 'menus',
              label: t('user.subusers.tab.menus'),
              forceRender: true,
              children: (
                <Form.Item name="menus" label={t('user.subusers.menus')} extra={t('user.subusers.menusHint')}>
                  <Checkbox.Group
                    data-testid="subuser-menus"
                    options={SUB_USER_MENUS.map((k) => ({ value: k, label: t(`app.menu.${k}`) }))}
                  />
                </Form.Item>
              ),
            },
            {
              key: 'devices',
              label: t('user.subusers.tab.devices'),
              forceRender: true,
              children: (
                <Form.Item name="devices">
                  <DeviceAccessEditor tenantId={tenantId} />
                </Form.Item>
              ),
            },
            {
              key: 'grants',
              label: t('user.subusers.tab.grants'),
              forceRender: true,
              children: (
                <Form.Item name="grants" extra={t('user.subusers.grantsHint')}>
                  <GrantsTree />
                </Form.Item>
              ),
            },
          ]}
        />
      </Form>
    </Modal>
  );
}
