import type { Fence } from '@loggerhead/contract/schemas/fence.ts';
import type { GpsPoint, GpsStop } from '@loggerhead/contract/schemas/gps.ts';
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { textTooltip } from '../../../components/map/map-text.ts';
import { useBaseMap } from './base-map.tsx';

export interface TrackMapProps {
  points: GpsPoint[];
  stops: GpsStop[];
  /** The replay / live marker. */
  marker: { lat: number; lon: number } | null;
  /** Keep the marker in view (replay follow, live position). */
  follow: boolean;
  /** The view is fitted to the track when this changes (a new query), not on every live refresh. */
  fitKey: string;
  /** Fences bound to the device, drawn under the track. */
  fences?: Fence[];
}

const dot = (color: string, radius = 7) => ({ radius, color: '#fff', weight: 2, fillColor: color, fillOpacity: 1 });

/** A track on a Leaflet map: the line, start and end markers, stops, and a moving marker. */
export function TrackMap({ points, stops, marker, follow, fitKey, fences }: TrackMapProps) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const map = useBaseMap(box);
  const track = useRef<L.LayerGroup | null>(null);
  const fenceLayer = useRef<L.LayerGroup | null>(null);
  const mover = useRef<L.CircleMarker | null>(null);
  const fitted = useRef<string | null>(null);

  useEffect(() => {
    if (!map) return;
    fenceLayer.current = L.layerGroup().addTo(map);
    track.current = L.layerGroup().addTo(map);
    return () => {
      fenceLayer.current?.remove();
      fenceLayer.current = null;
      track.current?.remove();
      track.current = null;
      mover.current?.remove();
      mover.current = null;
      fitted.current = null;
    };
  }, [map]);

  useEffect(() => {
    const g = track.current;
    if (!map || !g) return;
    g.clearLayers();
    if (points.length === 0) return;
    const ll = points.map((p) => [p.lat, p.lon] as [number, number]);
    L.polyline(ll, { color: '#1677ff', weight: 3 }).addTo(g);
    const first = ll[0] as [number, number];
    const last = ll[ll.length - 1] as [number, number];
    textTooltip(L.circleMarker(first, dot('#52c41a')), t('efence.gps.start')).addTo(g);
    textTooltip(L.circleMarker(last, dot('#f5222d')), t('efence.gps.end')).addTo(g);
    stops.forEach((s, i) => {
      textTooltip(L.circleMarker([s.lat, s.lon], dot('#fa8c16', 6)), `${t('efence.gps.stop')} ${i + 1}`).addTo(g);
    });
    if (fitted.current !== fitKey) {
      map.fitBounds(L.latLngBounds(ll).pad(0.2), { maxZoom: 16 });
      fitted.current = fitKey;
    }
  }, [map, points, stops, t, fitKey]);

  useEffect(() => {
    const g = fenceLayer.current;
    if (!map || !g) return;
    g.clearLayers();
    const style = { color: '#fa8c16', weight: 2, dashArray: '6 4', fillOpacity: 0.08, className: 'lh-fence', interactive: true };
    for (const f of fences ?? []) {
      let shape: L.Path | null = null;
      if (f.region?.shape === 'polygon')
        shape = L.polygon(
          f.region.points.map((p) => [p.lat, p.lon] as [number, number]),
          style,
        );
      else if (f.region?.shape === 'circle')
        shape = L.circle([f.region.center.lat, f.region.center.lon], { ...style, radius: f.region.radius });
      else if (f.border)
        shape = L.polyline(
          f.border.points.map((p) => [p.lat, p.lon] as [number, number]),
          { ...style, fill: false },
        );
      if (shape) textTooltip(shape, `${t('efence.gps.fence')}: ${f.name}`).addTo(g);
    }
  }, [map, fences, t]);

  useEffect(() => {
    if (!map) return;
    if (!marker) {
      mover.current?.remove();
      mover.current = null;
      return;
    }
    if (!mover.current) mover.current = L.circleMarker([marker.lat, marker.lon], dot('#722ed1', 8)).addTo(map);
    else mover.current.setLatLng([marker.lat, marker.lon]);
    if (follow && !map.getBounds().pad(-0.1).contains([marker.lat, marker.lon])) map.panTo([marker.lat, marker.lon], { animate: false });
  }, [map, marker, follow]);

  return <div ref={box} style={{ height: 480, width: '100%' }} data-testid="gps-map" />;
}
