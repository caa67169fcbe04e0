import type { TpsRequest, TpsResponse } from '@loggerhead/contract';

/** A message is billed once per started 4 KiB of payload. */
export const TPS_UNIT_BYTES = 4096;
/** Recommended headroom: connections +20 % (reconnect overlap), TPS +50 % (bursts after outages). */
export const CONNECTION_HEADROOM = { num: 6, den: 5 } as const;
export const TPS_HEADROOM = { num: 3, den: 2 } as const;

/** ceil(a / b) for non-negative integers, exact (no floating-point rounding up of whole results). */
const ceilDiv = (a: number, b: number) => Math.ceil(a / b);

/**
 * The TPS estimator (billing tools_assessTps), docs/tps.md:
 * messages per second r = things_num / msg_interval; every device holds one
 * connection for both directions; every message is evaluated by the alert
 * rules once and forwarded by the push rules once per 4 KiB unit.
 */
export function assessTps(req: TpsRequest): TpsResponse {
  const { things_num: n, msg_interval: s } = req;
  const units = Math.max(1, ceilDiv(req.msg_size, TPS_UNIT_BYTES));
  return {
    minimum: {
      up_down_stream_connections: n,
      push_tps: ceilDiv(n * units, s),
      alert_tps: ceilDiv(n, s),
    },
    recommend: {
      up_down_stream_connections: ceilDiv(n * CONNECTION_HEADROOM.num, CONNECTION_HEADROOM.den),
      push_tps: ceilDiv(n * units * TPS_HEADROOM.num, s * TPS_HEADROOM.den),
      alert_tps: ceilDiv(n * TPS_HEADROOM.num, s * TPS_HEADROOM.den),
    },
  };
}
