// @vitest-environment happy-dom
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { cleanup, render } from '@testing-library/react';
import L from 'leaflet';
import { afterEach, describe, expect, it } from 'vitest';
import { FleetMap } from '../../features/watch/components/fleet-map.tsx';
import { textTooltip } from './map-text.ts';

/**
 * A name on a map is text, never HTML: a device or fence named with markup shows the markup as
 * letters and adds nothing to the page (an injected `<style>` once turned the monitor screen red).
 */
const PAYLOAD = '<style>*{background:red}</style><img src=x onerror="window.__ran=1"><b>bold</b>';

afterEach(cleanup);

function mapIn(): { map: L.Map; box: HTMLDivElement } {
  const box = document.createElement('div');
  box.style.width = '400px';
  box.style.height = '300px';
  document.body.append(box);
  return { map: L.map(box, { center: [30, 110], zoom: 4 }), box };
}

/** No element the payload would have made is anywhere on the page; its text is where it was shown. */
function expectShownAsText(where: Element, text: string) {
  expect(document.querySelectorAll('style, img, b')).toHaveLength(0);
  expect(where.textContent).toContain(text);
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

  it("the monitor screen's fleet map shows a device name as text", () => {
    const { container } = render(
      <FleetMap
        tileUrl={null}
        devices={[
          { id: 'd1', name: PAYLOAD, online: true, fix: { ts: 0, lat: 30, lon: 110, alt: null, speed: null, heading: null, sats: null } },
        ]}
      />,
    );
    const dot = container.querySelector('path.leaflet-interactive');
    expect(dot).not.toBeNull();
    dot?.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    const tip = container.querySelector('.leaflet-tooltip');
    expect(tip).not.toBeNull();
    expectShownAsText(tip as Element, PAYLOAD);
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
