import { expect } from 'vitest';

/**
 * A name on a map is text, never HTML: a device or fence named with markup shows the markup as
 * letters and adds nothing to the page (an injected `<style>` once turned the monitor screen red).
 */
export const PAYLOAD = '<style>*{background:red}</style><img src=x onerror="window.__ran=1"><b>bold</b>';

/** No element the payload would have made is anywhere on the page; its text is where it was shown. */
export function expectShownAsText(where: Element, text: string) {
  expect(document.querySelectorAll('style, img, b')).toHaveLength(0);
  expect(where.textContent).toContain(text);
}
