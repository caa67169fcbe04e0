import type { LiveServerMessage } from '@loggerhead/contract/schemas/data.ts';
import type { HmiCanvas } from '@loggerhead/contract/schemas/hmi.ts';
import { useQueries } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { type LiveSubscription, subscribeLive } from '../../../api/live-socket.ts';
import { hmiApi, hmiKeys } from '../api/hmi.api.ts';
import { bindingKey } from '../lib/canvas.ts';

/** Samples kept per signal for a trend. */
export const HMI_TREND_SAMPLES = 300;
/** The screen redraws at most this often, however many pushes arrive. */
const REDRAW_MS = 250;
/** Twin properties are read this often (the live channel carries decoded signals, not twins). */
const TWIN_POLL_MS = 3000;
/** Signals per subscription (the live channel's limit). */
const PER_SUB = 10;

export interface LiveValue {
  value: unknown;
  t: number | null;
  unit?: string;
  /** Recent samples (signals only), oldest first. */
  history: { t: number; v: number }[];
}

/**
 * Live values of a screen's bindings: decoded signals pushed over the tab's one live channel (one
 * `signals` subscription per device, at most 10 signals each), twin properties read every few
 * seconds. `errors` holds the live channel's refusals by device (e.g. no read access).
 */
export function useHmiLive(tenantId: string, canvas: HmiCanvas | undefined) {
  const values = useRef(new Map<string, LiveValue>());
  const dirty = useRef(false);
  const [version, setVersion] = useState(0);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const { signalSubs, twinDevices, key } = useMemo(() => {
    const byDevice = new Map<string, Set<string>>();
    const channels = new Map<string, Set<number>>();
    const twins = new Set<string>();
    for (const w of canvas?.widgets ?? []) {
      const b = w.binding;
      if (!b) continue;
      if (b.source === 'property') twins.add(b.things_id);
      else {
        byDevice.set(b.things_id, (byDevice.get(b.things_id) ?? new Set()).add(b.signal));
        channels.set(b.things_id, (channels.get(b.things_id) ?? new Set()).add(b.channel));
      }
    }
    const subs: { things_id: string; channels: number[]; signals: string[] }[] = [];
    for (const [thingsId, signals] of byDevice) {
      const list = [...signals].sort();
      for (let i = 0; i < list.length; i += PER_SUB)
        subs.push({ things_id: thingsId, channels: [...(channels.get(thingsId) ?? [])], signals: list.slice(i, i + PER_SUB) });
    }
    return { signalSubs: subs, twinDevices: [...twins].sort(), key: JSON.stringify([subs, [...twins].sort()]) };
  }, [canvas]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the subscriptions' content.
  useEffect(() => {
    const subs: LiveSubscription[] = signalSubs.map((spec) =>
      subscribeLive(
        { kind: 'signals', ...spec },
        {
          onMessage: (msg: LiveServerMessage) => {
            if (msg.t === 'error') setErrors((e) => ({ ...e, [spec.things_id]: msg.code }));
            else if (msg.t === 'subscribed')
              setErrors((e) => {
                const { [spec.things_id]: _gone, ...rest } = e;
                return rest;
              });
            else if (msg.t === 'signals') {
              for (const s of msg.s) {
                if (!s.v.length) continue;
                const k = `${msg.things_id}/${s.channel}/${s.signal}`;
                const prev = values.current.get(k);
                const history = prev?.history ?? [];
                for (let i = 0; i < s.v.length; i++) history.push({ t: s.t[i], v: s.v[i] });
                if (history.length > HMI_TREND_SAMPLES) history.splice(0, history.length - HMI_TREND_SAMPLES);
                values.current.set(k, { value: s.v[s.v.length - 1], t: s.t[s.t.length - 1], unit: s.unit, history });
              }
              dirty.current = true;
            }
          },
        },
      ),
    );
    return () => {
      for (const s of subs) s.close();
    };
  }, [key]);

  const twins = useQueries({
    queries: twinDevices.map((thingsId) => ({
      queryKey: hmiKeys.twin(tenantId, thingsId),
      queryFn: ({ signal }: { signal: AbortSignal }) => hmiApi.twin(tenantId, thingsId, signal),
      refetchInterval: TWIN_POLL_MS,
      meta: { silent: true },
    })),
  });
  const twinStamp = twins.map((q) => q.dataUpdatedAt).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the stamp says when any twin was read again.
  useEffect(() => {
    twins.forEach((q, i) => {
      if (!q.data) return;
      for (const [path, r] of Object.entries(q.data.reported))
        values.current.set(bindingKey({ source: 'property', things_id: twinDevices[i], property: path }), {
          value: r.value,
          t: r.ts,
          history: [],
        });
    });
    dirty.current = true;
  }, [twinStamp]);

  useEffect(() => {
    const tick = setInterval(() => {
      if (!dirty.current) return;
      dirty.current = false;
      setVersion((v) => v + 1);
    }, REDRAW_MS);
    return () => clearInterval(tick);
  }, []);

  return { values: values.current, version, errors };
}
