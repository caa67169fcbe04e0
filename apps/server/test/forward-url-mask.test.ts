import { SECRET_MASK } from '@loggerhead/contract';
import { describe, expect, it } from 'vitest';
import { maskDestination, maskUrl, unmaskDestination, unmaskUrl } from '../src/modules/forward/forward.service.ts';

/**
 * A forward destination's URL is read back with its credentials masked: the password, every query
 * value and a path segment that looks like a token. An update that sends the masked URL back keeps
 * the stored credentials; a URL changed around them keeps the change.
 */
const M = SECRET_MASK;
const SLACK = 'https://hooks.slack.com/services/T0ABCDEF1/B0GHIJKL2/aZ3bY4cX5dW6eV7fU8gT9hS0';

describe('forward destination URLs: credentials masked on read, restored on update', () => {
  it('masks the password, every query value and token-like path segments, and nothing else', () => {
    expect(maskUrl('http://10.0.0.5:8080/ingest/fleet?access_token=Kd93xYz&format=json')).toBe(
      `http://10.0.0.5:8080/ingest/fleet?access_token=${M}&format=${M}`,
    );
    expect(maskUrl(SLACK)).toBe(`https://hooks.slack.com/services/T0ABCDEF1/B0GHIJKL2/${M}`);
    expect(maskUrl('amqp://fleet:s3cret@mq.example:5672/vhost')).toBe(`amqp://fleet:${M}@mq.example:5672/vhost`);
    // Long words without digits, or digits without letters, are names and ids, not tokens.
    expect(maskUrl('https://api.example.com/v1/telemetry-collection/20251127123456789')).toBe(
      'https://api.example.com/v1/telemetry-collection/20251127123456789',
    );
    expect(maskUrl('not a url')).toBe(M);
    // A percent-escape that is not valid still masks (and reads back) instead of failing the read.
    const odd = 'https://h.example/bad%zz/aZ3bY4cX5dW6eV7fU8gT9?k=%zz';
    expect(maskUrl(odd)).toBe(`https://h.example/bad%zz/${M}?k=${M}`);
    const back = new URL(unmaskUrl(maskUrl(odd), odd));
    expect(back.pathname).toBe(new URL(odd).pathname);
    expect(back.searchParams.get('k')).toBe(new URL(odd).searchParams.get('k'));
  });

  it('restores each masked part from the stored URL and keeps what the user changed', () => {
    const stored = `http://u:pw-123@h.example/a/${'x1'.repeat(10)}/b?key=K-1&key=K-2&v=3`;
    const shown = maskUrl(stored);
    for (const secret of ['pw-123', 'K-1', 'K-2', 'x1'.repeat(10)]) expect(shown).not.toContain(secret);
    expect(unmaskUrl(shown, stored)).toBe(stored);
    // Host changed, one query value typed anew, a new parameter: those stay, the masks are filled.
    const edited = shown.replace('h.example', 'h2.example').replace(`v=${M}`, 'v=4').concat('&extra=1');
    expect(unmaskUrl(edited, stored)).toBe(`http://u:pw-123@h2.example/a/${'x1'.repeat(10)}/b?key=K-1&key=K-2&v=4&extra=1`);
    // A masked query name the stored URL lacks stays as sent.
    expect(unmaskUrl(`http://h.example/?new=${M}`, 'http://h.example/?old=1')).toBe(`http://h.example/?new=${encodeURIComponent(M)}`);
  });

  it('a destination read and sent back unchanged is the stored one', () => {
    const stored = { kind: 'http', url: SLACK, secret: 'sign-1', headers: { 'x-token': 'tok-1' }, timeout_ms: 5000 };
    const shown = maskDestination(stored);
    expect(JSON.stringify(shown)).not.toMatch(/sign-1|tok-1|aZ3bY4cX5dW6eV7fU8gT9hS0/);
    expect(unmaskDestination(shown as never, stored)).toMatchObject(stored);
  });
});
