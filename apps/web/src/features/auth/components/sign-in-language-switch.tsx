import GlobalOutlined from '@ant-design/icons-svg/es/asn/GlobalOutlined';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SvgIcon } from '../../../components/svg-icon.tsx';
import { LANGS, type Lang } from '../../../i18n/catalogue.ts';
import { changeLang, currentLang } from '../../../i18n/setup.ts';

/** Language names are shown in their own language, so they are not translated. */
const NAMES: Record<Lang, string> = { zh: '中文', en: 'English' };

/**
 * The language menu of the sign-in page, in plain markup (the console's `LanguageSwitch` is Ant
 * Design's drop-down): a button that opens a menu of the languages.
 */
export function SignInLanguageSwitch() {
  const { t, i18n } = useTranslation();
  const lang = currentLang();
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const outside = (e: MouseEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', outside);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', outside);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div className="lh-lang" ref={box}>
      <button
        type="button"
        className="lh-button lh-button--text"
        aria-label={t('common.language.label')}
        aria-haspopup="menu"
        aria-expanded={open}
        data-testid="language-switch"
        lang={i18n.language}
        onClick={() => setOpen((o) => !o)}
      >
        <SvgIcon icon={GlobalOutlined} />
        <span>{NAMES[lang]}</span>
      </button>
      {open && (
        <div className="lh-lang__menu" role="menu">
          {LANGS.map((l) => (
            <button
              key={l}
              type="button"
              role="menuitem"
              lang={l}
              className={l === lang ? 'lh-lang__item lh-lang__item--selected' : 'lh-lang__item'}
              onClick={() => {
                setOpen(false);
                void changeLang(l);
              }}
            >
              {NAMES[l]}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
