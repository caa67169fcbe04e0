import type { LoginResponse } from '@loggerhead/contract/schemas/session.ts';
import type { Credentials } from './server.ts';

export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    super(`${what} answered ${status}: ${typeof body === 'string' ? body : JSON.stringify(body)}`);
  }
}

/**
 * Seeds and inspects through the server's public API (never the database), the way
 * the console does: `/v1` paths, bearer token.
 */
export class Api {
  token: string | null = null;
  session: LoginResponse | null = null;

  constructor(readonly baseURL: string) {}

  /** Logs in with a password (spec §3 login, type 1) and keeps the token for later calls. */
  async login(creds: Credentials): Promise<LoginResponse> {
    const res = await this.call<LoginResponse>('POST', '/control/sessions', {
      username: creds.username,
      password: creds.password,
      type: 1,
    });
    this.token = res.token;
    this.session = res;
    return res;
  }

  get<T>(path: string): Promise<T> {
    return this.call<T>('GET', path);
  }
  post<T>(path: string, body?: unknown): Promise<T> {
    return this.call<T>('POST', path, body);
  }
  put<T>(path: string, body?: unknown): Promise<T> {
    return this.call<T>('PUT', path, body);
  }
  delete<T>(path: string): Promise<T> {
    return this.call<T>('DELETE', path);
  }

  /** The status of a call without throwing, e.g. to see whether a route exists yet. */
  async status(method: string, path: string, body?: unknown): Promise<number> {
    return (await this.raw(method, path, body)).status;
  }

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.raw(method, path, body);
    const text = await res.text();
    let data: unknown = text;
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {}
    if (!res.ok) throw new ApiCallError(res.status, data, `${method} ${path}`);
    return data as T;
  }

  private raw(method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${this.baseURL}/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  }
}
