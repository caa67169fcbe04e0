import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { createTestApp, loginAdmin, type TestApp } from './helper.ts';
import { tarGz } from './web-bundle.fixtures.ts';

/** A multipart form of these parts, in this order (a `file` part is the bundle). */
function form(parts: [name: string, value: string | Buffer][]) {
  const boundary = '----loggerheadsigned';
  const chunks: Buffer[] = [];
  for (const [name, value] of parts) {
    const file = name === 'file' ? '; filename="console.tar.gz"\r\nContent-Type: application/gzip' : '';
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file}\r\n\r\n`),
      Buffer.from(value),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/**
 * WEB_BUNDLE_PUBLIC_KEY (decision 0206): only bundles signed with the matching Ed25519 private key
 * are taken, signed with the openssl commands of docs/web-deploy.md.
 */
describe('signed console bundles (WEB_BUNDLE_PUBLIC_KEY)', () => {
  let t: TestApp;
  let admin: string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-sign-'));
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  /** The signature of a file, as docs/web-deploy.md makes it, in base64. */
  const sign = (file: string, key = 'signing.pem') => {
    openssl('pkeyutl', '-sign', '-inkey', key, '-rawin', '-in', file, '-out', `${file}.sig`);
    return fs.readFileSync(path.join(dir, `${file}.sig`)).toString('base64');
  };
  const upload = (version: string, parts: [string, string | Buffer][]) => {
    const m = form(parts);
    return t.app.inject({
      method: 'POST',
      url: `/v1/out-web/deploy/web/save?version=${version}`,
      payload: m.payload,
      headers: { ...m.headers, authorization: admin },
    });
  };

  beforeAll(async () => {
    openssl('genpkey', '-algorithm', 'ed25519', '-out', 'signing.pem');
    openssl('pkey', '-in', 'signing.pem', '-pubout', '-out', 'signing.pub.pem');
    openssl('genpkey', '-algorithm', 'ed25519', '-out', 'other.pem');
    const config = loadConfig({ WEB_BUNDLE_PUBLIC_KEY: 'signing.pub.pem' }, dir);
    t = await createTestApp({ webBundlePublicKey: config.webBundlePublicKey });
    admin = await loginAdmin(t.app);
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads the key as a PEM or the path of one, and refuses what is no Ed25519 public key', () => {
    const pem = fs.readFileSync(path.join(dir, 'signing.pub.pem'), 'utf8');
    expect(loadConfig({ WEB_BUNDLE_PUBLIC_KEY: pem.replace(/\n/g, '\\n') }, dir).webBundlePublicKey?.asymmetricKeyType).toBe('ed25519');
    expect(loadConfig({}, dir).webBundlePublicKey).toBeNull();
    openssl('genpkey', '-algorithm', 'rsa', '-pkeyopt', 'rsa_keygen_bits:1024', '-out', 'rsa.pem');
    openssl('pkey', '-in', 'rsa.pem', '-pubout', '-out', 'rsa.pub.pem');
    for (const bad of ['rsa.pub.pem', 'missing.pem', '-----BEGIN PUBLIC KEY-----\\nnot a key\\n-----END PUBLIC KEY-----']) {
      expect(() => loadConfig({ WEB_BUNDLE_PUBLIC_KEY: bad }, dir), bad).toThrow(ConfigError);
    }
  });

  it('takes a bundle only with a signature of its own bytes by the matching key, in either order', async () => {
    const bundle = tarGz({ 'index.html': '<title>signed</title>' });
    fs.writeFileSync(path.join(dir, 'console.tar.gz'), bundle);
    const good = sign('console.tar.gz');
    fs.writeFileSync(path.join(dir, 'other.tar.gz'), tarGz({ 'index.html': '<title>another</title>' }));
    const refusals: [string, [string, string | Buffer][]][] = [
      ['no signature', [['file', bundle]]],
      [
        'another bundle’s signature',
        [
          ['signature', sign('other.tar.gz')],
          ['file', bundle],
        ],
      ],
      [
        'another key’s signature',
        [
          ['signature', sign('console.tar.gz', 'other.pem')],
          ['file', bundle],
        ],
      ],
      [
        'not base64 of a signature',
        [
          ['signature', 'bm90IGEgc2lnbmF0dXJl'],
          ['file', bundle],
        ],
      ],
    ];
    for (const [what, parts] of refusals) {
      const res = await upload('1.0.0', parts);
      expect(res.statusCode, what).toBe(400);
      expect(res.json().code, what).toBe('web.bad-signature');
    }
    // Nothing was kept of the refused ones.
    const list = await t.app.inject({ method: 'GET', url: '/v1/out-web/deploy/web/list', headers: { authorization: admin } });
    expect(list.json()).toEqual([]);

    for (const [version, parts] of [
      [
        '1.0.0',
        [
          ['signature', good],
          ['file', bundle],
        ],
      ],
      [
        '1.0.1',
        [
          ['file', bundle],
          ['signature', good],
        ],
      ],
    ] as [string, [string, string | Buffer][]][]) {
      const ok = await upload(version, parts);
      expect(ok.statusCode, ok.body).toBe(201);
      expect(ok.json()).toMatchObject({ version, file_count: 1, released: false });
    }
  });
});
