import { useTranslation } from 'react-i18next';
import { pieShare } from './capacity-rules.ts';

const R = 70;
const C = 90;

/** Used vs free as a pie (spec §2 capacity pie dialog); red once the tenant is over capacity. */
export function CapacityPie({ rate, over, label }: { rate: number; over: boolean; label: string }) {
  const { t } = useTranslation();
  const share = pieShare(rate);
  const used = over ? '#ff4d4f' : '#1677ff';
  // A full circle cannot be drawn as an arc: draw it as a circle.
  const angle = share * 2 * Math.PI;
  const x = C + R * Math.sin(angle);
  const y = C - R * Math.cos(angle);
  const slice =
    share >= 0.9999 ? (
      <circle cx={C} cy={C} r={R} fill={used} />
    ) : share > 0 ? (
      <path d={`M ${C} ${C} L ${C} ${C - R} A ${R} ${R} 0 ${share > 0.5 ? 1 : 0} 1 ${x} ${y} Z`} fill={used} />
    ) : null;
  return (
    <svg
      width={2 * C}
      height={2 * C}
      viewBox={`0 0 ${2 * C} ${2 * C}`}
      role="img"
      aria-label={t('capacity.pie.aria', { label })}
      data-testid="capacity-pie"
    >
      <circle cx={C} cy={C} r={R} fill="#e6f4ff" />
      {slice}
      <circle cx={C} cy={C} r={R * 0.55} fill="#fff" />
      <text x={C} y={C + 6} textAnchor="middle" fontSize={18} fontWeight={600} fill={over ? '#ff4d4f' : '#1f1f1f'}>
        {label}
      </text>
    </svg>
  );
}
