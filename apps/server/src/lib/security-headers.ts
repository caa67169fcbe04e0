import zlib from 'node:zlib';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { App } from './fastify.ts';

/**
 * Security headers of every response (docs/security.md, docs/decisions/0100-security-headers.md):
 * helmet's set (nosniff, Referrer-Policy, frame options, cross-origin policies, HSTS behind https)
 * and one of three Content-Security-Policies, chosen by what answers:
 *
 * - the console (the built web app and its history fallback): scripts only from this origin,
 *   styles from this origin and inline (Ant Design writes its CSS-in-JS into `<style>` elements),
 *   images from this origin, `data:`, `blob:` and the configured map tiles, connections to this
 *   origin and its WebSockets;
 * - the API documentation under /v1/docs (Swagger UI): its own scripts, its own and inline styles;
 * - the API (everything else under /v1): nothing at all may load or run in a response of the API,
 *   so a file it serves (an uploaded avatar, an export) can never act as a page of this origin.
 */
export async function registerSecurityHeaders(app: App, config: Config): Promise<void> {
  const https = config.publicUrl.startsWith('https:');
  await app.register(helmet, {
    // Chosen per response below.
    contentSecurityPolicy: false,
    // Map tile servers ask for the page's origin; a full URL (with a monitor screen's token in its
    // query) never leaves this origin.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Only where the console is reached over https; without includeSubDomains, which would bind
    // other hosts of the domain this server knows nothing of.
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
  });

  const consoleCsp = consolePolicy(config);
  app.addHook('onRequest', async (req, reply) => {
    const kind = responseKind(req);
    if (kind === 'api') {
      reply.header('content-security-policy', API_POLICY);
      reply.header('x-frame-options', 'DENY');
    } else reply.header('content-security-policy', kind === 'docs' ? DOCS_POLICY : consoleCsp(req));
  });

  await app.register(compress, {
    encodings: ['br', 'gzip'],
    // Each piece written is flushed: the brotli encoder otherwise holds a streamed body (an export
    // written page by page) until its end; gzip passes it on every 16 KB by itself.
    brotliOptions: { flush: zlib.constants.BROTLI_OPERATION_FLUSH, params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    // Text compresses well; binaries are sent as they are (below).
    customTypes: COMPRESSIBLE,
  });
  // Files served as application/octet-stream (exports, recalled files, firmware and ECU images) keep
  // their Content-Length and byte ranges and are sent as stored: some are compressed already (BLF
  // logs, most images), and a device downloading its firmware wants the exact bytes. (The compress
  // plugin would take any type its MIME table calls compressible; it skips a request that says
  // `x-no-compression`.)
  app.addHook('onSend', async (req, reply, payload) => {
    const type = String(reply.getHeader('content-type') ?? '');
    if (BINARY.test(type)) req.headers = { 'x-no-compression': 'binary' };
    return payload;
  });
}

/** Text the console and the API send: HTML, CSS, JavaScript, JSON, CSV, SVG, YAML, XML. */
const COMPRESSIBLE =
  /^text\/(?!event-stream)|[+/]json(?:;|$)|[+/]xml(?:;|$)|^application\/(?:javascript|x-yaml|yaml)(?:;|$)|^image\/svg\+xml/;
const BINARY = /^application\/octet-stream/i;

type Kind = 'console' | 'docs' | 'api';

function responseKind(req: FastifyRequest): Kind {
  const route = req.routeOptions.url;
  if (route?.startsWith('/v1/docs')) return 'docs';
  // (after the /api → /v1 rewrite; a path that matched no route is judged by its text)
  const url = route ?? req.url;
  return url === '/v1' || url.startsWith('/v1/') || url.startsWith('/v1?') ? 'api' : 'console';
}

type Directives = Record<string, string[]>;

function serialise(d: Directives): string {
  return Object.entries(d)
    .map(([name, values]) => [name, ...values].join(' '))
    .join('; ');
}

const API_POLICY = serialise({
  'default-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
});

const DOCS_POLICY = serialise({
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'object-src': ["'none'"],
  'frame-ancestors': ["'self'"],
  'form-action': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  // Swagger UI adds <style> elements and style attributes from its script.
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
});

/** A header-safe host (name or address and port), or null. */
const HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;

/**
 * The console's policy for a request. `connect-src 'self'` covers this origin's WebSockets in
 * current browsers; the ws:/wss: origins of the host the browser asked for are named as well for
 * older ones.
 */
export function consolePolicy(config: Pick<Config, 'mapTileUrl' | 'publicUrl'>): (req: FastifyRequest) => string {
  const tiles = config.mapTileUrl ? [tileSource(config.mapTileUrl)] : [];
  const upgrade = config.publicUrl.startsWith('https:') ? '; upgrade-insecure-requests' : '';
  const cache = new Map<string, string>();
  return (req) => {
    const host = HOST.test(req.host) ? req.host : '';
    let policy = cache.get(host);
    if (policy === undefined) {
      policy =
        serialise({
          'default-src': ["'self'"],
          'base-uri': ["'self'"],
          'object-src': ["'none'"],
          'frame-ancestors': ["'self'"],
          'form-action': ["'self'"],
          'script-src': ["'self'"],
          'script-src-attr': ["'none'"],
          // Ant Design's CSS-in-JS adds <style> elements at run time, and rc-component's scroll lock
          // adds one without a nonce (docs/decisions/0100-security-headers.md).
          'style-src': ["'self'", "'unsafe-inline'"],
          // data: logos and icons, blob: previews of uploaded images, the map tiles.
          'img-src': ["'self'", 'data:', 'blob:', ...tiles],
          'font-src': ["'self'", 'data:'],
          'connect-src': ["'self'", ...(host ? [`ws://${host}`, `wss://${host}`] : [])],
          'worker-src': ["'self'", 'blob:'],
          'manifest-src': ["'self'"],
        }) + upgrade;
      if (cache.size < 100) cache.set(host, policy);
    }
    return policy;
  };
}

/**
 * The CSP source of a Leaflet tile URL template: its origin, a `{s}` sub-domain as a wildcard;
 * any other placeholder in the host widens it to the scheme.
 */
export function tileSource(template: string): string {
  const m = /^(https?):\/\/([^/?#]+)/i.exec(template);
  if (!m) return "'none'";
  const scheme = m[1].toLowerCase();
  const host = m[2].replace(/^\{s\}\./, '*.');
  return /[{}]/.test(host) ? `${scheme}:` : `${scheme}://${host}`;
}
