/**
 * "Remember password" keeps the credentials in a cookie (spec §2). The cookie is
 * limited to the /Login path and SameSite=Strict, so API calls never carry it.
 */
const NAME = 'lh_remember';
const PATH = '/Login';
const MAX_AGE = 30 * 24 * 3600;

export interface Remembered {
  username: string;
  password: string;
}

export function readRemembered(): Remembered | null {
  const raw = document.cookie
    .split('; ')
    .find((c) => c.startsWith(`${NAME}=`))
    ?.slice(NAME.length + 1);
  if (!raw) return null;
  try {
    const v = JSON.parse(decodeURIComponent(raw)) as Partial<Remembered>;
    return typeof v.username === 'string' && typeof v.password === 'string' ? { username: v.username, password: v.password } : null;
  } catch {
    return null;
  }
}

export function writeRemembered(v: Remembered | null): void {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser the console supports.
  document.cookie = v
    ? `${NAME}=${encodeURIComponent(JSON.stringify(v))}; Path=${PATH}; Max-Age=${MAX_AGE}; SameSite=Strict${secure}`
    : `${NAME}=; Path=${PATH}; Max-Age=0; SameSite=Strict${secure}`;
}
