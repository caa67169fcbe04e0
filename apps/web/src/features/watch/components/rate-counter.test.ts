import { describe, expect, it } from 'vitest';
import { RateCounter } from './rate-counter.ts';

describe('fleet frame rate', () => {
  it('turns frames of a period into frames per second, per device and in total', () => {
    const r = new RateCounter(1);
    r.add('a', 300);
    r.add('b', 100);
    r.add('a', 200);
    const { total, per } = r.tick(500);
    expect(per.get('a')).toBe(1000);
    expect(per.get('b')).toBe(200);
    expect(total).toBe(1200);
  });

  it('averages over the last ticks and forgets older ones', () => {
    const r = new RateCounter(2);
    r.add('a', 100);
    r.tick(1000);
    r.add('a', 300);
    expect(r.tick(1000).total).toBe(200);
    expect(r.tick(1000).total).toBe(150);
    expect(r.tick(1000).total).toBe(0);
  });

  it('drops devices that stopped sending', () => {
    const r = new RateCounter(1);
    r.add('a', 10);
    r.tick(1000);
    expect(r.tick(1000).per.has('a')).toBe(false);
  });
});
