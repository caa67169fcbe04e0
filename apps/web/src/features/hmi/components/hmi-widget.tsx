import type { HmiWidget } from '@loggerhead/contract/schemas/hmi.ts';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { bindingKey, formatValue, gaugeFraction, lampLit } from '../lib/canvas.ts';
import type { LiveValue } from './use-hmi-live.ts';

/** A half-circle gauge: the scale's arc, the value's arc and the number. */
function Gauge({ w, value }: { w: HmiWidget; value: LiveValue | undefined }) {
  const min = w.min ?? 0;
  const max = w.max ?? 100;
  const v = typeof value?.value === 'number' ? value.value : null;
  const f = v === null ? 0 : gaugeFraction(v, min, max);
  const angle = Math.PI * (1 - f);
  const x = 50 + 40 * Math.cos(angle);
  const y = 50 - 40 * Math.sin(angle);
  return (
    <svg viewBox="0 0 100 62" className="lh-hmi__gauge" role="img" aria-label={w.label}>
      <path d="M10 50 A40 40 0 0 1 90 50" fill="none" stroke="#e5e7eb" strokeWidth="8" />
      {v !== null && f > 0 && (
        <path d={`M10 50 A40 40 0 0 1 ${x.toFixed(2)} ${y.toFixed(2)}`} fill="none" stroke="#1677ff" strokeWidth="8" />
      )}
      <text x="50" y="48" textAnchor="middle" fontSize="14" fontWeight="600" data-testid={`hmi-value-${w.id}`}>
        {formatValue(value?.value ?? null, w.decimals)}
      </text>
      <text x="10" y="60" textAnchor="middle" fontSize="6" fill="#888">
        {min}
      </text>
      <text x="90" y="60" textAnchor="middle" fontSize="6" fill="#888">
        {max}
      </text>
    </svg>
  );
}

/** A line of the recent samples, scaled to its own range. */
function Trend({ value, label }: { value: LiveValue | undefined; label: string }) {
  const h = value?.history ?? [];
  if (h.length < 2) return <svg viewBox="0 0 100 40" className="lh-hmi__trend" role="img" aria-label={label} />;
  const t0 = h[0].t;
  const t1 = h[h.length - 1].t;
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const p of h) {
    lo = Math.min(lo, p.v);
    hi = Math.max(hi, p.v);
  }
  const span = hi - lo || 1;
  const pts = h.map((p) => `${(((p.t - t0) / (t1 - t0 || 1)) * 100).toFixed(2)},${(38 - ((p.v - lo) / span) * 36).toFixed(2)}`).join(' ');
  return (
    <svg viewBox="0 0 100 40" preserveAspectRatio="none" className="lh-hmi__trend" role="img" aria-label={label}>
      <polyline points={pts} fill="none" stroke="#1677ff" strokeWidth="1" vectorEffect="non-scaling-stroke" />
    </svg>
  );
}

/**
 * One widget as it shows on a screen. In the editor (`live` false) it shows its shape without values
 * and its button does nothing; on a live screen its button calls `onPress`.
 */
export function HmiWidgetView({
  w,
  values,
  live,
  pressing,
  onPress,
}: {
  w: HmiWidget;
  values?: Map<string, LiveValue>;
  live: boolean;
  pressing?: boolean;
  onPress?: (w: HmiWidget) => void;
}) {
  const { t } = useTranslation();
  const value = w.binding ? values?.get(bindingKey(w.binding)) : undefined;
  const unit = w.unit ?? value?.unit ?? '';
  const label = w.label || (w.binding ? (w.binding.source === 'signal' ? w.binding.signal : w.binding.property) : '');
  switch (w.type) {
    case 'value':
      return (
        <div className="lh-hmi__value">
          <div className="lh-hmi__label">{label}</div>
          <div className="lh-hmi__number">
            <span data-testid={`hmi-value-${w.id}`}>{formatValue(value?.value ?? null, w.decimals)}</span>
            {unit && <span className="lh-hmi__unit"> {unit}</span>}
          </div>
        </div>
      );
    case 'gauge':
      return (
        <div className="lh-hmi__value">
          <div className="lh-hmi__label">
            {label}
            {unit && ` (${unit})`}
          </div>
          <Gauge w={w} value={value} />
        </div>
      );
    case 'lamp': {
      const lit = lampLit(value?.value ?? null, w.threshold ?? 1);
      return (
        <div className="lh-hmi__lamp-box">
          <span
            className={`lh-hmi__lamp${lit ? ' lh-hmi__lamp--on' : ''}`}
            data-testid={`hmi-lamp-${w.id}`}
            data-lit={lit ? 'true' : 'false'}
            role="img"
            aria-label={lit ? t('hmi.lamp.on') : t('hmi.lamp.off')}
          />
          <span className="lh-hmi__label">{label}</span>
        </div>
      );
    }
    case 'trend':
      return (
        <div className="lh-hmi__value">
          <div className="lh-hmi__label">
            {label} <span data-testid={`hmi-value-${w.id}`}>{formatValue(value?.value ?? null, w.decimals)}</span> {unit}
          </div>
          <Trend value={value} label={label} />
        </div>
      );
    case 'button':
      return (
        <Button
          type="primary"
          block
          className="lh-hmi__button"
          loading={pressing}
          disabled={!live}
          onClick={() => onPress?.(w)}
          data-testid={`hmi-button-${w.id}`}
        >
          {w.label || t('hmi.widget.button')}
        </Button>
      );
    case 'image':
      return w.image_url ? <img className="lh-hmi__image" src={w.image_url} alt={w.label} draggable={false} /> : null;
    case 'text':
      return <div className="lh-hmi__text">{w.text}</div>;
  }
}
