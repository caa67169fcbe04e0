import { LIVE_KIND_PERMISSION, type LiveKind, type LiveServerMessage, type LiveSubscribe } from '@loggerhead/contract';
import type { LoggerheadApp } from '../app.ts';
import { type Auth, assertPermission } from '../lib/auth.ts';
import { ApiError } from '../lib/errors.ts';

/** A message of one subscription, before the channel adds the subscription's `id`. */
export type LiveOut = LiveServerMessage extends infer M ? (M extends { id?: string } ? Omit<M, 'id'> : never) : never;

/** One subscription on a browser's live socket, as the kind that serves it sees it. */
export interface LiveSub {
  /** The socket's caller (its session is current while the subscription lives). */
  readonly auth: Auth;
  /** Sends a message of this subscription (the channel adds its `id`); nothing once the socket closed. */
  send(m: LiveOut): void;
  /** Bytes queued on the socket: a slow browser gets data dropped, never the server stalled. */
  buffered(): number;
}

/** A subscription that was allowed and started. */
export interface LiveOpened {
  /** Stops every push of the subscription (unsubscribed, replaced, refused later, socket closed). */
  stop(): void;
  /** Named in `subscribed` and in the error that ends the subscription. */
  thingsId?: string;
  tenantId?: string;
  /**
   * What the caller may read changed while the session goes on (`thingsId`: that device, null: any):
   * throws (ApiError) when the subscription may no longer read, and the channel ends it.
   */
  recheck?(thingsId: string | null): Promise<void>;
}

/**
 * One kind of subscription of the live channel. The channel has already checked the kind's
 * permission key (LIVE_KIND_PERMISSION) against the socket's caller; `open` checks the rest (tenant,
 * device) and throws an ApiError when refused.
 */
export type LiveKindHandler<K extends LiveKind> = (sub: LiveSub, msg: Extract<LiveSubscribe, { kind: K }>) => Promise<LiveOpened>;

/** The kinds of subscription the app serves, each added by the module that owns its data. */
export class LiveKinds {
  private readonly handlers = new Map<LiveKind, LiveKindHandler<LiveKind>>();

  add<K extends LiveKind>(kind: K, handler: LiveKindHandler<K>): void {
    if (this.handlers.has(kind)) throw new Error(`live kind ${kind} added twice`);
    this.handlers.set(kind, handler as unknown as LiveKindHandler<LiveKind>);
  }

  /** Starts a subscription, or throws an ApiError saying why it is refused. */
  async open(sub: LiveSub, msg: LiveSubscribe): Promise<LiveOpened> {
    const handler = this.handlers.get(msg.kind);
    if (!handler) throw new ApiError(404, 'http.404', `No live data of kind ${msg.kind}`);
    const key = LIVE_KIND_PERMISSION[msg.kind];
    // A kind on another tenant checks the key in that tenant (its handler scopes the caller first).
    if (key && !('tenant_id' in msg)) assertPermission(sub.auth, key);
    return handler(sub, msg as never);
  }
}

const kinds = new WeakMap<object, LiveKinds>();

/** The app's kinds of live subscription (made on first use). */
export function liveKinds(app: LoggerheadApp): LiveKinds {
  let k = kinds.get(app.ctx);
  if (!k) {
    k = new LiveKinds();
    kinds.set(app.ctx, k);
  }
  return k;
}

/** The error body of a refusal: the ApiError's code and text, or a 500 without details. */
export function refusalOf(e: unknown): { code: string; message: string } {
  const b = e instanceof ApiError ? [e.body].flat()[0] : { code: 'http.500', message: 'error' };
  return { code: b.code, message: b.message };
}
