import { useQuery } from '@tanstack/react-query';
import { Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { globalConfigQuery } from '../session/session.queries.ts';
import { LanguageSwitch } from './language-switch.tsx';

/** The frame of the public pages (login, register, forgot password, help): brand, language, centred content. */
export function PublicFrame({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const config = useQuery(globalConfigQuery());
  const brand = config.data?.cloudname || t('common.brand.default');
  return (
    <div className="lh-public">
      <header className="lh-public__bar">
        <Link to="/Login" className="lh-public__brand">
          {config.data?.loginLogo ? <img src={config.data.loginLogo} alt="" height={28} /> : <span className="lh-logo">L</span>}
          <Typography.Text strong style={{ fontSize: 18 }}>
            {brand}
          </Typography.Text>
        </Link>
        <LanguageSwitch />
      </header>
      <main className="lh-public__main">{children}</main>
    </div>
  );
}
