import { UploadOutlined, UserOutlined } from '@ant-design/icons';
import { AVATAR_MAX_BYTES, type SelfUserDetail, type UpdateSelfRequest } from '@loggerhead/contract/schemas/accounts.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Avatar, Button, Descriptions, Form, Input, Radio, Space, Upload } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { rules } from '../../../components/widgets/account-rules.ts';
import { useServerErrors } from '../../../components/widgets/use-server-errors.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { selfDetailKey, sessionKeys } from '../../../session/session.queries.ts';
import { userApi } from '../api/user.api.ts';

type Values = Required<
  Pick<UpdateSelfRequest, 'nick_name' | 'gender' | 'job' | 'department' | 'organization_name' | 'industry' | 'address'>
>;
const FIELDS = ['nick_name', 'gender', 'job', 'department', 'organization_name', 'industry', 'address'];

/** Personal info and avatar (spec §3, §5): company, industry and address belong to the tenant, so sub-users only see them. */
export function ProfilePanel({ self }: { self: SelfUserDetail }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<Values>();
  const errors = useServerErrors();
  const manager = self.isManager || self.systemManager;

  useEffect(() => {
    form.setFieldsValue({
      nick_name: self.nick_name ?? '',
      gender: self.gender === 'female' ? 'female' : 'male',
      job: self.job ?? '',
      department: self.department ?? '',
      organization_name: self.organization_name ?? '',
      industry: self.industry ?? '',
      address: self.address ?? '',
    });
  }, [form, self]);

  const refresh = () =>
    Promise.all([qc.invalidateQueries({ queryKey: selfDetailKey }), qc.invalidateQueries({ queryKey: sessionKeys.self() })]);

  const save = useMutation({
    meta: { silent: true },
    mutationFn: (v: Values) => {
      const body: UpdateSelfRequest = { nick_name: v.nick_name.trim(), gender: v.gender };
      // Empty optional texts are left as they are (the server wants 2-32 characters when given).
      for (const k of ['job', 'department'] as const) if (v[k]?.trim()) body[k] = v[k].trim();
      if (manager) for (const k of ['organization_name', 'industry', 'address'] as const) if (v[k]?.trim()) body[k] = v[k].trim();
      return userApi.updateSelf(body);
    },
    onMutate: () => errors.clear(),
    onSuccess: () => {
      message.success(t('user.common.saved'));
      void refresh();
    },
    onError: (e) => errors.show(form, e, FIELDS),
  });

  const avatar = useMutation({
    mutationFn: (file: File) => userApi.avatar(file),
    onSuccess: () => {
      message.success(t('user.center.avatarSaved'));
      void refresh();
    },
  });

  const pickAvatar = (file: File) => {
    if (!file.type.startsWith('image/')) message.error(t('user.center.avatarType'));
    else if (file.size > AVATAR_MAX_BYTES) message.error(t('user.center.avatarSize'));
    else avatar.mutate(file);
    return Upload.LIST_IGNORE;
  };

  return (
    <Space orientation="vertical" size={24} style={{ width: '100%', maxWidth: 720 }}>
      <Space size={24} align="center">
        <Avatar size={72} src={self.avatar || undefined} icon={<UserOutlined />} />
        <Upload accept="image/png,image/jpeg,image/gif,image/webp" showUploadList={false} beforeUpload={pickAvatar}>
          <Button icon={<UploadOutlined />} loading={avatar.isPending}>
            {t('user.center.avatar')}
          </Button>
        </Upload>
      </Space>
      <Descriptions size="small" column={{ xs: 1, md: 2 }} bordered>
        <Descriptions.Item label={t('user.center.loginName')}>{self.login_name}</Descriptions.Item>
        <Descriptions.Item label={t('user.center.tenant')}>{self.tenantInfo.name}</Descriptions.Item>
        <Descriptions.Item label={t('user.center.role')}>
          {self.systemManager ? t('user.center.role.system') : self.isManager ? t('user.center.role.manager') : t('user.center.role.sub')}
        </Descriptions.Item>
        <Descriptions.Item label={t('user.center.lastLogin')}>
          {formatDateTime(self.last_login_time)} {self.last_login_ip ?? ''}
        </Descriptions.Item>
      </Descriptions>
      {errors.general && <Alert type="error" showIcon title={errors.general} />}
      <Form<Values> form={form} name="profile" layout="horizontal" labelCol={{ flex: '140px' }} onFinish={(v) => save.mutate(v)}>
        <Form.Item required name="nick_name" label={t('user.center.nickName')} rules={rules.length(t, 2, 20)}>
          <Input maxLength={20} />
        </Form.Item>
        <Form.Item name="gender" label={t('user.center.gender')}>
          <Radio.Group
            options={[
              { value: 'male', label: t('user.center.gender.male') },
              { value: 'female', label: t('user.center.gender.female') },
            ]}
          />
        </Form.Item>
        <Form.Item name="job" label={t('user.center.job')} rules={rules.length(t, 2, 32, false)}>
          <Input maxLength={32} />
        </Form.Item>
        <Form.Item name="department" label={t('user.center.department')} rules={rules.length(t, 2, 32, false)}>
          <Input maxLength={32} />
        </Form.Item>
        <Form.Item name="organization_name" label={t('user.center.company')} rules={rules.length(t, 2, 32, false)}>
          <Input maxLength={32} disabled={!manager} />
        </Form.Item>
        <Form.Item name="industry" label={t('user.center.industry')} rules={rules.length(t, 2, 32, false)}>
          <Input maxLength={32} disabled={!manager} />
        </Form.Item>
        <Form.Item name="address" label={t('user.center.address')} rules={rules.length(t, 2, 32, false)}>
          <Input maxLength={32} disabled={!manager} />
        </Form.Item>
        <Form.Item label=" " colon={false}>
          <Button type="primary" htmlType="submit" loading={save.isPending} disabled={self.readOnly}>
            {t('user.common.save')}
          </Button>
        </Form.Item>
      </Form>
    </Space>
  );
}
