import type { Panel, PanelValue } from '@loggerhead/contract/schemas/dashboard.ts';
import { useQuery } from '@tanstack/react-query';
import { Flex, Progress, Spin, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { panelValuesQuery } from '../api/dashboard.queries.ts';
import { gaugePercent } from '../lib/panels.ts';

function usePanelValue(tenantId: string, panel: Panel): { value: PanelValue | undefined; loading: boolean } {
  const q = useQuery(panelValuesQuery(tenantId, panel.dashboard_id, panel.id));
  return { value: q.data?.[0], loading: q.isPending };
}

function When({ v }: { v: PanelValue | undefined }) {
  const { t } = useTranslation();
  return (
    <Typography.Text type="secondary" data-testid="panel-time">
      {v?.time ? t('dashboard.panel.at', { time: formatDateTime(v.time, 'YYYY-MM-DD HH:mm:ss.SSS') }) : t('dashboard.panel.noValue')}
    </Typography.Text>
  );
}

/** The latest value of one signal, large, with its unit and the time it was measured. */
export function NumberPanel({ tenantId, panel }: { tenantId: string; panel: Panel }) {
  const { i18n } = useTranslation();
  const { token } = theme.useToken();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { value: v, loading } = usePanelValue(tenantId, panel);
  return (
    <Flex vertical align="center" justify="center" gap={8} className="lh-dash__value">
      {loading ? (
        <Spin />
      ) : (
        <>
          <Typography.Text type="secondary">{`${panel.signals[0].message}.${panel.signals[0].signal}`}</Typography.Text>
          <div>
            <span
              className="lh-dash__number"
              data-testid="panel-value"
              style={{ color: v?.value === null ? token.colorTextTertiary : undefined }}
            >
              {formatNumber(v?.value ?? null, lang)}
            </span>
            {v?.unit && v.value !== null && <span className="lh-dash__unit">{v.unit}</span>}
          </div>
          <When v={v} />
        </>
      )}
    </Flex>
  );
}

/** The latest value of one signal on a dial from the signal's minimum to its maximum in the DBC. */
export function GaugePanel({ tenantId, panel }: { tenantId: string; panel: Panel }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { value: v, loading } = usePanelValue(tenantId, panel);
  const percent = gaugePercent(v?.value ?? null, v?.min ?? null, v?.max ?? null);
  return (
    <Flex vertical align="center" justify="center" gap={4} className="lh-dash__value">
      {loading ? (
        <Spin />
      ) : (
        <>
          <Progress
            type="dashboard"
            size={170}
            percent={percent ?? 0}
            showInfo
            data-testid="panel-gauge"
            format={() => (
              <Flex vertical align="center">
                <span className="lh-dash__gauge-number" data-testid="panel-value">
                  {formatNumber(v?.value ?? null, lang)}
                </span>
                {v?.unit && <span className="lh-dash__unit lh-dash__unit--small">{v.unit}</span>}
              </Flex>
            )}
          />
          <Typography.Text type="secondary">{`${panel.signals[0].message}.${panel.signals[0].signal}`}</Typography.Text>
          <Typography.Text type="secondary">
            {v && v.min !== null && v.max !== null
              ? t('dashboard.panel.range', { min: formatNumber(v.min, lang), max: formatNumber(v.max, lang) })
              : t('dashboard.panel.noRange')}
          </Typography.Text>
          <When v={v} />
        </>
      )}
    </Flex>
  );
}
