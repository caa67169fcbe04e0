// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { expectShownAsText, PAYLOAD } from '../../../components/map/map-text.fixtures.ts';
import { FleetMap } from './fleet-map.tsx';

afterEach(cleanup);

describe('the fleet map', () => {
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
});
