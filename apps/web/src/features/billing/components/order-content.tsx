import { useTranslation } from 'react-i18next';

const NAMED = new Set(['things_num', 'database_storage_space', 'maximum_data_retention_days']);

/** A package's contents as short "field: value" pieces (null: unlimited). */
export function OrderContent({ content }: { content: Record<string, number | null | undefined> }) {
  const { t } = useTranslation();
  const parts = Object.entries(content).map(
    ([f, v]) => `${NAMED.has(f) ? t(`billing.field.${f}`) : t('billing.field.other', { field: f })}: ${v === null ? '∞' : v}`,
  );
  return <span>{parts.join(' · ')}</span>;
}
