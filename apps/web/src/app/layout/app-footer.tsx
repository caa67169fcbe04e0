import { useTranslation } from 'react-i18next';
import type { Customization } from '../../api/session-storage.ts';
import type { ServiceLinks } from '../../session/use-session.ts';

/**
 * Company, phone and e-mail (spec §2): the tenant's customisation, else the platform's own contact
 * (`SUPPORT_*` in the global configuration), else the product's name alone.
 */
export function AppFooter({ customization, links }: { customization: Customization; links: ServiceLinks }) {
  const { t } = useTranslation();
  const company = customization.systemWebBottomCompany || links.footerCompany || t('app.footer.company.default');
  const phone = customization.systemWebBottomPhone || links.footerPhone;
  const email = customization.systemWebBottomEmail || links.footerEmail;
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
