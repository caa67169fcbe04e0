import { Input, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCanId, MAX_ID_FILTERS, parseIdList } from '../../../components/data-view/can-text.ts';

export interface FrameFilter {
  channels: number[];
  ids: number[];
}

export const idsText = (ids: number[]) => ids.map((id) => formatCanId(id, id > 0x7ff)).join(', ');

/** Channel and frame-id filters (spec §9: at most 8 id filters); ids apply on Enter or when the field is left. */
export function FrameFilterBar({
  channelCount,
  value,
  onChange,
}: {
  channelCount: number;
  value: FrameFilter;
  onChange: (f: FrameFilter) => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(idsText(value.ids));
  const [invalid, setInvalid] = useState(false);
  const applyIds = () => {
    const ids = parseIdList(text);
    setInvalid(ids === null);
    if (ids && ids.join() !== value.ids.join()) onChange({ ...value, ids: ids.slice(0, MAX_ID_FILTERS) });
  };
  return (
    <>
      <Select
        mode="multiple"
        allowClear
        style={{ minWidth: 180 }}
        placeholder={t('device.filter.channels')}
        aria-label={t('device.frame.channel')}
        data-testid="channel-filter"
        value={value.channels}
        onChange={(channels: number[]) => onChange({ ...value, channels: [...channels].sort((a, b) => a - b) })}
        options={Array.from({ length: Math.max(channelCount, 1) }, (_, i) => ({ value: i, label: `CAN${i}` }))}
      />
      <Input
        allowClear
        style={{ width: 300 }}
        className="lh-mono"
        status={invalid ? 'error' : undefined}
        title={invalid ? t('device.filter.idsInvalid') : undefined}
        placeholder={t('device.filter.ids')}
        aria-label={t('device.frame.id')}
        data-testid="id-filter"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (!e.target.value) onChange({ ...value, ids: [] });
        }}
        onPressEnter={applyIds}
        onBlur={applyIds}
      />
    </>
  );
}
