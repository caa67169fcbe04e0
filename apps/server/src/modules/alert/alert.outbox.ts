import type { RawSql } from '../../db/client.ts';
import type { Channel, OutgoingMessage, Transport } from '../../notify/notifier.ts';
import type { Clock } from '../../rules/throttle.ts';
import { outboxRepository } from './outbox.repository.ts';

export interface OutboxOptions {
  raw: RawSql;
  transports: Partial<Record<Channel, Transport>>;
  clock: Clock;
  log: { warn: (o: object, m: string) => void; error: (o: object, m: string) => void };
  /** First retry after this long, doubling each time (default 30 s). */
  baseDelayMs?: number;
  /** Attempts before the message is marked failed for good (default 8: about two hours of retries). */
  maxAttempts?: number;
}

/** How long a claimed message is held by the copy sending it; after a crash another copy retries it. */
const LEASE_MS = 5 * 60_000;
const MAX_DELAY_MS = 60 * 60_000;

/**
 * Alert notifications leave through an outbox: each one is first a push log row (`queued`), then
 * sent; a failure leaves it `queued` with the attempt count and the last error, and the retry loop
 * tries again with exponential back-off until it is `sent` or, after the last attempt, `failed`.
 * Nothing is dropped silently: the push log shows every state. With no transport configured for a
 * channel the message is `logged` (nothing leaves the machine), as the notifier does.
 */
export function createOutbox(opts: OutboxOptions) {
  const { raw, transports, clock, log } = opts;
  const repo = outboxRepository(raw);
  const base = opts.baseDelayMs ?? 30_000;
  const maxAttempts = opts.maxAttempts ?? 8;
  const inflight = new Set<Promise<unknown>>();
  let closed = false;

  const track = <T>(p: Promise<T>): Promise<T> => {
    inflight.add(p);
    p.finally(() => inflight.delete(p)).catch(() => {});
    return p;
  };

  /** Sends one queued message if this copy can claim it. */
  async function attempt(id: string): Promise<'sent' | 'queued' | 'failed' | 'logged' | 'skipped'> {
    const now = clock.now();
    if (!(await repo.claim(id, new Date(now), new Date(now + LEASE_MS)))) return 'skipped';
    const m = await repo.message(id);
    if (!m) return 'skipped';
    const transport = transports[m.channel];
    if (!transport) {
      await repo.markLogged(id);
      return 'logged';
    }
    const attempts = Number(m.attempts) + 1;
    const msg: OutgoingMessage = {
      channel: m.channel,
      destination: m.destination,
      purpose: m.purpose,
      subject: m.subject ?? undefined,
      text: m.text,
      tenantId: m.tenant_id,
    };
    try {
      await transport.send(msg);
    } catch (e) {
      // Provider errors can echo the request; keep a short message only.
      const error = String((e as Error)?.message ?? e).slice(0, 300);
      if (attempts >= maxAttempts) {
        await repo.markFailed(id, attempts, error);
        log.error({ pushLogId: id, channel: m.channel, attempts }, 'alert notification failed for good');
        return 'failed';
      }
      const delay = Math.min(MAX_DELAY_MS, base * 2 ** (attempts - 1));
      await repo.retryAt(id, attempts, error, new Date(clock.now() + delay));
      log.warn({ pushLogId: id, channel: m.channel, attempts, retryInMs: delay }, 'alert notification failed, will retry');
      return 'queued';
    }
    await repo.markSent(id, attempts, new Date(clock.now()));
    return 'sent';
  }

  async function runDue(): Promise<number> {
    const ids = await repo.due(new Date(clock.now()));
    let n = 0;
    for (const pushLogId of ids) {
      if (closed) break;
      await track(attempt(pushLogId)).catch((err) => log.error({ err }, 'outbox attempt failed'));
      n++;
    }
    return n;
  }

  return {
    /** Records the message as queued and sends it now (in the background); resolves with the push log id. */
    async enqueue(msg: OutgoingMessage): Promise<string> {
      const now = new Date(clock.now());
      const id = await repo.enqueue(msg, now);
      if (!closed) void track(attempt(id)).catch((err) => log.error({ err, pushLogId: id }, 'outbox send failed'));
      return id;
    },
    /** Records a message that is not sent (e.g. over the package's SMS allowance) as failed, with the reason. */
    async refuse(msg: OutgoingMessage, reason: string): Promise<string> {
      return repo.refused(msg, reason, new Date(clock.now()));
    },
    attempt: (id: string) => track(attempt(id)),
    /** Sends every message whose retry time has come; returns how many were tried. */
    runDue,
    /** Resolves when no send is in progress. */
    async idle() {
      while (inflight.size) await Promise.allSettled([...inflight]);
    },
    async close() {
      closed = true;
      while (inflight.size) await Promise.allSettled([...inflight]);
      const seen = new Set<Transport>();
      for (const t of Object.values(transports)) {
        if (!t || seen.has(t)) continue;
        seen.add(t);
        await t.close?.();
      }
    },
  };
}
export type Outbox = ReturnType<typeof createOutbox>;
