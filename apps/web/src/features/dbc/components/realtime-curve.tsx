import { DeleteOutlined, PauseCircleOutlined, PlayCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Badge, Button, Checkbox, Flex, Form, Input, Modal, Segmented, Table, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { userConfigApi } from '../../../api/dbc.api.ts';
import { dbcKeys } from '../../../api/dbc.queries.ts';
import { signalsApi } from '../../../api/signals.api.ts';
import { CURVE_COLORS, CurveChart } from '../../../components/charts/curve-chart.tsx';
import { joinCurves } from '../../../components/charts/curve-join.ts';
import { formatNumber } from '../../../lib/format.ts';
import { CURVE_NAME_MAX, curveNameProblem, MAX_CURVES_SHOWN, MAX_SAVED_CURVES } from '../lib/names.ts';
import { thinForChart } from '../lib/signal-ring.ts';
import { addCurve, type CurveEntry, curvesConfigKey, parseCurves, toggleCurve } from './curve-entries.ts';
import { SignalSelect } from './signal-select.tsx';
import type { SignalOption } from './use-channel-signals.ts';
import { ringKey, useLiveSignals } from './use-live-signals.ts';

/**
 * The real-time curve: decoded samples arrive over the live WebSocket (pushed by the server as the
 * decoder stores them, thinned per push), into one bounded ring per curve. When a curve is shown or
 * the window widens, the window's older part is fetched once from the curve endpoint; nothing polls.
 */
const WINDOWS = [30_000, 60_000, 300_000, 600_000] as const;
/** Slack past "now": device clocks run a little ahead of the browser's. */
const AHEAD_MS = 2_000;
/** Points the seed query asks for per curve (the live samples add to them). */
const SEED_WIDTH = 1_000;

export function RealtimeCurve({
  tenantId,
  thingsId,
  channel,
  options,
}: {
  tenantId: string;
  thingsId: string;
  channel: number;
  options: SignalOption[];
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [paused, setPaused] = useState(false);
  const [windowMs, setWindowMs] = useState<number>(60_000);
  const [width, setWidth] = useState(800);
  const [adding, setAdding] = useState(false);
  const key = curvesConfigKey(thingsId);
  const saved = useQuery({
    queryKey: [...dbcKeys.device(tenantId, thingsId), 'curves'],
    queryFn: async ({ signal }) => parseCurves(await userConfigApi.get(key, signal).catch(() => null)),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const curves = saved.data ?? [];
  const persist = useMutation({
    mutationFn: (list: CurveEntry[]) => userConfigApi.put(key, JSON.stringify(list)),
    onMutate: (list) => qc.setQueryData([...dbcKeys.device(tenantId, thingsId), 'curves'], list),
  });

  const shown = curves.filter((c) => c.shown).slice(0, MAX_CURVES_SHOWN);
  const shownKey = shown.map((c) => `${c.name}|${ringKey(c)}`).join(',');
  const live = useLiveSignals(thingsId, shown, paused);

  // The window's history, once per curve and window (not polled): placed before the live samples.
  const seeds = useQueries({
    queries: shown.map((c) => ({
      queryKey: [...dbcKeys.device(tenantId, thingsId), 'live-seed', c.channel, c.signal, windowMs],
      queryFn: ({ signal }: { signal: AbortSignal }) => {
        const now = Date.now();
        return signalsApi.curve(
          tenantId,
          thingsId,
          { signal: c.signal, channel: c.channel, begin_time: now - windowMs, end_time: now + AHEAD_MS, width: SEED_WIDTH },
          signal,
        );
      },
      staleTime: Number.POSITIVE_INFINITY,
      gcTime: 0,
      meta: { silent: true },
    })),
  });
  const seeded = useRef(new Set<string>());
  const seedStamp = seeds.map((q) => q.dataUpdatedAt).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the stamps say when a seed arrived.
  useEffect(() => {
    seeds.forEach((q, i) => {
      const c = shown[i];
      const ring = c && live.rings.get(ringKey(c));
      const stamp = c && `${ringKey(c)}|${windowMs}|${q.dataUpdatedAt}`;
      if (!q.data || !ring || seeded.current.has(stamp)) return;
      seeded.current.add(stamp);
      const r = q.data;
      ring.seed(r.bucket_ms > 0 ? r.t.map((t) => t + r.bucket_ms / 2) : r.t, r.avg, r.bucket_ms > 0);
      live.touch();
    });
  }, [seedStamp, shownKey]);

  // The window slides once a second (frozen while paused), and on every batched redraw.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (paused) return;
    setNow(Date.now());
    const id = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(id);
  }, [paused]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` says when the rings changed.
  const chart = useMemo(() => {
    let newest = now;
    for (const c of shown) {
      const r = live.rings.get(ringKey(c));
      if (r?.size) newest = Math.max(newest, r.t[r.size - 1]);
    }
    const from = newest - windowMs;
    // Never more points per curve than twice the plot's pixels (min and max of each slice).
    const cols = shown.map((c) => {
      const w = live.rings.get(ringKey(c))?.since(from) ?? { t: [], v: [] };
      const th = thinForChart(w.t, w.v, Math.max(200, 2 * width));
      return { t: th.t, min: th.v, max: th.v, avg: th.v, bucket_ms: 0 };
    });
    const { x, ys } = joinCurves(cols);
    return {
      x,
      range: [from, newest + AHEAD_MS / 2] as [number, number],
      series: shown.map((c, i) => ({ label: c.name, values: ys[i], color: CURVE_COLORS[i % CURVE_COLORS.length] })),
    };
  }, [live.version, now, windowMs, width, shownKey]);

  /** The newest decoded sample; a bucket mean from the seed until one arrives (marked ≈). */
  const lastValue = (c: CurveEntry) => {
    if (!shown.includes(c)) return null;
    const ring = live.rings.get(ringKey(c));
    const value = ring?.lastValue();
    return ring && value !== null && value !== undefined ? { value, approx: ring.approx } : null;
  };

  return (
    <Flex vertical gap={12}>
      <Flex gap={8} wrap align="center">
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setAdding(true)}
          disabled={curves.length >= MAX_SAVED_CURVES}
          data-testid="curve-add"
        >
          {t('dbc.live.add')}
        </Button>
        <Button
          icon={paused ? <PlayCircleOutlined /> : <PauseCircleOutlined />}
          onClick={() => setPaused((p) => !p)}
          data-testid="curve-pause"
        >
          {paused ? t('dbc.live.resume') : t('dbc.live.pause')}
        </Button>
        <Segmented
          value={windowMs}
          onChange={(v) => setWindowMs(Number(v))}
          options={WINDOWS.map((w) => ({
            value: w,
            label: w < 60_000 ? t('dbc.live.seconds', { n: w / 1000 }) : t('dbc.live.minutes', { n: w / 60_000 }),
          }))}
        />
        {paused ? (
          <Badge status="warning" text={t('dbc.live.paused')} />
        ) : !shown.length ? null : live.connection === 'live' ? (
          <Badge status="processing" text={t('dbc.live.streaming')} data-testid="live-connection" />
        ) : (
          <Badge
            status={live.connection === 'closed' ? 'error' : 'default'}
            text={t(live.error ? 'dbc.live.refused' : live.connection === 'closed' ? 'dbc.live.reconnecting' : 'dbc.live.connecting')}
            data-testid="live-connection"
          />
        )}
        <Typography.Text type="secondary">
          {t('dbc.live.limits', { shown: shown.length, max: MAX_CURVES_SHOWN, saved: curves.length, savedMax: MAX_SAVED_CURVES })}
        </Typography.Text>
      </Flex>
      <CurveChart x={chart.x} series={chart.series} range={chart.range} onWidth={setWidth} testId="live-curve" />
      <Table<CurveEntry>
        size="small"
        rowKey="name"
        pagination={false}
        dataSource={curves}
        data-testid="curve-list"
        loading={saved.isPending}
        locale={{ emptyText: t('dbc.live.noCurves') }}
        columns={[
          {
            key: 'shown',
            width: 48,
            render: (_v, c) => (
              <Checkbox
                checked={c.shown}
                aria-label={c.name}
                onChange={(e) => {
                  const r = toggleCurve(curves, c.name, e.target.checked);
                  if (r.refused) void message.warning(t('dbc.live.maxShown', { max: MAX_CURVES_SHOWN }));
                  else persist.mutate(r.list);
                }}
              />
            ),
          },
          {
            key: 'name',
            title: t('dbc.live.name'),
            render: (_v, c) => {
              const i = shown.indexOf(c);
              return (
                <span>
                  {i >= 0 && <span className="lh-curve__swatch" style={{ background: CURVE_COLORS[i % CURVE_COLORS.length] }} />}
                  {c.name}
                </span>
              );
            },
          },
          { key: 'signal', title: t('dbc.live.signal'), render: (_v, c) => <span className="lh-mono">{c.signal}</span> },
          { key: 'channel', title: t('dbc.parsing.channel'), render: (_v, c) => `CAN${c.channel}` },
          {
            key: 'value',
            title: t('dbc.live.value'),
            align: 'right',
            render: (_v, c) => {
              const v = lastValue(c);
              return (
                <span className="lh-mono" data-testid="live-value" title={v?.approx ? t('dbc.live.approx') : undefined}>
                  {v?.approx ? '≈ ' : ''}
                  {formatNumber(v?.value, lang)}
                </span>
              );
            },
          },
          {
            key: 'actions',
            width: 60,
            render: (_v, c) => (
              <Button
                type="text"
                size="small"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('dbc.action.delete')}
                onClick={() => persist.mutate(curves.filter((x) => x.name !== c.name))}
              />
            ),
          },
        ]}
      />
      <AddCurveDialog
        open={adding}
        options={options}
        onClose={() => setAdding(false)}
        onAdd={(name, signal) => {
          const r = addCurve(curves, { name, signal, channel });
          if (r.problem) return t(r.problem === 'full' ? 'dbc.live.full' : 'dbc.live.duplicate', { max: MAX_SAVED_CURVES });
          persist.mutate(r.list);
          setAdding(false);
          return null;
        }}
      />
    </Flex>
  );
}

function AddCurveDialog({
  open,
  options,
  onClose,
  onAdd,
}: {
  open: boolean;
  options: SignalOption[];
  onClose: () => void;
  /** Returns a problem text, or null when added. */
  onAdd: (name: string, signal: string) => string | null;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string; signal: string[] }>();
  const nameMsg = { required: t('dbc.live.nameRequired'), length: t('dbc.live.nameLength', { max: CURVE_NAME_MAX }), pattern: '' };
  return (
    <Modal
      open={open}
      title={t('dbc.live.addTitle')}
      okText={t('common.action.ok')}
      cancelText={t('common.action.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form
        form={form}
        name="curve-add"
        layout="vertical"
        preserve={false}
        onFinish={(v) => {
          const problem = onAdd(v.name.trim(), v.signal[0]);
          if (problem) form.setFields([{ name: 'name', errors: [problem] }]);
        }}
      >
        <Form.Item
          name="signal"
          label={t('dbc.live.signal')}
          rules={[{ required: true, message: t('dbc.signals.pickOne') }]}
          getValueFromEvent={(v: string[]) => {
            // The signal's name is offered as the curve name while the user has typed none.
            if (!form.getFieldValue('name') && v[0]) form.setFieldValue('name', v[0].split('.').pop()?.slice(0, CURVE_NAME_MAX));
            return v;
          }}
        >
          <SignalSelect options={options} multiple={false} testId="curve-signal" />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('dbc.live.name')}
          rules={[
            {
              validator: (_r, v: string | undefined) => {
                const p = curveNameProblem(v ?? '');
                return p ? Promise.reject(new Error(nameMsg[p])) : Promise.resolve();
              },
            },
          ]}
        >
          <Input maxLength={CURVE_NAME_MAX} showCount data-testid="curve-name" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
