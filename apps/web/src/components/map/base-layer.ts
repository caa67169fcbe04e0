import L from 'leaflet';

/** The grid drawn where there are no tiles: every tile a square outline, so zoom and pan still read. */
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
}) as unknown as new (
  o?: L.GridLayerOptions,
) => L.GridLayer;

/**
 * The map's background: the configured tiles (OpenStreetMap's by default, with their credit), and
 * the grid beneath them from the first tile that fails to load (offline, blocked host), or alone
 * when no tiles are configured.
 */
export function addBaseLayer(map: L.Map, tiles: { url: string | null; attribution?: string | null }): void {
  if (!tiles.url) {
    new GridLayer().addTo(map);
    return;
  }
  let gridShown = false;
  L.tileLayer(tiles.url, { maxZoom: 19, attribution: tiles.attribution ?? '', zIndex: 2 })
    .on('tileerror', () => {
      if (gridShown) return;
      gridShown = true;
      new GridLayer({ zIndex: 1 }).addTo(map);
    })
    .addTo(map);
}
