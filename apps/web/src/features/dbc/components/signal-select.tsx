import { Select, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { MAX_CURVES_SHOWN } from '../lib/names.ts';
import type { SignalOption } from './use-channel-signals.ts';

/** Choose up to 10 signals (spec §9 curve max 10 items) of a channel. */
export function SignalSelect({
  options,
  value,
  onChange,
  max = MAX_CURVES_SHOWN,
  loading,
  testId = 'signal-select',
  multiple = true,
}: {
  options: SignalOption[];
  value?: string[];
  onChange?: (v: string[]) => void;
  max?: number;
  loading?: boolean;
  testId?: string;
  multiple?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Select
      data-testid={testId}
      mode={multiple ? 'multiple' : undefined}
      showSearch
      allowClear
      loading={loading}
      maxCount={multiple ? max : undefined}
      value={multiple ? (value ?? []) : value?.[0]}
      onChange={(v: string[] | string | undefined) => onChange?.(Array.isArray(v) ? v : v ? [v] : [])}
      placeholder={multiple ? t('dbc.signals.pick', { max }) : t('dbc.signals.pickOne')}
      style={{ minWidth: 320, maxWidth: 640 }}
      maxTagCount="responsive"
      optionFilterProp="label"
      notFoundContent={t('dbc.signals.none')}
      options={options.map((o) => ({
        value: o.value,
        label: o.value,
        title: o.value,
        data: o,
      }))}
      optionRender={(o) => (
        <span>
          {o.value} {o.data.data.unit && <Tag bordered={false}>{o.data.data.unit}</Tag>}
          {o.data.data.stored && <Tag color="green">{t('dbc.signals.stored')}</Tag>}
        </span>
      )}
    />
  );
}
