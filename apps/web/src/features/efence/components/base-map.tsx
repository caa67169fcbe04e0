import 'leaflet/dist/leaflet.css';
import L from 'leaflet';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { addBaseLayer } from '../../../components/map/base-layer.ts';
import { useSession } from '../../../session/use-session.ts';
import { tileConfig } from './geo.ts';

/** A Leaflet map in `box`: configured tiles (the grid where they fail) or the grid. Returns the map once created. */
export function useBaseMap(box: RefObject<HTMLDivElement | null>, center: [number, number] = [30, 110], zoom = 4): L.Map | null {
  const link = useSession().config?.link;
  const [map, setMap] = useState<L.Map | null>(null);
  const first = useRef({ center, zoom });
  useEffect(() => {
    if (!box.current) return;
    const tiles = tileConfig(link);
    const m = L.map(box.current, { center: first.current.center, zoom: first.current.zoom, attributionControl: Boolean(tiles.url) });
    addBaseLayer(m, tiles);
    setMap(m);
    return () => {
      m.remove();
      setMap(null);
    };
  }, [box, link]);
  return map;
}
