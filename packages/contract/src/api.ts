/**
 * Base path of the API. Spec §7: `/api` when the console runs on localhost
 * (the development proxy), `/v1` otherwise. The server answers on both.
 */
export function apiBase(hostname: string): '/api' | '/v1' {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]' ? '/api' : '/v1';
}

/** Default request time-outs of spec §7 (ms). */
export const Timeouts = {
  default: 30_000,
  fallback: 10_000,
  usage: 120_000,
  recallList: 100_000,
  config: 10_000,
} as const;
