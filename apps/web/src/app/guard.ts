import { type LoaderFunctionArgs, redirect } from 'react-router';
import { buildUrl } from '../api/client.ts';
import { queryClient } from '../api/query-client.ts';
import { holdTabSession, tokenClaims } from '../api/session-storage.ts';
import { isLang } from '../i18n/catalogue.ts';
import { changeLang, currentLang, loadFeatureMessages } from '../i18n/setup.ts';
import { globalConfigQuery } from '../session/session.queries.ts';
import { isSignedIn } from '../session/session.ts';

/** Routes a visitor without a token may open (spec §2). */
const PUBLIC = ['/login', '/register', '/forgetpassword', '/doc'];

/** The sign-in pages: they show only the shell's and their own texts, and load no feature's messages. */
const SIGN_IN = ['/login', '/register', '/forgetpassword'];

function isSignInPath(pathname: string): boolean {
  const p = pathname.toLowerCase().replace(/\/+$/, '') || '/';
  return SIGN_IN.includes(p);
}

export function isPublicPath(pathname: string): boolean {
  const p = pathname.toLowerCase().replace(/\/+$/, '') || '/';
  return PUBLIC.some((pub) => p === pub || p.startsWith(`${pub}/`));
}

/**
 * The route guard, run before every navigation (spec §2): load the global configuration
 * when it is missing (a failure is logged and ignored), then send a visitor with no
 * stored token to /Login. The monitor screen arrives in a new window with its token
 * and locale in the query: the token leaves the address at once, and this window alone holds it
 * (as a monitor session) — it never replaces the console's session of the other tabs.
 */
export async function guardLoader({ request }: LoaderFunctionArgs): Promise<Response | null> {
  const url = new URL(request.url);
  if (url.pathname.toLowerCase() === '/watch' && url.searchParams.has('token')) {
    const token = url.searchParams.get('token') ?? '';
    url.searchParams.delete('token');
    const clean = url.pathname + url.search;
    globalThis.history?.replaceState(globalThis.history.state, '', clean);
    const monitor = await monitorToken(token);
    if (monitor) holdTabSession(monitor);
    const locale = url.searchParams.get('locale');
    if (isLang(locale)) await changeLang(locale);
    return redirect(clean);
  }
  try {
    await queryClient.ensureQueryData(globalConfigQuery());
  } catch (e) {
    console.warn('global configuration not loaded', e);
  }
  if (!isSignedIn() && !isPublicPath(url.pathname)) return redirect('/Login');
  if (!isSignInPath(url.pathname)) await loadFeatureMessages(currentLang());
  return null;
}

/**
 * `SessionRoutes.monitor` of the contract, spelled out: importing the route table here would put the
 * control routes' schemas into every page's first load (the console's weight budget). guard.test.ts
 * holds the two together.
 */
export const MONITOR_SESSION = { method: 'POST', path: '/control/sessions/monitor' } as const;

/**
 * The monitor session a token from an address stands for: itself when it is one already (the
 * console's screen menu mints one), else one the server mints for it, read-only and short-lived,
 * so that the window holds nothing more. Null when the server refuses the token.
 */
async function monitorToken(token: string): Promise<string | null> {
  if (!token) return null;
  if (tokenClaims(token)?.mon) return token;
  try {
    const res = await fetch(buildUrl(MONITOR_SESSION.path), {
      method: MONITOR_SESSION.method,
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    });
    if (!res.ok) return null;
    const body = (await res.json()) as { token?: unknown };
    return typeof body.token === 'string' ? body.token : null;
  } catch {
    return null;
  }
}
