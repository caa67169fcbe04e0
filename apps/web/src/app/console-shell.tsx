import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { configureErrorFunnel } from '../api/error-funnel.ts';
import { i18n } from '../i18n/setup.ts';
import { useThemeColour } from './theme.ts';

/** Plugs Ant Design's message API (which follows theme and locale) into the error funnel. */
function ErrorFunnelBridge() {
  const { message } = AntApp.useApp();
  useEffect(() => {
    configureErrorFunnel({ notifier: { error: (text) => void message.error(text) }, t: i18n.t.bind(i18n), has: (k) => i18n.exists(k) });
  }, [message]);
  return null;
}

/**
 * Every page but /Login renders in here: Ant Design's locale and theme, its App (message,
 * notification and modal hooks) and the error funnel's notices. Loaded with the first such page,
 * so the sign-in page's first load does without them.
 */
export function ConsoleShell() {
  const { i18n: instance } = useTranslation();
  const zh = instance.language !== 'en';
  const primary = useThemeColour();
  useEffect(() => {
    dayjs.locale(zh ? 'zh-cn' : 'en');
  }, [zh]);
  return (
    <ConfigProvider locale={zh ? zhCN : enUS} theme={{ token: { colorPrimary: primary, borderRadius: 6 } }}>
      <AntApp>
        <ErrorFunnelBridge />
        <Outlet />
      </AntApp>
    </ConfigProvider>
  );
}
