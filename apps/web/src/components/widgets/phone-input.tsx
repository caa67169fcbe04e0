import { Input, Select, Space } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { areaOptions, DEFAULT_AREA } from './countries.ts';

interface Props {
  /** The number without area code (Form.Item passes value/onChange/id). */
  value?: string;
  onChange?: (mobile: string) => void;
  id?: string;
  areaCode?: string;
  onAreaCodeChange?: (areaCode: string) => void;
  placeholder?: string;
  disabled?: boolean;
  status?: 'error' | 'warning' | '';
  size?: 'small' | 'middle' | 'large';
}

/** A mobile number with its area-code picker in front (spec §2; default +86). Only digits are kept. */
export function PhoneInput({ value, onChange, id, areaCode = DEFAULT_AREA, onAreaCodeChange, placeholder, disabled, status, size }: Props) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const options = useMemo(() => areaOptions(lang), [lang]);
  return (
    <Space.Compact block>
      <Select
        value={areaCode}
        onChange={onAreaCodeChange}
        options={options}
        disabled={disabled || !onAreaCodeChange}
        size={size}
        showSearch={{ filterOption: (input, option) => Boolean(option?.search.includes(input.trim().toLowerCase())) }}
        labelRender={({ value: v }) => `+${v}`}
        popupMatchSelectWidth={280}
        aria-label={t('widgets.phone.areaCode')}
        data-testid="area-code"
        style={{ width: 100, flex: 'none' }}
      />
      <Input
        id={id}
        value={value}
        onChange={(e) => onChange?.(e.target.value.replace(/[^\d]/g, ''))}
        placeholder={placeholder ?? t('widgets.phone.placeholder')}
        disabled={disabled}
        status={status}
        size={size}
        inputMode="tel"
        autoComplete="tel-national"
        maxLength={20}
      />
    </Space.Compact>
  );
}
