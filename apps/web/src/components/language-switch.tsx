import { GlobalOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { LANGS, type Lang } from '../i18n/catalogue.ts';
import { changeLang, currentLang } from '../i18n/setup.ts';

/** Language names are shown in their own language, so they are not translated. */
const NAMES: Record<Lang, string> = { zh: '中文', en: 'English' };

export function LanguageSwitch({ dark = false }: { dark?: boolean }) {
  const { t, i18n } = useTranslation();
  const lang = currentLang();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [lang],
        items: LANGS.map((l) => ({ key: l, label: NAMES[l] })),
        onClick: ({ key }) => void changeLang(key as Lang),
      }}
    >
      <Button
        type="text"
        icon={<GlobalOutlined />}
        aria-label={t('common.language.label')}
        data-testid="language-switch"
        lang={i18n.language}
        style={dark ? { color: 'rgba(255,255,255,0.85)' } : undefined}
      >
        {NAMES[lang]}
      </Button>
    </Dropdown>
  );
}
