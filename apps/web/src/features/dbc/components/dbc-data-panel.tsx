import type { Thing } from '@loggerhead/contract/schemas/things.ts';
import { useQuery } from '@tanstack/react-query';
import { Card, Empty, Flex, Segmented, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { bindingsQuery } from '../../../api/dbc.queries.ts';
import { ChannelBindings } from './channel-bindings.tsx';
import { DataPlayback } from './data-playback.tsx';
import { HighLevel } from './high-level.tsx';
import { HistoryCurve } from './history-curve.tsx';
import { HistoryData } from './history-data.tsx';
import { RealtimeCurve } from './realtime-curve.tsx';
import { useChannelSignals } from './use-channel-signals.ts';

const SUB_TABS = ['realtime', 'history', 'data', 'playback', 'advanced'] as const;
type SubTab = (typeof SUB_TABS)[number];

/**
 * A device's DBC data (spec §2): the DBC parsing of each CAN channel, then for one channel the
 * real-time curve, history curve, history data, data playback and high-level functions.
 */
export function DbcDataPanel({ thing, tenantId }: { thing: Thing; tenantId: string }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const bindings = useQuery(bindingsQuery(tenantId, thing.id));
  const list = bindings.data ?? [];
  const [chosen, setChosen] = useState<number | null>(null);
  const channel = chosen ?? list[0]?.channel ?? (thing.can_channels > 0 ? 0 : null);
  const binding = list.find((b) => b.channel === channel);
  const signals = useChannelSignals(tenantId, thing.id, channel, binding);
  const sub = (SUB_TABS as readonly string[]).includes(params.get('sub') ?? '') ? (params.get('sub') as SubTab) : 'realtime';
  const props = channel === null ? null : { tenantId, thingsId: thing.id, channel, options: signals.options };

  return (
    <Flex vertical gap={16} data-testid="dbc-data">
      <Card size="small" title={t('dbc.parsing.title')}>
        <ChannelBindings
          tenantId={tenantId}
          thingsId={thing.id}
          channels={thing.can_channels}
          bindings={list}
          canWrite={thing.access === 'write'}
          loading={bindings.isPending}
        />
      </Card>
      {props === null ? (
        <Empty description={t('dbc.parsing.noChannels')} />
      ) : (
        <Card size="small">
          <Flex gap={12} align="center" wrap style={{ marginBottom: 8 }}>
            <Typography.Text strong>{t('dbc.parsing.channel')}</Typography.Text>
            <Segmented
              value={channel as number}
              onChange={(v) => setChosen(Number(v))}
              options={Array.from({ length: thing.can_channels }, (_, i) => ({ value: i, label: `CAN${i}` }))}
              data-testid="dbc-channel"
            />
            {binding ? (
              <Typography.Text type="secondary">
                {binding.strategy_name ? t('dbc.parsing.viaStrategy', { strategy: binding.strategy_name }) : binding.dbc_name}
                {' · '}
                {binding.state === 'started' ? t('dbc.parsing.stateStarted') : t('dbc.parsing.statePaused')}
              </Typography.Text>
            ) : (
              <Typography.Text type="secondary">{t('dbc.parsing.unboundText')}</Typography.Text>
            )}
          </Flex>
          <Tabs
            activeKey={sub}
            // Only the open sub-tab is mounted: its polling stops when the user looks elsewhere.
            destroyOnHidden
            onChange={(k) =>
              setParams(
                (p) => {
                  p.set('sub', k);
                  return p;
                },
                { replace: true },
              )
            }
            items={[
              { key: 'realtime', label: t('dbc.sub.realtime'), children: <RealtimeCurve key={channel} {...props} /> },
              { key: 'history', label: t('dbc.sub.history'), children: <HistoryCurve key={channel} {...props} /> },
              { key: 'data', label: t('dbc.sub.data'), children: <HistoryData key={channel} {...props} /> },
              { key: 'playback', label: t('dbc.sub.playback'), children: <DataPlayback key={channel} {...props} /> },
              { key: 'advanced', label: t('dbc.sub.advanced'), children: <HighLevel key={channel} {...props} /> },
            ]}
          />
        </Card>
      )}
    </Flex>
  );
}
