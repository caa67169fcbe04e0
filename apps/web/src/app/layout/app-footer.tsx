import { useTranslation } from 'react-i18next';
import type { Customization } from '../../api/session-storage.ts';

/** Company, phone and e-mail from the tenant customisation (spec §2), with defaults. */
export function AppFooter({ customization }: { customization: Customization }) {
  const { t } = useTranslation();
  const company = customization.systemWebBottomCompany || t('app.footer.company.default');
  const phone = customization.systemWebBottomPhone;
  const email = customization.systemWebBottomEmail;
  return (
    <footer className="lh-footer" data-testid="app-footer">
      <span>
        © {new Date().getFullYear()} {company}
      </span>
      {phone && (
        <span>
          {t('app.footer.phone')}: {phone}
        </span>
      )}
      {email && (
        <span>
          {t('app.footer.email')}: <a href={`mailto:${email}`}>{email}</a>
        </span>
      )}
    </footer>
  );
}
