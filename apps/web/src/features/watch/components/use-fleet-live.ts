import { useEffect, useRef, useState } from 'react';
import { type LiveHandlers, type LiveSubscription, subscribeLive } from '../../../api/live-socket.ts';
import { RateCounter } from './rate-counter.ts';

/** One subscription per device on the live channel; the screen follows at most this many. */
export const LIVE_DEVICES_MAX = 50;

export interface FleetLive {
  connected: boolean;
  total: number;
  per: Map<string, number>;
  /** Online state pushed by the hub, newer than the last poll. */
  online: Map<string, boolean>;
}

/**
 * Frames per second of the given devices over the tab's live channel (a `frames` subscription per
 * device), and their online changes as the hub pushes them. Follows the set of devices as it changes.
 */
export function useFleetLive(ids: string[]): FleetLive {
  const [state, setState] = useState<FleetLive>({ connected: false, total: 0, per: new Map(), online: new Map() });
  const subs = useRef(new Map<string, LiveSubscription>());
  const counter = useRef(new RateCounter());
  const key = ids.slice(0, LIVE_DEVICES_MAX).sort().join(',');
  const handlers = useRef<LiveHandlers>({
    onMessage: (m) => {
      if (m.t === 'frames') counter.current.add(m.things_id, m.f.length + (m.dropped ?? 0));
      else if (m.t === 'status') setState((s) => ({ ...s, online: new Map(s.online).set(m.things_id, m.online) }));
      else if (m.t === 'subscribed') setState((s) => (s.connected ? s : { ...s, connected: true }));
    },
    onClose: () => setState((s) => (s.connected ? { ...s, connected: false } : s)),
  });

  useEffect(() => {
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      const { total, per } = counter.current.tick(now - last);
      last = now;
      setState((s) => ({ ...s, total, per }));
    }, 1000);
    const mine = subs.current;
    return () => {
      clearInterval(timer);
      for (const sub of mine.values()) sub.close();
      mine.clear();
    };
  }, []);

  // Subscribes the new devices and drops the ones that left.
  useEffect(() => {
    const want = new Set(key ? key.split(',') : []);
    for (const [id, sub] of subs.current) {
      if (want.has(id)) continue;
      sub.close();
      subs.current.delete(id);
    }
    for (const id of want) {
      if (!subs.current.has(id)) subs.current.set(id, subscribeLive({ kind: 'frames', things_id: id }, handlers.current));
    }
  }, [key]);

  return state;
}
