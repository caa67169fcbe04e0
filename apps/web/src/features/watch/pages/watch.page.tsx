import { AlertOutlined, ApiOutlined, CloudServerOutlined, DisconnectOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Empty, Tag } from 'antd';
import dayjs from 'dayjs';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { LanguageSwitch } from '../../../components/language-switch.tsx';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { useSession } from '../../../session/use-session.ts';
import { alertsQuery, fleetQuery, positionsQuery, WATCH_POSITIONS } from '../api/watch.api.ts';
import { FleetMap, type MapDevice } from '../components/fleet-map.tsx';
import { useFleetLive } from '../components/use-fleet-live.ts';
import '../watch.css';

function Kpi({ icon, label, value, tone, testId }: { icon: ReactNode; label: string; value: string; tone: string; testId: string }) {
  return (
    <div className="lh-watch__kpi" style={{ borderColor: tone }} data-testid={testId}>
      <span className="lh-watch__kpi-icon" style={{ color: tone }}>
        {icon}
      </span>
      <div>
        <div className="lh-watch__kpi-value">{value}</div>
        <div className="lh-watch__kpi-label">{label}</div>
      </div>
    </div>
  );
}

/** The map tiles come from the global configuration's service links (`mapTileUrl`); none means a blank map. */
function tileConfig(link: string | undefined): { url: string | null; attribution?: string } {
  try {
    const v = JSON.parse(link ?? '{}') as { mapTileUrl?: unknown; mapAttribution?: unknown };
    return {
      url: typeof v.mapTileUrl === 'string' && v.mapTileUrl ? v.mapTileUrl : null,
      attribution: typeof v.mapAttribution === 'string' ? v.mapAttribution : undefined,
    };
  } catch {
    return { url: null };
  }
}

/**
 * The monitor screen (spec §2 `/Watch`, opened in a new window with token, locale, tenant and
 * user): devices online and offline, frames per second, today's alarms and the fleet on a
 * map, refreshing on its own — counts by polling, frame rates and online changes live.
 */
export default function WatchPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [params] = useSearchParams();
  const session = useSession();
  const tenantId = params.get('tenantId') || session.tenantId;
  const title = params.get('screen') === 'operation' ? t('watch.operation.title') : t('watch.monitor.title');
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, []);
  const since = dayjs(now).startOf('day').valueOf();

  const fleet = useQuery(fleetQuery(tenantId));
  const alerts = useQuery(alertsQuery(tenantId, since));
  const devices = fleet.data?.devices ?? [];
  const onlineIds = devices.filter((d) => d.is_online).map((d) => d.id);
  const live = useFleetLive(onlineIds);
  const isOnline = (id: string, polled: boolean) => live.online.get(id) ?? polled;

  // Online devices first: they are the ones whose position moves.
  const positionIds = useMemo(
    () =>
      [...devices]
        .sort((a, b) => Number(b.is_online) - Number(a.is_online))
        .slice(0, WATCH_POSITIONS)
        .map((d) => d.id),
    [devices],
  );
  const positions = useQuery(positionsQuery(tenantId, positionIds));
  const mapDevices: MapDevice[] = useMemo(
    () =>
      devices.flatMap((d) => {
        const fix = positions.data?.get(d.id);
        return fix ? [{ id: d.id, name: d.name, online: live.online.get(d.id) ?? d.is_online, fix }] : [];
      }),
    [devices, positions.data, live.online],
  );
  const tiles = tileConfig(session.config?.link);

  const total = fleet.data?.total ?? 0;
  const online = fleet.data?.online ?? 0;
  const n = (v: number) => formatNumber(v, lang);

  return (
    <div className="lh-watch" data-testid="watch">
      <header className="lh-watch__header">
        <h1>{title}</h1>
        <div className="lh-watch__status">
          <Tag color={live.connected ? 'green' : 'default'} icon={live.connected ? <ApiOutlined /> : <DisconnectOutlined />}>
            {live.connected ? t('watch.live') : t('watch.reconnecting')}
          </Tag>
          <span className="lh-watch__clock">{formatDateTime(now)}</span>
          <LanguageSwitch dark />
        </div>
      </header>
      <section className="lh-watch__kpis">
        <Kpi icon={<CloudServerOutlined />} label={t('watch.kpi.devices')} value={n(total)} tone="#4096ff" testId="kpi-devices" />
        <Kpi icon={<ApiOutlined />} label={t('watch.kpi.online')} value={n(online)} tone="#52c41a" testId="kpi-online" />
        <Kpi
          icon={<DisconnectOutlined />}
          label={t('watch.kpi.offline')}
          value={n(Math.max(0, total - online))}
          tone="#8c8c8c"
          testId="kpi-offline"
        />
        <Kpi
          icon={<ThunderboltOutlined />}
          label={t('watch.kpi.fps')}
          value={formatNumber(Math.round(live.total), lang)}
          tone="#faad14"
          testId="kpi-fps"
        />
        <Kpi icon={<AlertOutlined />} label={t('watch.kpi.alerts')} value={n(alerts.data?.total ?? 0)} tone="#ff4d4f" testId="kpi-alerts" />
      </section>
      <section className="lh-watch__main">
        <div className="lh-watch__panel lh-watch__panel--map">
          <h2>{t('watch.map.title')}</h2>
          <FleetMap devices={mapDevices} tileUrl={tiles.url} attribution={tiles.attribution} />
          {!tiles.url && <div className="lh-watch__note">{t('watch.map.noTiles')}</div>}
        </div>
        <div className="lh-watch__side">
          <div className="lh-watch__panel">
            <h2>{t('watch.devices.title')}</h2>
            {devices.length === 0 ? (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={<span className="lh-watch__muted">{t('watch.devices.empty')}</span>}
              />
            ) : (
              <table className="lh-watch__table" data-testid="watch-devices">
                <thead>
                  <tr>
                    <th>{t('watch.devices.name')}</th>
                    <th>{t('watch.devices.state')}</th>
                    <th className="lh-watch__num">{t('watch.devices.fps')}</th>
                    <th>{t('watch.devices.lastSeen')}</th>
                  </tr>
                </thead>
                <tbody>
                  {devices.slice(0, 12).map((d) => {
                    const on = isOnline(d.id, d.is_online);
                    return (
                      <tr key={d.id}>
                        <td title={d.third_things_id}>{d.name}</td>
                        <td>
                          <span className={`lh-watch__dot${on ? ' lh-watch__dot--on' : ''}`} />
                          {on ? t('watch.online') : t('watch.offline')}
                        </td>
                        <td className="lh-watch__num">{on ? formatNumber(Math.round(live.per.get(d.id) ?? 0), lang) : '--'}</td>
                        <td>{formatDateTime(d.last_seen_at)}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            )}
          </div>
          <div className="lh-watch__panel">
            <h2>{t('watch.alerts.title')}</h2>
            {(alerts.data?.list.length ?? 0) === 0 ? (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={<span className="lh-watch__muted">{t('watch.alerts.empty')}</span>}
              />
            ) : (
              <ul className="lh-watch__alerts" data-testid="watch-alerts">
                {alerts.data?.list.map((a) => (
                  <li key={a.id}>
                    <Tag color={a.level === 'urgent' ? 'red' : 'orange'}>{t(`watch.level.${a.level}`)}</Tag>
                    <span className="lh-watch__alert-name">{a.rule_name}</span>
                    <span className="lh-watch__muted">
                      {a.things_name ?? '--'} · {formatDateTime(a.created_at, 'HH:mm:ss')}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
      </section>
    </div>
  );
}
