import type { LatLon } from '@loggerhead/contract/schemas/fence.ts';
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { textTooltip } from '../../../components/map/map-text.ts';
import { useBaseMap } from './base-map.tsx';
import { validLatLon, wrapLon } from './geo.ts';

export type FenceShape = 'polygon' | 'circle' | 'border';

export interface FenceDrawProps {
  shape: FenceShape;
  points: LatLon[];
  center: LatLon | null;
  radius: number;
  tolerance: number;
  /** Changes when coordinates were typed: the view fits the fence again. */
  refit?: number;
  /** A click on the map: a new vertex (polygon, border) or the centre (circle). */
  onPick: (p: LatLon) => void;
}

/** The fence on a Leaflet map; clicks add vertices or set the circle centre. */
export function FenceDraw({ shape, points, center, radius, tolerance, refit = 0, onPick }: FenceDrawProps) {
  const box = useRef<HTMLDivElement>(null);
  const map = useBaseMap(box);
  const layer = useRef<L.LayerGroup | null>(null);
  const pick = useRef(onPick);
  pick.current = onPick;
  const fitted = useRef(false);
  const fittedFor = useRef(refit);

  useEffect(() => {
    if (!map) return;
    layer.current = L.layerGroup().addTo(map);
    const click = (e: L.LeafletMouseEvent) => pick.current({ lat: e.latlng.lat, lon: wrapLon(e.latlng.lng) });
    map.on('click', click);
    return () => {
      map.off('click', click);
      layer.current?.remove();
      layer.current = null;
    };
  }, [map]);

  useEffect(() => {
    const g = layer.current;
    if (!map || !g) return;
    g.clearLayers();
    if (fittedFor.current !== refit) {
      fittedFor.current = refit;
      fitted.current = false;
    }
    // A coordinate being typed may be empty for a moment: such points are not drawn.
    const ll = points.filter(validLatLon).map((p) => [p.lat, p.lon] as [number, number]);
    const style = { color: '#1677ff', weight: 2 };
    if (shape === 'circle' && center && validLatLon(center)) {
      const c = L.circle([center.lat, center.lon], { ...style, radius }).addTo(g);
      L.circleMarker([center.lat, center.lon], { radius: 4, color: '#1677ff' }).addTo(g);
      if (!fitted.current) {
        map.fitBounds(c.getBounds().pad(0.5), { maxZoom: 17 });
        fitted.current = true;
      }
    }
    if (shape !== 'circle') {
      if (shape === 'polygon' && ll.length >= 3) L.polygon(ll, style).addTo(g);
      else if (ll.length >= 2) L.polyline(ll, { ...style, weight: shape === 'border' ? 3 : 2 }).addTo(g);
      if (shape === 'border') for (const p of ll) L.circle(p, { radius: tolerance, weight: 0, fillOpacity: 0.08 }).addTo(g);
      ll.forEach((p, i) => {
        textTooltip(L.circleMarker(p, { radius: 4, color: '#1677ff' }), String(i + 1)).addTo(g);
      });
      if (!fitted.current && ll.length >= 2) {
        map.fitBounds(L.latLngBounds(ll).pad(0.3), { maxZoom: 17 });
        fitted.current = true;
      }
    }
  }, [map, shape, points, center, radius, tolerance, refit]);

  return <div ref={box} style={{ height: 480, width: '100%', cursor: 'crosshair' }} data-testid="efence-map" />;
}
