import type L from 'leaflet';

/**
 * Text for a Leaflet tooltip, popup or label: Leaflet writes a string it is given as HTML
 * (`innerHTML`), so a device or fence name such as `<style>*{background:red}</style>` would become
 * markup on the page. The console gives it an element holding the text as text instead; every
 * map's tooltip goes through here (the map-text test checks no other call gives Leaflet a string).
 */
export function mapText(text: string): HTMLElement {
  const el = document.createElement('span');
  el.textContent = text;
  return el;
}

/** `layer.bindTooltip` with `text` as text, never HTML. */
export function textTooltip<T extends L.Layer>(layer: T, text: string, options?: L.TooltipOptions): T {
  layer.bindTooltip(mapText(text), options);
  return layer;
}
