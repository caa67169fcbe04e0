import dns from 'node:dns';
import net from 'node:net';
import os from 'node:os';
import tls from 'node:tls';

/**
 * The egress policy (docs/security.md, docs/decisions/0203-egress-policy.md): every address a tenant
 * configures — forward destinations today, device sources and providers tomorrow — is refused when it
 * is, or resolves to, an address of the server's own networks, unless the operator's allow-list
 * (`EGRESS_ALLOW`) opens it. The check runs after name resolution when a destination is saved or
 * tested, and again at each connect (the `lookup` given to the socket), so a name that resolves to a
 * public address at the check and to loopback at the connect (DNS rebinding) is still refused.
 *
 * The one call for a new kind of endpoint: `await egress.check(urlOrHost)` before use, and its sockets
 * opened with `egress.connect({ host, port })` (or `lookup: egress.lookup` where a client takes one).
 */

/** Why an address is refused. */
export type AddressClass =
  | 'loopback'
  | 'link-local'
  | 'private'
  | 'shared'
  | 'unique-local'
  | 'unspecified'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'own';

const CLASS_TEXT: Record<AddressClass, string> = {
  loopback: 'a loopback address',
  'link-local': 'a link-local address (cloud metadata lives there)',
  private: 'a private-network address',
  shared: 'a carrier-grade NAT (shared) address',
  'unique-local': 'an IPv6 unique-local address',
  unspecified: 'the unspecified address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  reserved: 'a reserved address',
  own: "one of the server's own addresses",
};

/** The refusal a client library reports, or a route turns into `400 destination.address-refused`. */
export class EgressRefused extends Error {
  readonly code = 'destination.address-refused';
  constructor(
    readonly host: string,
    readonly address: string,
    readonly addressClass: AddressClass,
  ) {
    // A name's address is not told: the text reaches tenants, who would otherwise map the server's network by name.
    super(
      `${host === address ? `${address} is` : `${host} resolves to`} ${CLASS_TEXT[addressClass]}: refused by the egress policy (EGRESS_ALLOW opens it)`,
    );
    this.name = 'EgressRefused';
  }
}

/** An address as 16 bytes (IPv4 as IPv4-mapped IPv6); null when `ip` is no literal address. */
function bytesOf(ip: string): Uint8Array | null {
  const v = net.isIP(ip);
  if (v === 4) {
    const out = new Uint8Array(16);
    out[10] = 0xff;
    out[11] = 0xff;
    ip.split('.').forEach((p, i) => {
      out[12 + i] = Number(p);
    });
    return out;
  }
  if (v !== 6) return null;
  let s = ip.replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    s = `${s.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = s.includes('::') ? s.split('::') : [s, null];
  const words = (x: string) => (x ? x.split(':').map((w) => Number.parseInt(w, 16)) : []);
  const h = words(head);
  const r = rest === null ? [] : words(rest);
  const all = rest === null ? h : [...h, ...new Array(Math.max(0, 8 - h.length - r.length)).fill(0), ...r];
  if (all.length !== 8) return null;
  const out = new Uint8Array(16);
  all.forEach((w, i) => {
    out[2 * i] = w >> 8;
    out[2 * i + 1] = w & 0xff;
  });
  return out;
}

const isMapped = (b: Uint8Array) => b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;

/** A CIDR block: its first bytes and prefix length over the 16-byte form. */
interface Block {
  bytes: Uint8Array;
  bits: number;
}

function block(cidr: string): Block | null {
  const [ip, len] = cidr.split('/');
  const bytes = bytesOf(ip);
  if (!bytes) return null;
  const v4 = net.isIPv4(ip);
  const max = v4 ? 32 : 128;
  const n = len === undefined ? max : /^\d{1,3}$/.test(len) ? Number(len) : Number.NaN;
  if (!(n >= 0 && n <= max)) return null;
  return { bytes, bits: v4 ? 96 + n : n };
}

function inBlock(b: Uint8Array, k: Block): boolean {
  for (let i = 0; i < k.bits; i++) {
    const bit = 7 - (i % 8);
    if (((b[i >> 3] >> bit) & 1) !== ((k.bytes[i >> 3] >> bit) & 1)) return false;
  }
  return true;
}

const RANGES: [string, AddressClass][] = [
  ['0.0.0.0/32', 'unspecified'],
  ['0.0.0.0/8', 'reserved'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['10.0.0.0/8', 'private'],
  ['172.16.0.0/12', 'private'],
  ['192.168.0.0/16', 'private'],
  ['100.64.0.0/10', 'shared'],
  ['192.0.0.0/24', 'reserved'],
  ['192.0.2.0/24', 'reserved'],
  ['198.18.0.0/15', 'reserved'],
  ['198.51.100.0/24', 'reserved'],
  ['203.0.113.0/24', 'reserved'],
  ['224.0.0.0/4', 'multicast'],
  ['255.255.255.255/32', 'broadcast'],
  ['240.0.0.0/4', 'reserved'],
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['fe80::/10', 'link-local'],
  ['fc00::/7', 'unique-local'],
  ['fec0::/10', 'reserved'],
  ['ff00::/8', 'multicast'],
  ['2001:db8::/32', 'reserved'],
  ['100::/64', 'reserved'],
].map(([c, k]) => [c, k as AddressClass]);
const BLOCKS = RANGES.map(([c, k]) => ({ block: block(c) as Block, cls: k }));

/** The IPv4 address an IPv6 form carries (IPv4-mapped, IPv4-compatible, NAT64, 6to4), as bytes. */
function embeddedV4(b: Uint8Array): Uint8Array | null {
  const v4 = (a: number, c: number, d: number, e: number) => Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, a, c, d, e]);
  if (isMapped(b)) return null;
  // ::a.b.c.d (deprecated IPv4-compatible; ::1 and :: are classed as IPv6 first)
  if (b.slice(0, 12).every((x) => x === 0)) return v4(b[12], b[13], b[14], b[15]);
  // 64:ff9b::/96 (NAT64) and 64:ff9b:1::/48
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b) return v4(b[12], b[13], b[14], b[15]);
  // 2002::/16 (6to4): the IPv4 address in bytes 2–5
  if (b[0] === 0x20 && b[1] === 0x02) return v4(b[2], b[3], b[4], b[5]);
  return null;
}

function classOfBytes(b: Uint8Array): AddressClass | null {
  for (const { block: k, cls } of BLOCKS) if (inBlock(b, k)) return cls;
  const inner = embeddedV4(b);
  return inner ? classOfBytes(inner) : null;
}

/** The server's own interface addresses, in the 16-byte form's text. */
function ownAddresses(): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(os.networkInterfaces()))
    for (const a of list ?? []) {
      const b = bytesOf(a.address);
      if (b) out.add(Buffer.from(b).toString('hex'));
    }
  return out;
}

/**
 * The class an address is refused for, or null for an address the policy lets through. `own`: the
 * server's own addresses (its interfaces' addresses, public ones too).
 */
export function addressClass(ip: string, own: Set<string> = ownAddresses()): AddressClass | null {
  const b = bytesOf(ip);
  if (!b) return null;
  const cls = classOfBytes(b);
  if (cls) return cls;
  const key = Buffer.from(b).toString('hex');
  if (own.has(key)) return 'own';
  const inner = embeddedV4(b);
  if (inner && own.has(Buffer.from(inner).toString('hex'))) return 'own';
  return null;
}

/** The operator's allow-list (`EGRESS_ALLOW`): host names (a leading `.` takes a whole domain) and CIDR blocks. */
export interface EgressAllow {
  hosts: string[];
  blocks: Block[];
}

/** Parses `EGRESS_ALLOW` (comma-separated); throws a message naming the entry that is neither. */
export function parseEgressAllow(raw: string | undefined): EgressAllow {
  const out: EgressAllow = { hosts: [], blocks: [] };
  for (const e of (raw ?? '').split(',').map((s) => s.trim().toLowerCase())) {
    if (!e) continue;
    const unbracketed = e.replace(/^\[(.*)\](\/\d+)?$/, '$1$2');
    if (/^[\d.]+(\/.*)?$/.test(unbracketed) || unbracketed.includes(':')) {
      const k = block(unbracketed);
      if (!k) throw new Error(`"${e}" is not an address or CIDR block`);
      out.blocks.push(k);
    } else if (/^\.?([a-z0-9_]([a-z0-9_-]{0,62})?)(\.[a-z0-9_]([a-z0-9_-]{0,62})?)*\.?$/.test(e)) out.hosts.push(e.replace(/\.$/, ''));
    else throw new Error(`"${e}" is not a host name, an address or a CIDR block`);
  }
  return out;
}

export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolve: Resolve = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

export interface EgressOptions {
  allow?: EgressAllow;
  /** Name resolution (tests give their own); default `dns.lookup` with every address. */
  resolve?: Resolve;
  /** The server's own addresses; default its interfaces' addresses, read at each check. */
  own?: () => Set<string>;
}

/** A host as written in a URL (brackets off, lower case, no trailing dot). */
function bareHost(h: string): string {
  return h
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase()
    .replace(/\.$/, '');
}

/** The host of a URL, of `host:port`, or a bare host. */
export function hostOf(target: string | URL): string {
  if (target instanceof URL) return bareHost(target.hostname);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) return bareHost(new URL(target).hostname);
  const m = /^\[([^\]]+)\](?::\d+)?$/.exec(target) ?? /^([^:]+):\d+$/.exec(target);
  return bareHost(m ? m[1] : target);
}

export interface ConnectOptions {
  host: string;
  port: number;
  /** TLS: the options of `tls.connect` (servername defaults to a host name). */
  tls?: tls.ConnectionOptions | boolean;
  timeoutMs?: number;
}

export interface Egress {
  /**
   * Refuses (throws EgressRefused) a URL, `host:port` or host that is or resolves to an address of a
   * refused class; answers the addresses it resolved to. A name that does not resolve throws the
   * resolver's error (ENOTFOUND).
   */
  check(target: string | URL): Promise<string[]>;
  /** Like `check`, for a literal address only, without resolving (throws for a refused literal). */
  checkLiteral(host: string): void;
  /** A `dns.lookup` for sockets: resolves, then fails the connect with EgressRefused on a refused address. */
  lookup: net.LookupFunction;
  /** A TCP (or TLS) socket to host:port under the policy: a refused literal fails it, a name goes through `lookup`. */
  connect(o: ConnectOptions): net.Socket;
  /** Whether the operator's allow-list names this host. */
  hostAllowed(host: string): boolean;
}

export function createEgress(o: EgressOptions = {}): Egress {
  const allow = o.allow ?? { hosts: [], blocks: [] };
  const resolve = o.resolve ?? systemResolve;
  const own = o.own ?? ownAddresses;

  const hostAllowed = (host: string) => {
    const h = bareHost(host);
    return allow.hosts.some((a) => (a.startsWith('.') ? h.endsWith(a) || h === a.slice(1) : h === a));
  };

  /** The class an address is refused for, null when allowed (a listed block opens any class). */
  const refusedAs = (address: string): AddressClass | null => {
    const b = bytesOf(address);
    if (!b) return null;
    if (allow.blocks.some((k) => inBlock(b, k))) return null;
    const inner = isMapped(b) ? null : embeddedV4(b);
    if (inner && allow.blocks.some((k) => inBlock(inner, k))) return null;
    return addressClass(address, own());
  };

  const checkLiteral = (host: string) => {
    const h = bareHost(host);
    if (!net.isIP(h) || hostAllowed(h)) return;
    const cls = refusedAs(h);
    if (cls) throw new EgressRefused(h, h, cls);
  };

  async function check(target: string | URL): Promise<string[]> {
    const host = hostOf(target);
    if (net.isIP(host)) {
      checkLiteral(host);
      return [host];
    }
    const list = await resolve(host);
    if (hostAllowed(host)) return list.map((a) => a.address);
    for (const a of list) {
      const cls = refusedAs(a.address);
      if (cls) throw new EgressRefused(host, a.address, cls);
    }
    return list.map((a) => a.address);
  }

  const lookup = ((hostname: string, options: dns.LookupOptions, callback: (...a: unknown[]) => void) => {
    const cb = typeof options === 'function' ? (options as typeof callback) : callback;
    const opts: dns.LookupOptions = typeof options === 'object' && options ? options : {};
    resolve(hostname).then(
      (all) => {
        const list = opts.family === 4 || opts.family === 6 ? all.filter((a) => a.family === opts.family) : all;
        if (!list.length) {
          // As dns.lookup reports a name without an address of the family asked for.
          const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          err.code = 'ENOTFOUND';
          return cb(err);
        }
        if (!hostAllowed(hostname))
          for (const a of list) {
            const cls = refusedAs(a.address);
            if (cls) return cb(new EgressRefused(bareHost(hostname), a.address, cls));
          }
        if (opts.all) cb(null, list);
        else cb(null, list[0].address, list[0].family);
      },
      (e) => cb(e),
    );
  }) as unknown as net.LookupFunction;

  function connect(c: ConnectOptions): net.Socket {
    const host = bareHost(c.host);
    try {
      checkLiteral(host);
    } catch (e) {
      const s = new net.Socket();
      process.nextTick(() => s.destroy(e as Error));
      return s;
    }
    const base = { host, port: c.port, lookup, timeout: c.timeoutMs };
    if (!c.tls) return net.connect(base);
    const t = c.tls === true ? {} : c.tls;
    return tls.connect({ ...base, ...(net.isIP(host) ? {} : { servername: host }), ...t });
  }

  return { check, checkLiteral, lookup, connect, hostAllowed };
}
