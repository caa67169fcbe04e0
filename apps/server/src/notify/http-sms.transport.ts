import type { Transport } from './notifier.ts';

const TIMEOUT_MS = 10_000;

/**
 * SMS and voice calls through an HTTP provider (`SMS_URL`): POST JSON
 * `{to, text, kind}` where kind is `sms` or `voice`; any 2xx is success.
 * Adapting a vendor API means putting a small gateway at that URL.
 */
export function httpSmsTransport(url: string): Transport {
  return {
    async send(msg) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ to: msg.destination, text: msg.text, kind: msg.channel === 'voice' ? 'voice' : 'sms' }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      // Drain the body so the connection is reused.
      await res.arrayBuffer().catch(() => {});
      if (!res.ok) throw new Error(`SMS provider answered ${res.status}`);
    },
  };
}
