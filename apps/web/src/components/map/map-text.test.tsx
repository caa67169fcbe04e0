// @vitest-environment happy-dom
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import L from 'leaflet';
import { describe, expect, it } from 'vitest';
import { expectShownAsText, PAYLOAD } from './map-text.fixtures.ts';
import { textTooltip } from './map-text.ts';

function mapIn(): { map: L.Map; box: HTMLDivElement } {
  const box = document.createElement('div');
  box.style.width = '400px';
  box.style.height = '300px';
  document.body.append(box);
  return { map: L.map(box, { center: [30, 110], zoom: 4 }), box };
}

describe('map tooltips', () => {
  it('a fence-like shape and a marker show their names as text', () => {
    const { map, box } = mapIn();
    const shape = textTooltip(
      L.polygon([
        [30, 110],
        [31, 111],
        [30, 112],
      ]),
      `Fence: ${PAYLOAD}`,
    ).addTo(map);
    const marker = textTooltip(L.circleMarker([30, 110]), PAYLOAD).addTo(map);
    shape.openTooltip();
    marker.openTooltip();
    const tips = box.querySelectorAll('.leaflet-tooltip');
    expect(tips).toHaveLength(2);
    expectShownAsText(tips[0], `Fence: ${PAYLOAD}`);
    expectShownAsText(tips[1], PAYLOAD);
    map.remove();
  });

  it('no module of the console hands Leaflet or React a string of HTML', () => {
    const src = path.resolve(import.meta.dirname, '../..');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = path.join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.tsx?$/.test(p) && !/\.test\.tsx?$/.test(p)) files.push(p);
      }
    };
    walk(src);
    const HTML_SINKS =
      /\.bindTooltip\(|\.bindPopup\(|\.setTooltipContent\(|\.setPopupContent\(|innerHTML|outerHTML|insertAdjacentHTML|dangerouslySetInnerHTML|setHTML|divIcon|L\.tooltip\(|L\.popup\(/;
    const found = files
      .filter((f) => !f.endsWith(path.join('components', 'map', 'map-text.ts')))
      .flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .flatMap((line, i) => (HTML_SINKS.test(line) ? [`${path.relative(src, f)}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(found).toEqual([]);
  });
});
