import 'leaflet/dist/leaflet.css';
import L from 'leaflet';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { useSession } from '../../../session/use-session.ts';
import { tileConfig } from './geo.ts';

/** Offline background: every tile is a square outline, so zoom and pan still read. */
const GridLayer = L.GridLayer.extend({
  createTile(this: L.GridLayer, coords: L.Coords) {
    const tile = document.createElement('canvas');
    const size = this.getTileSize();
    tile.width = size.x;
    tile.height = size.y;
    const ctx = tile.getContext('2d');
    if (ctx) {
      ctx.fillStyle = '#f4f6f8';
      ctx.fillRect(0, 0, size.x, size.y);
      ctx.strokeStyle = '#d0d7de';
      ctx.strokeRect(0, 0, size.x, size.y);
      ctx.fillStyle = '#b0b8c0';
      ctx.font = '10px sans-serif';
      ctx.fillText(`${coords.z}/${coords.x}/${coords.y}`, 4, 12);
    }
    return tile;
  },
}) as unknown as new () => L.GridLayer;

/** A Leaflet map in `box`: configured tiles or the offline grid. Returns the map once created. */
export function useBaseMap(box: RefObject<HTMLDivElement | null>, center: [number, number] = [30, 110], zoom = 4): L.Map | null {
  const link = useSession().config?.link;
  const [map, setMap] = useState<L.Map | null>(null);
  const first = useRef({ center, zoom });
  useEffect(() => {
    if (!box.current) return;
    const tiles = tileConfig(link);
    const m = L.map(box.current, { center: first.current.center, zoom: first.current.zoom, attributionControl: Boolean(tiles.url) });
    if (tiles.url) L.tileLayer(tiles.url, { maxZoom: 19, attribution: tiles.attribution ?? '' }).addTo(m);
    else new GridLayer().addTo(m);
    setMap(m);
    return () => {
      m.remove();
      setMap(null);
    };
  }, [box, link]);
  return map;
}
