import type { FenceBorder, FenceRegion, LatLon } from '@loggerhead/contract';

const R = 6_371_008.8; // mean Earth radius, m
const RAD = Math.PI / 180;

/** Great-circle distance in metres. */
export function haversine(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const s = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(s)));
}

/** Ray casting in the lat/lon plane: exact enough for fences of a few kilometres. */
export function inPolygon(lat: number, lon: number, pts: readonly LatLon[]): boolean {
  let inside = false;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
    const a = pts[i];
    const b = pts[j];
    if (a.lat > lat !== b.lat > lat && lon < ((b.lon - a.lon) * (lat - a.lat)) / (b.lat - a.lat) + a.lon) inside = !inside;
  }
  return inside;
}

/** Distance in metres from a point to a polyline (local equirectangular projection around the point). */
export function distanceToPolyline(lat: number, lon: number, pts: readonly LatLon[]): number {
  const kx = Math.cos(lat * RAD) * RAD * R;
  const ky = RAD * R;
  let best = Number.POSITIVE_INFINITY;
  for (let i = 1; i < pts.length; i++) {
    const ax = (pts[i - 1].lon - lon) * kx;
    const ay = (pts[i - 1].lat - lat) * ky;
    const bx = (pts[i].lon - lon) * kx;
    const by = (pts[i].lat - lat) * ky;
    const dx = bx - ax;
    const dy = by - ay;
    const l2 = dx * dx + dy * dy;
    const t = l2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / l2));
    const px = ax + t * dx;
    const py = ay + t * dy;
    best = Math.min(best, Math.hypot(px, py));
  }
  return best;
}

/** Whether a position is inside a fence: in the region, or within the border's tolerance of its line. */
export function fenceContains(fence: {
  type: 'region' | 'border';
  region: FenceRegion | null;
  border: FenceBorder | null;
}): (lat: number, lon: number) => boolean {
  if (fence.type === 'border' && fence.border) {
    const { points, tolerance } = fence.border;
    return (lat, lon) => distanceToPolyline(lat, lon, points) <= tolerance;
  }
  const r = fence.region;
  if (!r) return () => false;
  if (r.shape === 'circle') return (lat, lon) => haversine(r.center.lat, r.center.lon, lat, lon) <= r.radius;
  return (lat, lon) => inPolygon(lat, lon, r.points);
}
