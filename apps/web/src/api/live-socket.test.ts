import { describe, expect, it } from 'vitest';
import { liveSocketUrl } from './live-socket.ts';

describe('live socket address', () => {
  it('is the API base on this origin, as a WebSocket, with the token in the query', () => {
    // Outside a browser the client takes http://localhost, whose API base is /api (spec §7).
    expect(liveSocketUrl('/live', 'a b')).toBe('ws://localhost/api/live?token=a+b');
    expect(liveSocketUrl('/messages/live', 't')).toBe('ws://localhost/api/messages/live?token=t');
  });
});
