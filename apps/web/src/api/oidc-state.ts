/**
 * A third-party login or link is bound to the browser tab that started it: before leaving for the
 * provider the tab keeps a random state here (sessionStorage), and the one-time code the return
 * leaves in the address is exchanged only together with it (docs/decisions/0207-links-never-replace-a-session.md).
 * A return this tab did not start finds no state, and is refused.
 */
const KEY = 'lh.oidcState';

/** A fresh state for a flow about to start, kept for the return (replacing any earlier one). */
export function newOidcState(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const state = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  try {
    globalThis.sessionStorage?.setItem(KEY, state);
  } catch {}
  return state;
}

/** The stored state, used once: it is removed as it is read. */
export function takeOidcState(): string | null {
  try {
    const state = globalThis.sessionStorage?.getItem(KEY) ?? null;
    globalThis.sessionStorage?.removeItem(KEY);
    return state;
  } catch {
    return null;
  }
}

/** The address without the one-time code, at once (nothing of it stays in the history). */
export function dropCodeFromAddress(): void {
  const url = new URL(globalThis.location.href);
  if (!url.searchParams.has('oidcCode')) return;
  url.searchParams.delete('oidcCode');
  globalThis.history.replaceState(globalThis.history.state, '', url.pathname + url.search + url.hash);
}
