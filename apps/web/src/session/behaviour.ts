import { BehaviourRoutes } from '@loggerhead/contract/routes/behaviour.ts';
import { type BehaviourEvent, MAX_BEHAVIOUR_EVENTS } from '@loggerhead/contract/schemas/behaviour.ts';
import { buildUrl } from '../api/client.ts';
import { getToken } from '../api/session-storage.ts';

/**
 * Behaviour tracking (spec §6): what the header is clicked for — the platform (`web`, this console),
 * the module (a menu entry or a header tool) and the action. Clicks wait here and go in one post
 * every few seconds, at 50, or when the page is left; the server adds the tenant and the user from
 * the session. A lost post is not retried and never troubles the user.
 */
export const BEHAVIOUR_FLUSH_MS = 10_000;
export const BEHAVIOUR_PLATFORM = 'web';

const queue: BehaviourEvent[] = [];
let timer: ReturnType<typeof setTimeout> | null = null;

/** Sends what is waiting (at most one post's worth; the rest on the next). */
export function flushBehaviour(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  const events = queue.splice(0, MAX_BEHAVIOUR_EVENTS);
  const token = getToken();
  if (!events.length || !token) return;
  // keepalive: the post outlives the page when it is sent on leaving it.
  void fetch(buildUrl(BehaviourRoutes.record.path), {
    method: 'POST',
    keepalive: true,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ events }),
  }).catch(() => undefined);
  if (queue.length) timer = setTimeout(flushBehaviour, BEHAVIOUR_FLUSH_MS);
}

/** Notes one header click. */
export function trackBehaviour(module: string, action = 'open'): void {
  queue.push({ platform: BEHAVIOUR_PLATFORM, module, action });
  if (queue.length >= MAX_BEHAVIOUR_EVENTS) flushBehaviour();
  else timer ??= setTimeout(flushBehaviour, BEHAVIOUR_FLUSH_MS);
}

if (typeof globalThis.addEventListener === 'function') globalThis.addEventListener('pagehide', flushBehaviour);
