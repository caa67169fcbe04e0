import type { LiveServerMessage } from '@loggerhead/contract/schemas/data.ts';
import { useEffect, useRef, useState } from 'react';
import { type LiveSpec, type LiveSubscription, type SocketEnd, subscribeLive } from '../../../api/live-socket.ts';
import { SignalRing } from '../lib/signal-ring.ts';

/** Samples held per curve (10 curves × this stay a few MB at most). */
export const LIVE_RING_SAMPLES = 20_000;
/** The chart redraws at most this often, however many pushes arrive. */
export const LIVE_REDRAW_MS = 250;

export type LiveSignalsConnection = 'connecting' | 'live' | 'closed';

export interface LiveCurveRef {
  channel: number;
  /** `Message.Signal`. */
  signal: string;
}

export const ringKey = (c: LiveCurveRef) => `${c.channel}/${c.signal}`;

function signalsSpec(thingsId: string, list: LiveCurveRef[]): LiveSpec {
  return {
    kind: 'signals',
    things_id: thingsId,
    channels: [...new Set(list.map((c) => c.channel))],
    signals: [...new Set(list.map((c) => c.signal))],
  };
}

/**
 * Decoded samples of a device's signals pushed over the tab's live channel (a `signals`
 * subscription), one bounded ring per curve. Rings fill while paused; only the redraw stops. A
 * changed set of curves re-subscribes on the same channel; no curve, no subscription.
 */
export function useLiveSignals(thingsId: string, curves: LiveCurveRef[], paused: boolean) {
  const [rings] = useState(() => new Map<string, SignalRing>());
  const [version, setVersion] = useState(0);
  const [connection, setConnection] = useState<LiveSignalsConnection>('connecting');
  const [error, setError] = useState<string | null>(null);
  const sub = useRef<LiveSubscription | null>(null);
  const curvesRef = useRef(curves);
  curvesRef.current = curves;
  const pausedRef = useRef(paused);
  pausedRef.current = paused;
  const dirty = useRef(false);
  const key = curves.map(ringKey).sort().join('|');

  const handlers = useRef({
    onConnecting: () => setConnection('connecting'),
    onMessage: (msg: LiveServerMessage) => {
      if (msg.t === 'subscribed') {
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
    onClose: (end: SocketEnd | null) => {
      setConnection('closed');
      // Ended by the server (session ended, access withdrawn): no reconnect; say why.
      if (end) setError(end.error);
    },
  });

  // Redraws are batched: one per LIVE_REDRAW_MS when something arrived and the view is not paused.
  useEffect(() => {
    const tick = setInterval(() => {
      if (dirty.current && !pausedRef.current) {
        dirty.current = false;
        setVersion((v) => v + 1);
      }
    }, LIVE_REDRAW_MS);
    return () => clearInterval(tick);
  }, []);

  // The subscription belongs to the device: it ends with the view or when the device changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run when the device changes, to end its subscription
  useEffect(
    () => () => {
      sub.current?.close();
      sub.current = null;
    },
    [thingsId],
  );

  // The set of curves changed: rings for new curves, none for removed ones, and the subscription
  // replaced on the channel (none without curves).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the curves' content.
  useEffect(() => {
    const want = new Set(curvesRef.current.map(ringKey));
    for (const k of [...rings.keys()]) if (!want.has(k)) rings.delete(k);
    for (const k of want) if (!rings.has(k)) rings.set(k, new SignalRing(LIVE_RING_SAMPLES));
    if (!want.size) {
      sub.current?.close();
      sub.current = null;
    } else if (sub.current) sub.current.update(signalsSpec(thingsId, curvesRef.current));
    else sub.current = subscribeLive(signalsSpec(thingsId, curvesRef.current), handlers.current);
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
