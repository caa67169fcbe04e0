import type { LiveServerMessage } from '@loggerhead/contract/schemas/data.ts';
import type { HmiCanvas } from '@loggerhead/contract/schemas/hmi.ts';
import { useQueries } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { type LiveSubscription, subscribeLive } from '../../../api/live-socket.ts';
import { hmiApi, hmiKeys } from '../api/hmi.api.ts';
import { appendSamples, bindingKey } from '../lib/canvas.ts';

/** Samples kept per signal for a trend. */
export const HMI_TREND_SAMPLES = 300;
/** The screen redraws at most this often, however many pushes arrive. */
const REDRAW_MS = 250;
/** Twin properties are read this often (the live channel carries decoded signals, not twins). */
const TWIN_POLL_MS = 3000;
/** Signals per subscription (the live channel's limit). */
const PER_SUB = 10;
/** How far back a trend of a property starts, from the property's stored history. */
export const HMI_TREND_BACK_MS = 3_600_000;

export interface LiveValue {
  value: unknown;
  t: number | null;
  unit?: string;
  /** Recent samples, oldest first: a signal's live values; a property's stored history, then its new values. */
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

  const { signalSubs, twinDevices, propertyTrends, key } = useMemo(() => {
    const byDevice = new Map<string, Set<string>>();
    const channels = new Map<string, Set<number>>();
    const twins = new Set<string>();
    const trends = new Map<string, { things_id: string; property: string }>();
    for (const w of canvas?.widgets ?? []) {
      const b = w.binding;
      if (!b) continue;
      if (b.source === 'property') {
        twins.add(b.things_id);
        if (w.type === 'trend') trends.set(bindingKey(b), { things_id: b.things_id, property: b.property });
      } else {
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
    const propertyTrends = [...trends.entries()].sort(([x], [y]) => x.localeCompare(y));
    return {
      signalSubs: subs,
      twinDevices: [...twins].sort(),
      propertyTrends,
      key: JSON.stringify([subs, [...twins].sort(), propertyTrends.map(([k]) => k)]),
    };
  }, [canvas]);

  // A trend of a property starts with the last hour of its stored values, not empty.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the trends' content.
  useEffect(() => {
    const abort = new AbortController();
    const end = Date.now();
    for (const [k, p] of propertyTrends)
      hmiApi
        .propertyHistory(
          tenantId,
          p.things_id,
          { property: p.property, start_time: end - HMI_TREND_BACK_MS, end_time: end, limit: HMI_TREND_SAMPLES },
          abort.signal,
        )
        .then((h) => {
          const prev = values.current.get(k);
          // Stored values first, then whatever the twin read added meanwhile.
          const history = appendSamples(
            h.list.map((x) => ({ t: x.ts, v: x.value })).filter((x): x is { t: number; v: number } => typeof x.v === 'number'),
            (prev?.history ?? []).map((x) => ({ t: x.t, v: x.v })),
            HMI_TREND_SAMPLES,
          );
          const last = h.list[h.list.length - 1];
          values.current.set(k, prev ?? { value: last?.value ?? null, t: last?.ts ?? null, history });
          if (prev) prev.history = history;
          dirty.current = true;
        })
        .catch(() => {}); // no history (no access, a network hiccup): the trend fills from the live reads
    return () => abort.abort();
  }, [key, tenantId]);

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
      for (const [path, r] of Object.entries(q.data.reported)) {
        const k = bindingKey({ source: 'property', things_id: twinDevices[i], property: path });
        const history = appendSamples(values.current.get(k)?.history ?? [], [{ t: r.ts, v: r.value }], HMI_TREND_SAMPLES);
        values.current.set(k, { value: r.value, t: r.ts, history });
      }
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
