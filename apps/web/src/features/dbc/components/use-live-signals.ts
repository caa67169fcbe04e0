import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { LiveServerMessage } from '@loggerhead/contract/schemas/data.ts';
import { useEffect, useRef, useState } from 'react';
import { openLiveSocket } from '../../../api/live-socket.ts';
import { SignalRing } from '../lib/signal-ring.ts';

/** Samples held per curve (10 curves × this stay a few MB at most). */
export const LIVE_RING_SAMPLES = 20_000;
/** The chart redraws at most this often, however many pushes arrive. */
export const LIVE_REDRAW_MS = 250;
const RECONNECT_MS = 2_000;

export type LiveSignalsConnection = 'connecting' | 'live' | 'closed';

export interface LiveCurveRef {
  channel: number;
  /** `Message.Signal`. */
  signal: string;
}

export const ringKey = (c: LiveCurveRef) => `${c.channel}/${c.signal}`;

function sendSubscription(ws: WebSocket, thingsId: string, list: LiveCurveRef[]) {
  ws.send(
    JSON.stringify({
      op: 'subscribe-signals',
      things_id: thingsId,
      channels: [...new Set(list.map((c) => c.channel))],
      signals: [...new Set(list.map((c) => c.signal))],
    }),
  );
}

/**
 * Decoded samples of a device's signals pushed over the live WebSocket (`subscribe-signals`), one
 * bounded ring per curve. Rings fill while paused; only the redraw stops. A changed set of curves
 * re-subscribes on the same socket.
 */
export function useLiveSignals(thingsId: string, curves: LiveCurveRef[], paused: boolean) {
  const [rings] = useState(() => new Map<string, SignalRing>());
  const [version, setVersion] = useState(0);
  const [connection, setConnection] = useState<LiveSignalsConnection>('connecting');
  const [error, setError] = useState<string | null>(null);
  const socket = useRef<WebSocket | null>(null);
  const curvesRef = useRef(curves);
  curvesRef.current = curves;
  const pausedRef = useRef(paused);
  pausedRef.current = paused;
  const dirty = useRef(false);
  const key = curves.map(ringKey).sort().join('|');

  useEffect(() => {
    const live = openLiveSocket<LiveServerMessage>({
      path: Routes.live.data.path,
      retryMs: RECONNECT_MS,
      onConnecting: () => setConnection('connecting'),
      onOpen: (ws) => {
        socket.current = ws;
        if (curvesRef.current.length) sendSubscription(ws, thingsId, curvesRef.current);
      },
      onMessage: (msg) => {
        if (msg.t === 'signals-subscribed') {
          setConnection('live');
          setError(null);
        } else if (msg.t === 'error') setError(msg.code);
        else if (msg.t === 'signals') {
          for (const s of msg.s) {
            const ring = rings.get(ringKey(s));
            if (ring?.push(s.t, s.v)) dirty.current = true;
          }
        }
      },
      onClose: (end) => {
        socket.current = null;
        setConnection('closed');
        // Ended by the server (session ended, access withdrawn): no reconnect; say why.
        if (end) setError(end.error);
      },
    });
    // Redraws are batched: one per LIVE_REDRAW_MS when something arrived and the view is not paused.
    const tick = setInterval(() => {
      if (dirty.current && !pausedRef.current) {
        dirty.current = false;
        setVersion((v) => v + 1);
      }
    }, LIVE_REDRAW_MS);
    return () => {
      clearInterval(tick);
      live.close();
      socket.current = null;
    };
  }, [thingsId, rings]);

  // The set of curves changed: rings for new curves, none for removed ones, and a new subscription.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the curves' content.
  useEffect(() => {
    const want = new Set(curvesRef.current.map(ringKey));
    for (const k of [...rings.keys()]) if (!want.has(k)) rings.delete(k);
    for (const k of want) if (!rings.has(k)) rings.set(k, new SignalRing(LIVE_RING_SAMPLES));
    const ws = socket.current;
    if (ws?.readyState === WebSocket.OPEN) {
      if (want.size) sendSubscription(ws, thingsId, curvesRef.current);
      else ws.send(JSON.stringify({ op: 'unsubscribe-signals', things_id: thingsId }));
    }
    setVersion((v) => v + 1);
  }, [key, thingsId, rings]);

  return {
    rings,
    version,
    connection,
    error,
    /** Marks the rings changed (after seeding) so that the next tick redraws. */
    touch: () => {
      dirty.current = true;
    },
  };
}
