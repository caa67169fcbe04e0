import type { LiveServerMessage } from '@loggerhead/contract/schemas/data.ts';
import { useEffect, useRef, useState } from 'react';
import { type LiveSubscription, subscribeLive } from '../../../api/live-socket.ts';
import { FrameRing, type LiveFrame } from './frame-ring.ts';

/** Spec §9: the virtual list holds at most 10000 rows. */
export const LIVE_BUFFER_ROWS = 10_000;

export type LiveConnection = 'connecting' | 'live' | 'closed';

export interface LiveTrace {
  ring: FrameRing;
  /** Bumped once per animation frame in which rows arrived: the list re-renders at most 60 times a second. */
  version: number;
  connection: LiveConnection;
  /** Frames per second over the last second. */
  rate: number;
  /** Frames the server dropped because this browser fell behind. */
  dropped: number;
  /** Frames that arrived while paused. */
  skipped: number;
  /** The device's online state as last pushed by the hub (null until the first push). */
  online: boolean | null;
  error: string | null;
  clear: () => void;
}

/**
 * The live raw trace of one device over the WebSocket hub. Frames go into a ring buffer
 * outside React state; the component re-renders once per animation frame, however many
 * messages arrived, so thousands of frames a second stay smooth.
 */
export function useLiveTrace(thingsId: string, filter: { channels: number[]; ids: number[] }, paused: boolean): LiveTrace {
  // Lazily made once: a ring is 10000 rows of typed arrays.
  const [ring] = useState(() => new FrameRing(LIVE_BUFFER_ROWS));
  const [version, setVersion] = useState(0);
  const [connection, setConnection] = useState<LiveConnection>('connecting');
  const [rate, setRate] = useState(0);
  const [dropped, setDropped] = useState(0);
  const [skipped, setSkipped] = useState(0);
  const [online, setOnline] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);

  const pausedRef = useRef(paused);
  pausedRef.current = paused;
  const pending = useRef<LiveFrame[]>([]);
  const counters = useRef({ arrived: 0, dropped: 0, skipped: 0 });
  const raf = useRef(0);
  const sub = useRef<LiveSubscription | null>(null);
  const filterKey = `${filter.channels.join(',')}|${filter.ids.join(',')}`;
  const filterRef = useRef(filter);
  filterRef.current = filter;

  // One subscription per device on the tab's live channel; it is sent again after a drop.
  useEffect(() => {
    const flush = () => {
      raf.current = 0;
      if (pending.current.length) {
        ring.push(pending.current);
        pending.current = [];
      }
      setVersion((v) => v + 1);
    };

    const f = filterRef.current;
    const live = subscribeLive(
      { kind: 'frames', things_id: thingsId, channels: f.channels, ids: f.ids },
      {
        onConnecting: () => setConnection('connecting'),
        onMessage: (msg: LiveServerMessage) => {
          if (msg.t === 'subscribed') {
            setConnection('live');
            setError(null);
          } else if (msg.t === 'status') setOnline(msg.online);
          else if (msg.t === 'error') setError(msg.code);
          else if (msg.t === 'frames') {
            counters.current.arrived += msg.f.length;
            if (msg.dropped) counters.current.dropped += msg.dropped;
            if (pausedRef.current) {
              counters.current.skipped += msg.f.length;
              return;
            }
            const queue = pending.current;
            for (const f of msg.f) queue.push(f);
            // A hidden tab gets no animation frames: keep only what the ring could hold anyway.
            if (queue.length > 2 * LIVE_BUFFER_ROWS) pending.current = queue.slice(-LIVE_BUFFER_ROWS);
            if (!raf.current) raf.current = requestAnimationFrame(flush);
          }
        },
        onClose: (end) => {
          setConnection('closed');
          // Ended by the server (session ended, access withdrawn): no reconnect; say why.
          if (end) setError(end.error);
        },
      },
    );

    sub.current = live;

    // Rate and counters reach the screen once a second, not per message.
    let last = counters.current.arrived;
    const tick = setInterval(() => {
      const c = counters.current;
      setRate(c.arrived - last);
      last = c.arrived;
      setDropped(c.dropped);
      setSkipped(c.skipped);
    }, 1000);

    return () => {
      clearInterval(tick);
      if (raf.current) cancelAnimationFrame(raf.current);
      raf.current = 0;
      live.close();
      sub.current = null;
    };
  }, [thingsId, ring]);

  // A new filter re-subscribes on the same channel and starts a fresh trace.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the filter's content.
  useEffect(() => {
    ring.clear();
    pending.current = [];
    setVersion((v) => v + 1);
    const f = filterRef.current;
    sub.current?.update({ kind: 'frames', things_id: thingsId, channels: f.channels, ids: f.ids });
  }, [filterKey, thingsId, ring]);

  return {
    ring,
    version,
    connection,
    rate,
    dropped,
    skipped,
    online,
    error,
    clear: () => {
      ring.clear();
      pending.current = [];
      counters.current.skipped = 0;
      setSkipped(0);
      setVersion((v) => v + 1);
    },
  };
}
