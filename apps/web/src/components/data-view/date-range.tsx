import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { RANGE_SHORTCUTS } from './time-range.ts';

export interface DateRangeProps {
  /** [begin, end] in epoch ms. */
  value: [number, number];
  onChange: (range: [number, number]) => void;
  disabled?: boolean;
}

/** A time range with second precision and the spec's shortcuts (last hour … last year). */
export function DateRange({ value, onChange, disabled }: DateRangeProps) {
  const { t } = useTranslation();
  // Shortcuts are computed when the picker opens, so "last hour" ends at the moment it is chosen.
  const presets = RANGE_SHORTCUTS.map((s) => ({
    label: t(`dataView.range.${s.key}`),
    value: (): [Dayjs, Dayjs] => {
      const now = dayjs();
      return [now.subtract(s.span, 'millisecond'), now];
    },
  }));
  return (
    <DatePicker.RangePicker
      data-testid="date-range"
      showTime
      allowClear={false}
      disabled={disabled}
      placeholder={[t('dataView.range.start'), t('dataView.range.end')]}
      presets={presets}
      value={[dayjs(value[0]), dayjs(value[1])]}
      onChange={(v) => {
        if (v?.[0] && v[1]) onChange([v[0].valueOf(), v[1].valueOf()]);
      }}
    />
  );
}
