import type { LiveServerMessage } from '@loggerhead/contract/schemas/data.ts';
import type { HmiBinding, HmiCanvas } from '@loggerhead/contract/schemas/hmi.ts';
import { useQueries } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { type LiveSubscription, subscribeLive } from '../../../api/live-socket.ts';
import { signalsApi } from '../../../api/signals.api.ts';
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

  const { signalSubs, twinDevices, trends, key } = useMemo(() => {
    const byDevice = new Map<string, Set<string>>();
    const channels = new Map<string, Set<number>>();
    const twins = new Set<string>();
    const trends = new Map<string, HmiBinding>();
    for (const w of canvas?.widgets ?? []) {
      const b = w.binding;
      if (!b) continue;
      if (w.type === 'trend') trends.set(bindingKey(b), b);
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
    const trendList = [...trends.entries()].sort(([x], [y]) => x.localeCompare(y));
    return {
      signalSubs: subs,
      twinDevices: [...twins].sort(),
      trends: trendList,
      key: JSON.stringify([subs, [...twins].sort(), trendList.map(([k]) => k)]),
    };
  }, [canvas]);

  // A trend starts with the last hour of its stored values, not empty: a property's reported values,
  // a signal's curve (one point per bucket, their means).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the trends' content.
  useEffect(() => {
    const abort = new AbortController();
    const end = Date.now();
    const start = end - HMI_TREND_BACK_MS;
    const stored = (b: HmiBinding): Promise<{ t: number; v: unknown }[]> =>
      b.source === 'property'
        ? hmiApi
            .propertyHistory(
              tenantId,
              b.things_id,
              { property: b.property, start_time: start, end_time: end, limit: HMI_TREND_SAMPLES },
              abort.signal,
            )
            .then((h) => h.list.map((x) => ({ t: x.ts, v: x.value })))
        : signalsApi
            .curve(
              tenantId,
              b.things_id,
              { signal: b.signal, channel: b.channel, begin_time: start, end_time: end, width: HMI_TREND_SAMPLES },
              abort.signal,
            )
            .then((c) => c.t.map((t, i) => ({ t, v: c.avg[i] })));
    for (const [k, b] of trends)
      stored(b)
        .then((points) => {
          const prev = values.current.get(k);
          // Stored values first, then whatever came live meanwhile.
          const history = appendSamples(appendSamples([], points, HMI_TREND_SAMPLES), prev?.history ?? [], HMI_TREND_SAMPLES);
          const last = points[points.length - 1];
          if (prev) prev.history = history;
          else values.current.set(k, { value: last?.v ?? null, t: last?.t ?? null, history });
          dirty.current = true;
        })
        .catch(() => {}); // nothing stored to read (no access, a network hiccup): the trend fills live
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
