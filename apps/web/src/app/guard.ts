import { type LoaderFunctionArgs, redirect } from 'react-router';
import { queryClient } from '../api/query-client.ts';
import { storeSession } from '../api/session-storage.ts';
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
 * and locale in the query: keep them, then drop the token from the address.
 */
export async function guardLoader({ request }: LoaderFunctionArgs): Promise<Response | null> {
  const url = new URL(request.url);
  if (url.pathname.toLowerCase() === '/watch' && url.searchParams.has('token')) {
    storeSession({ token: url.searchParams.get('token') ?? '' });
    const locale = url.searchParams.get('locale');
    if (isLang(locale)) await changeLang(locale);
    url.searchParams.delete('token');
    return redirect(url.pathname + url.search);
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
