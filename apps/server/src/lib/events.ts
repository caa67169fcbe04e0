import { EventEmitter } from 'node:events';
import type { UserMessage, WorkOrderStatus } from '@loggerhead/contract';

/**
 * In-process events between modules. Senders never wait on listeners and a
 * failing listener never fails the sender (a broken WebSocket push must not
 * undo a committed work-order change).
 *
 * Two kinds of listeners: `on` (side effects: caches, e-mails, rows) hears only
 * events of this server copy; `onPush` (WebSocket pushes to browsers) also hears
 * the events of the other copies of the deployment, which the cluster fan-out
 * (live/cluster.ts) relays when the server runs on an external broker. An event
 * that has push listeners is relayed once, by the copy that emitted it.
 *
 * A module adds its own events by declaration merging from its folder
 * (`declare module '../../lib/events.ts' { interface AppEvents { … } }`),
 * so this file needs no edit.
 */
export interface AppEvents {
  /** A user message was stored for `userId`; `unread` is that user's unread count after it. */
  'message.created': { tenantId: string; userId: string; message: UserMessage; unread: number };
  /** Read states changed (mark read, mark all read, delete); the badge shows `unread`. */
  'message.updated': { tenantId: string; userId: string; unread: number };
  /** A work order was created (`from` null) or changed status. */
  'workorder.changed': { tenantId: string; workOrderId: string; from: WorkOrderStatus | null; to: WorkOrderStatus; byUserId: string };
  /** A tenant's package (quotas) changed. */
  'package.changed': { tenantId: string };
}

export type AppEventName = keyof AppEvents;
export type AppEventListener<K extends AppEventName> = (payload: AppEvents[K]) => void | Promise<void>;

export class EventBus {
  private readonly emitter = new EventEmitter();
  private readonly pushEmitter = new EventEmitter();
  private relay: (<K extends AppEventName>(event: K, payload: AppEvents[K]) => void) | null = null;

  constructor(private readonly onError: (err: unknown, event: AppEventName) => void = () => {}) {
    // One listener per subscribing module (not per socket); a few dozen is plenty.
    this.emitter.setMaxListeners(50);
    this.pushEmitter.setMaxListeners(50);
  }

  /** Subscribes to this copy's events; returns the function that unsubscribes. */
  on<K extends AppEventName>(event: K, listener: AppEventListener<K>): () => void {
    return this.listen(this.emitter, event, listener);
  }

  /**
   * Subscribes a push to browsers: hears this copy's events and those relayed from the other copies.
   * Only for listeners without side effects beyond the push. Returns the function that unsubscribes.
   */
  onPush<K extends AppEventName>(event: K, listener: AppEventListener<K>): () => void {
    return this.listen(this.pushEmitter, event, listener);
  }

  private listen<K extends AppEventName>(emitter: EventEmitter, event: K, listener: AppEventListener<K>): () => void {
    const wrapped = (payload: AppEvents[K]) => {
      try {
        const out = listener(payload);
        if (out instanceof Promise) out.catch((err) => this.onError(err, event));
      } catch (err) {
        this.onError(err, event);
      }
    };
    emitter.on(event, wrapped);
    return () => {
      emitter.off(event, wrapped);
    };
  }

  emit<K extends AppEventName>(event: K, payload: AppEvents[K]): void {
    this.emitter.emit(event, payload);
    if (this.pushEmitter.listenerCount(event)) {
      this.pushEmitter.emit(event, payload);
      this.relay?.(event, payload);
    }
  }

  /** An event relayed from another copy: only push listeners hear it, and it is not relayed again. */
  emitRemote<K extends AppEventName>(event: K, payload: AppEvents[K]): void {
    this.pushEmitter.emit(event, payload);
  }

  /** Whether browsers are pushed this event (its push listeners are set up when the routes are). */
  isPushed(event: string): event is AppEventName {
    return this.pushEmitter.listenerCount(event) > 0;
  }

  /** Where events with push listeners go after they are emitted here (the other copies); null: nowhere. */
  relayTo(relay: (<K extends AppEventName>(event: K, payload: AppEvents[K]) => void) | null) {
    this.relay = relay;
  }

  listenerCount(event: AppEventName): number {
    return this.emitter.listenerCount(event) + this.pushEmitter.listenerCount(event);
  }
}
