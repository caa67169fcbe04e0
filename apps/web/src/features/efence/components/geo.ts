import type { LatLon } from '@loggerhead/contract/schemas/fence.ts';

/** Spec §9 coordinate ranges. */
export function validLatLon(p: { lat: number; lon: number }): boolean {
  return Number.isFinite(p.lat) && Number.isFinite(p.lon) && p.lat >= -90 && p.lat <= 90 && p.lon >= -180 && p.lon <= 180;
}

/** Spec §9 circle radius / border tolerance, metres. */
export const RADIUS_MIN = 50;
export const RADIUS_MAX = 10_000;
export const validRadius = (r: number) => Number.isFinite(r) && r >= RADIUS_MIN && r <= RADIUS_MAX;

/** Map clicks can wrap around the world; fence points are stored in -180..180. */
export function wrapLon(lon: number): number {
  return ((((lon + 180) % 360) + 360) % 360) - 180;
}

const EARTH_M = 6_371_008.8;
const rad = (d: number) => (d * Math.PI) / 180;

/** Great-circle distance in metres. */
export function haversine(a: LatLon, b: LatLon): number {
  const dLat = rad(b.lat - a.lat);
  const dLon = rad(b.lon - a.lon);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * Map tiles come from the global configuration's service links (a JSON `link` with
 * `mapTileUrl`, `{z}/{x}/{y}`); without one the map draws a plain grid so it works offline.
 */
export function tileConfig(link: string | undefined | null): { url: string | null; attribution?: string } {
  try {
    const v = JSON.parse(link || '{}') as { mapTileUrl?: unknown; mapAttribution?: unknown };
    const url = typeof v.mapTileUrl === 'string' && /\{z\}/.test(v.mapTileUrl) ? v.mapTileUrl : null;
    return { url, attribution: typeof v.mapAttribution === 'string' ? v.mapAttribution : undefined };
  } catch {
    return { url: null };
  }
}
