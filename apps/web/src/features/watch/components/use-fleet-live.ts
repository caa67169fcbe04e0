import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { LiveServerMessage } from '@loggerhead/contract/schemas/data.ts';
import { useEffect, useRef, useState } from 'react';
import { openLiveSocket } from '../../../api/live-socket.ts';
import { RateCounter } from './rate-counter.ts';

/** The live hub takes one subscription per device; the screen follows at most this many. */
export const LIVE_DEVICES_MAX = 50;
const RECONNECT_MS = 3_000;

export interface FleetLive {
  connected: boolean;
  total: number;
  per: Map<string, number>;
  /** Online state pushed by the hub, newer than the last poll. */
  online: Map<string, boolean>;
}

/**
 * Frames per second of the given devices over the live WebSocket (`/v1/live`), and their
 * online changes as the hub pushes them. Resubscribes when the set of devices changes.
 */
export function useFleetLive(ids: string[]): FleetLive {
  const [state, setState] = useState<FleetLive>({ connected: false, total: 0, per: new Map(), online: new Map() });
  const socket = useRef<WebSocket | null>(null);
  const subscribed = useRef(new Set<string>());
  const counter = useRef(new RateCounter());
  const key = ids.slice(0, LIVE_DEVICES_MAX).sort().join(',');
  // The socket's handlers live longer than a render: they read the current device set here.
  const keyRef = useRef(key);
  keyRef.current = key;

  // biome-ignore lint/correctness/useExhaustiveDependencies: one socket for the screen's lifetime; `sync` reads the device set from a ref
  useEffect(() => {
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      const { total, per } = counter.current.tick(now - last);
      last = now;
      setState((s) => ({ ...s, total, per }));
    }, 1000);

    const live = openLiveSocket<LiveServerMessage>({
      path: Routes.live.data.path,
      retryMs: RECONNECT_MS,
      onOpen: (ws) => {
        socket.current = ws;
        subscribed.current.clear();
        setState((s) => ({ ...s, connected: true }));
        sync();
      },
      onMessage: (m) => {
        if (m.t === 'frames') counter.current.add(m.things_id, m.f.length + (m.dropped ?? 0));
        else if (m.t === 'status') setState((s) => ({ ...s, online: new Map(s.online).set(m.things_id, m.online) }));
      },
      onClose: () => {
        socket.current = null;
        setState((s) => ({ ...s, connected: false }));
      },
    });
    return () => {
      clearInterval(timer);
      live.close();
      socket.current = null;
    };
  }, []);

  // Subscribes the new devices and drops the ones that left, on the open socket.
  function sync() {
    const key = keyRef.current;
    const ws = socket.current;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    const want = new Set(key ? key.split(',') : []);
    for (const id of subscribed.current) {
      if (!want.has(id)) ws.send(JSON.stringify({ op: 'unsubscribe', things_id: id }));
    }
    for (const id of want) {
      if (!subscribed.current.has(id)) ws.send(JSON.stringify({ op: 'subscribe', things_id: id }));
    }
    subscribed.current = want;
  }
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run when the device set (its key) changes
  useEffect(sync, [key]);

  return state;
}
