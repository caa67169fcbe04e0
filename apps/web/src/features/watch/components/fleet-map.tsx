import 'leaflet/dist/leaflet.css';
import type { GpsPoint } from '@loggerhead/contract/schemas/gps.ts';
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { addBaseLayer } from '../../../components/map/base-layer.ts';
import { textTooltip } from '../../../components/map/map-text.ts';

export interface MapDevice {
  id: string;
  name: string;
  online: boolean;
  fix: GpsPoint;
}

/**
 * Last positions of the fleet on a Leaflet map. The tile URL is configuration (OpenStreetMap by
 * default); without one, or where tiles fail to load, the markers sit on a grid, still zoomable and fitted.
 */
export function FleetMap({ devices, tileUrl, attribution }: { devices: MapDevice[]; tileUrl: string | null; attribution?: string }) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const layer = useRef<L.LayerGroup | null>(null);
  const fitted = useRef(false);

  useEffect(() => {
    if (!box.current) return;
    const m = L.map(box.current, { center: [30, 110], zoom: 3, worldCopyJump: true, attributionControl: Boolean(tileUrl) });
    addBaseLayer(m, { url: tileUrl, attribution });
    layer.current = L.layerGroup().addTo(m);
    map.current = m;
    return () => {
      m.remove();
      map.current = null;
      fitted.current = false;
    };
  }, [tileUrl, attribution]);

  useEffect(() => {
    const m = map.current;
    const g = layer.current;
    if (!m || !g) return;
    g.clearLayers();
    for (const d of devices) {
      const dot = L.circleMarker([d.fix.lat, d.fix.lon], {
        radius: 7,
        weight: 2,
        color: '#fff',
        fillColor: d.online ? '#52c41a' : '#8c8c8c',
        fillOpacity: 0.95,
      });
      textTooltip(dot, `${d.name} · ${d.online ? t('watch.online') : t('watch.offline')}`).addTo(g);
    }
    // Fit once, on the first positions: later refreshes keep where the viewer zoomed to.
    if (!fitted.current && devices.length > 0) {
      m.fitBounds(L.latLngBounds(devices.map((d) => [d.fix.lat, d.fix.lon] as [number, number])).pad(0.3), { maxZoom: 13 });
      fitted.current = true;
    }
  }, [devices, t]);

  return <div ref={box} className={`lh-watch__map${tileUrl ? '' : ' lh-watch__map--blank'}`} data-testid="watch-map" />;
}
