import { ClearOutlined, PauseCircleOutlined, PlayCircleOutlined } from '@ant-design/icons';
import type { Thing } from '@loggerhead/contract/schemas/things.ts';
import { Alert, Badge, Button, Flex, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { VirtualList } from '../../../components/data-view/virtual-list.tsx';
import { formatNumber } from '../../../lib/format.ts';
import type { FrameRing } from '../live/frame-ring.ts';
import { FLAG } from '../live/frame-ring.ts';
import { LIVE_BUFFER_ROWS, useLiveTrace } from '../live/use-live-trace.ts';
import { type FrameFilter, FrameFilterBar } from './frame-filter-bar.tsx';
import { formatMicroTime, frameDir, frameIdText, frameKind, spacedHex } from './frame-text.ts';
import '../device.css';

const TRACE_HEIGHT = 480;

/** The live raw frame trace of one device (spec §2 device data → real-time). */
export function RealtimeTrace({ thing }: { thing: Thing }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [paused, setPaused] = useState(false);
  const [filter, setFilter] = useState<FrameFilter>({ channels: [], ids: [] });
  const trace = useLiveTrace(thing.id, filter, paused);
  const { ring } = trace;

  const state = paused ? (
    <Badge status="warning" text={t('device.live.paused')} />
  ) : trace.connection === 'live' ? (
    <Badge status="processing" text={t('device.live.live')} />
  ) : trace.connection === 'closed' ? (
    <Badge status="error" text={t('device.live.closed')} />
  ) : (
    <Badge status="default" text={t('device.live.connecting')} />
  );

  return (
    <Flex vertical gap={12}>
      <Flex gap={8} wrap align="center">
        <Button
          icon={paused ? <PlayCircleOutlined /> : <PauseCircleOutlined />}
          onClick={() => setPaused((p) => !p)}
          data-testid="live-pause"
          type={paused ? 'primary' : 'default'}
        >
          {paused ? t('device.live.resume') : t('device.live.pause')}
        </Button>
        <Button icon={<ClearOutlined />} onClick={trace.clear}>
          {t('device.live.clear')}
        </Button>
        <FrameFilterBar channelCount={thing.can_channels} value={filter} onChange={setFilter} />
      </Flex>
      <Flex gap={16} wrap align="center" data-testid="live-stats">
        {state}
        <Typography.Text type="secondary" data-testid="live-received">
          {t('device.live.received', { count: formatNumber(ring.total, lang) })}
        </Typography.Text>
        <Typography.Text type="secondary">{t('device.live.rate', { rate: formatNumber(trace.rate, lang) })}</Typography.Text>
        <Typography.Text type="secondary">
          {t('device.live.buffer', { count: formatNumber(ring.length, lang), max: formatNumber(LIVE_BUFFER_ROWS, lang) })}
        </Typography.Text>
        {trace.dropped > 0 && <Typography.Text type="warning">{t('device.live.dropped', { count: trace.dropped })}</Typography.Text>}
        {trace.skipped > 0 && <Typography.Text type="secondary">{t('device.live.skipped', { count: trace.skipped })}</Typography.Text>}
      </Flex>
      {trace.error && (
        <Alert
          type="error"
          showIcon
          title={i18n.exists(`errors.${trace.error}`) ? t(`errors.${trace.error}`) : t('errors.unknown')}
          data-testid="live-error"
        />
      )}
      <div className="lh-trace" data-testid="live-trace">
        <TraceHeader />
        <VirtualList
          count={ring.length}
          version={trace.version}
          height={TRACE_HEIGHT}
          follow={!paused}
          testId="live-rows"
          renderRow={(i) => <TraceRow ring={ring} index={i} />}
        />
      </div>
    </Flex>
  );
}

function TraceHeader() {
  const { t } = useTranslation();
  return (
    <div className="lh-trace__row lh-trace__head">
      <span>#</span>
      <span>{t('device.frame.time')}</span>
      <span>{t('device.frame.channel')}</span>
      <span>{t('device.frame.id')}</span>
      <span>{t('device.frame.type')}</span>
      <span>{t('device.frame.dir')}</span>
      <span>{t('device.frame.dlc')}</span>
      <span>{t('device.frame.data')}</span>
    </div>
  );
}

function TraceRow({ ring, index }: { ring: FrameRing; index: number }) {
  const { t } = useTranslation();
  const s = ring.slot(index);
  const flags = ring.flags[s];
  const data = ring.data[s];
  const cls = flags & FLAG.err ? ' lh-trace__row--err' : flags & FLAG.tx ? ' lh-trace__row--tx' : '';
  return (
    <div className={`lh-trace__row${cls}`} data-testid="live-row">
      <span>{ring.seq[s]}</span>
      <span>{formatMicroTime(ring.tsUs(s))}</span>
      <span>CAN{ring.channel[s]}</span>
      <span data-testid="live-id">{frameIdText(ring.id[s], flags)}</span>
      <span>{frameKind(flags, t)}</span>
      <span>{frameDir(flags, t)}</span>
      <span>{data.length / 2}</span>
      <span data-testid="live-data">{spacedHex(data)}</span>
    </div>
  );
}
