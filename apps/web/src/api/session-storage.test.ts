// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { clearSession, getToken, hasTabSession, holdTabSession, setPermissionMap, storeSession } from './session-storage.ts';

afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe("a tab's own session (the monitor window)", () => {
  it('is read and written in this tab alone, and ending it leaves the console session of the other tabs', () => {
    storeSession({ token: 'console-a', ujwt: 'u', session_id: 's', username: 'a' });
    holdTabSession('monitor-b');
    expect(hasTabSession()).toBe(true);
    expect(getToken()).toBe('monitor-b');
    setPermissionMap({ 'things:things:query': true } as never);
    // Nothing of it reaches the store the other tabs read.
    expect(localStorage.getItem('token')).toBe('console-a');
    expect(localStorage.getItem('permissionMap')).toBeNull();
    // A 401 or logout in this tab ends only its own session.
    clearSession();
    expect(hasTabSession()).toBe(false);
    expect(localStorage.getItem('token')).toBe('console-a');
    expect(getToken()).toBe('console-a');
  });

  it('gives way to a login made in this tab, which is the console session again', () => {
    holdTabSession('monitor-b');
    storeSession({ token: 'console-c' });
    expect(hasTabSession()).toBe(false);
    expect(localStorage.getItem('token')).toBe('console-c');
    expect(sessionStorage.getItem('token')).toBeNull();
  });
});
