import { UploadOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, ColorPicker, Form, Input, Radio, Space, Typography, Upload } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { type Customization, storeCustomization } from '../../../api/session-storage.ts';
import { isLang } from '../../../i18n/catalogue.ts';
import { changeLang, currentLang } from '../../../i18n/setup.ts';
import { mayCall } from '../../../session/can.ts';
import { sessionApi } from '../../../session/session.api.ts';
import { sessionKeys } from '../../../session/session.queries.ts';
import { useSession } from '../../../session/use-session.ts';

interface Values {
  systemName?: string;
  systemLogo?: string;
  systemTheme?: string;
  systemLanguage?: string;
  systemWebBottomCompany?: string;
  systemWebBottomPhone?: string;
  systemWebBottomEmail?: string;
}

const KEYS = [
  'systemName',
  'systemLogo',
  'systemTheme',
  'systemLanguage',
  'systemWebBottomCompany',
  'systemWebBottomPhone',
  'systemWebBottomEmail',
] as const;

/** A logo is stored inline as a data URL; kept small so every page load stays light. */
const LOGO_MAX_BYTES = 256 * 1024;
const DEFAULT_THEME = '#1677ff';

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(r.error);
    r.readAsDataURL(file);
  });
}

/**
 * System configuration (spec §3 tenant customisation): the console's name (page title),
 * logo, theme colour, language and footer company / phone / e-mail for this tenant.
 */
export default function SystemConfigPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const session = useSession();
  const [form] = Form.useForm<Values>();
  const logo = Form.useWatch('systemLogo', form);

  useEffect(() => {
    form.setFieldsValue({ systemTheme: DEFAULT_THEME, systemLanguage: currentLang(), ...session.customization });
  }, [form, session.customization]);

  const save = useMutation({
    mutationFn: async (v: Values) => {
      const values: Customization = Object.fromEntries(KEYS.map((k) => [k, (v[k] ?? '').trim()]));
      await sessionApi.saveCustomization(session.tenantId as string, values);
      return values;
    },
    onSuccess: async (values) => {
      storeCustomization(values);
      await qc.invalidateQueries({ queryKey: sessionKeys.customization(session.tenantId) });
      if (isLang(values.systemLanguage) && values.systemLanguage !== currentLang()) await changeLang(values.systemLanguage);
      message.success(t('user.common.saved'));
    },
  });

  const pickLogo = async (file: File) => {
    if (!file.type.startsWith('image/')) message.error(t('user.systemConfig.logoType'));
    else if (file.size > LOGO_MAX_BYTES) message.error(t('user.systemConfig.logoSize', { kb: LOGO_MAX_BYTES / 1024 }));
    else form.setFieldValue('systemLogo', await readAsDataUrl(file));
    return Upload.LIST_IGNORE;
  };

  return (
    <Card variant="borderless">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('user.systemConfig.title')}
      </Typography.Title>
      <Form<Values>
        form={form}
        name="system-config"
        layout="horizontal"
        labelCol={{ flex: '180px' }}
        style={{ maxWidth: 720 }}
        onFinish={(v) => save.mutate(v)}
      >
        <Form.Item name="systemName" label={t('user.systemConfig.name')} extra={t('user.systemConfig.nameHint')}>
          <Input maxLength={64} placeholder={session.config?.cloudname || t('common.brand.default')} />
        </Form.Item>
        <Form.Item label={t('user.systemConfig.logo')} extra={t('user.systemConfig.logoHint', { kb: LOGO_MAX_BYTES / 1024 })}>
          <Space align="center" wrap>
            {logo ? (
              <img src={logo} alt="" height={36} style={{ background: '#001529', padding: 4, borderRadius: 4 }} />
            ) : (
              <Typography.Text type="secondary">{t('user.systemConfig.noLogo')}</Typography.Text>
            )}
            <Upload accept="image/*" showUploadList={false} beforeUpload={pickLogo}>
              <Button icon={<UploadOutlined />}>{t('user.systemConfig.upload')}</Button>
            </Upload>
            {logo && <Button onClick={() => form.setFieldValue('systemLogo', '')}>{t('user.systemConfig.removeLogo')}</Button>}
          </Space>
        </Form.Item>
        <Form.Item name="systemLogo" hidden>
          <Input />
        </Form.Item>
        <Form.Item
          name="systemTheme"
          label={t('user.systemConfig.theme')}
          getValueFromEvent={(c: { toHexString: () => string }) => c.toHexString()}
        >
          <ColorPicker
            disabledAlpha
            showText
            presets={[
              { label: t('user.systemConfig.presets'), colors: ['#1677ff', '#13a8a8', '#52c41a', '#fa8c16', '#722ed1', '#eb2f96'] },
            ]}
          />
        </Form.Item>
        <Form.Item name="systemLanguage" label={t('user.systemConfig.language')}>
          <Radio.Group
            options={[
              { value: 'zh', label: '中文' },
              { value: 'en', label: 'English' },
            ]}
          />
        </Form.Item>
        <Form.Item name="systemWebBottomCompany" label={t('user.systemConfig.company')}>
          <Input maxLength={128} />
        </Form.Item>
        <Form.Item name="systemWebBottomPhone" label={t('user.systemConfig.phone')}>
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="systemWebBottomEmail" label={t('user.systemConfig.email')} rules={[{ type: 'email', message: t('errors.015') }]}>
          <Input maxLength={128} />
        </Form.Item>
        <Form.Item label=" " colon={false}>
          {mayCall(Routes.customization.put) && (
            <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="system-config-save">
              {t('user.common.save')}
            </Button>
          )}
        </Form.Item>
      </Form>
    </Card>
  );
}
