import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { queryClient } from '../api/query-client.ts';
import { i18n } from '../i18n/setup.ts';
import { router } from './router.tsx';
import { useThemeColour } from './theme.ts';
import './app.css';

/**
 * The first load holds no Ant Design: /Login is plain markup, and every other page renders inside
 * the console shell (`console-shell.tsx`: Ant Design's providers, loaded with the first such page).
 */
function Localised() {
  const { i18n: instance } = useTranslation();
  const zh = instance.language !== 'en';
  useThemeColour();
  useEffect(() => {
    document.documentElement.lang = zh ? 'zh-CN' : 'en';
  }, [zh]);
  return <RouterProvider router={router} />;
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
