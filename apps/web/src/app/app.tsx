import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { useEffect } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { configureErrorFunnel } from '../api/error-funnel.ts';
import { queryClient } from '../api/query-client.ts';
import { i18n } from '../i18n/setup.ts';
import { router } from './router.tsx';
import { useThemeColour } from './theme.ts';
import './app.css';

/** Plugs Ant Design's message API (which follows theme and locale) into the error funnel. */
function ErrorFunnelBridge() {
  const { message } = AntApp.useApp();
  useEffect(() => {
    configureErrorFunnel({ notifier: { error: (text) => void message.error(text) }, t: i18n.t.bind(i18n), has: (k) => i18n.exists(k) });
  }, [message]);
  return null;
}

function Localised() {
  const { i18n: instance } = useTranslation();
  const zh = instance.language !== 'en';
  const primary = useThemeColour();
  useEffect(() => {
    dayjs.locale(zh ? 'zh-cn' : 'en');
    document.documentElement.lang = zh ? 'zh-CN' : 'en';
  }, [zh]);
  return (
    <ConfigProvider locale={zh ? zhCN : enUS} theme={{ token: { colorPrimary: primary, borderRadius: 6 } }}>
      <AntApp>
        <ErrorFunnelBridge />
        <RouterProvider router={router} />
      </AntApp>
    </ConfigProvider>
  );
}

export function App() {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <Localised />
      </QueryClientProvider>
    </I18nextProvider>
  );
}
