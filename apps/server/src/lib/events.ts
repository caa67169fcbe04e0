import { EventEmitter } from 'node:events';
import type { UserMessage, WorkOrderStatus } from '@loggerhead/contract';

/**
 * In-process events between modules. Senders never wait on listeners and a
 * failing listener never fails the sender (a broken WebSocket push must not
 * undo a committed work-order change). Across several server copies these stay
 * local: the live hub of each copy pushes to its own browsers, and a copy that
 * did not emit an event learns of it on the browser's next poll.
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

  constructor(private readonly onError: (err: unknown, event: AppEventName) => void = () => {}) {
    // One listener per subscribing module (not per socket); a few dozen is plenty.
    this.emitter.setMaxListeners(50);
  }

  /** Subscribes; returns the function that unsubscribes. */
  on<K extends AppEventName>(event: K, listener: AppEventListener<K>): () => void {
    const wrapped = (payload: AppEvents[K]) => {
      try {
        const out = listener(payload);
        if (out instanceof Promise) out.catch((err) => this.onError(err, event));
      } catch (err) {
        this.onError(err, event);
      }
    };
    this.emitter.on(event, wrapped);
    return () => {
      this.emitter.off(event, wrapped);
    };
  }

  emit<K extends AppEventName>(event: K, payload: AppEvents[K]): void {
    this.emitter.emit(event, payload);
  }

  listenerCount(event: AppEventName): number {
    return this.emitter.listenerCount(event);
  }
}
