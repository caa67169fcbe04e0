import { describe, expect, it } from 'vitest';
import { EventBus } from './events.ts';

describe('EventBus', () => {
  const payload = { tenantId: 't', userId: 'u', unread: 3 };

  it('delivers to every listener until it unsubscribes', () => {
    const bus = new EventBus();
    const got: number[] = [];
    const off = bus.on('message.updated', (e) => {
      got.push(e.unread);
    });
    bus.emit('message.updated', payload);
    expect(bus.listenerCount('message.updated')).toBe(1);
    off();
    bus.emit('message.updated', { ...payload, unread: 4 });
    expect(got).toEqual([3]);
    expect(bus.listenerCount('message.updated')).toBe(0);
  });

  it('keeps a failing listener from failing the sender or the other listeners', async () => {
    const errors: [unknown, string][] = [];
    const bus = new EventBus((err, event) => errors.push([err, event]));
    const got: number[] = [];
    bus.on('message.updated', () => {
      throw new Error('socket gone');
    });
    bus.on('message.updated', async () => {
      throw new Error('async too');
    });
    bus.on('message.updated', (e) => {
      got.push(e.unread);
    });
    expect(() => bus.emit('message.updated', payload)).not.toThrow();
    await new Promise((r) => setImmediate(r));
    expect(got).toEqual([3]);
    expect(errors.map(([e, name]) => [(e as Error).message, name])).toEqual([
      ['socket gone', 'message.updated'],
      ['async too', 'message.updated'],
    ]);
  });

  it("relays events with push listeners once, and gives another copy's events to push listeners only", () => {
    const bus = new EventBus();
    const local: number[] = [];
    const pushed: number[] = [];
    const relayed: [string, unknown][] = [];
    bus.on('message.updated', (e) => {
      local.push(e.unread);
    });
    bus.onPush('message.updated', (e) => {
      pushed.push(e.unread);
    });
    bus.relayTo((event, p) => relayed.push([event, p]));
    bus.emit('message.updated', payload);
    // No push listener: stays in this copy.
    bus.emit('package.changed', { tenantId: 't' });
    bus.emitRemote('message.updated', { ...payload, unread: 5 });
    expect(local).toEqual([3]);
    expect(pushed).toEqual([3, 5]);
    expect(relayed).toEqual([['message.updated', payload]]);
    expect(bus.isPushed('message.updated')).toBe(true);
    expect(bus.isPushed('package.changed')).toBe(false);
    expect(bus.listenerCount('message.updated')).toBe(2);
  });
});
