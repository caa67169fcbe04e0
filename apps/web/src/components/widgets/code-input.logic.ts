/**
 * The six-box code input's rules (spec §5): digits only, a non-digit clears its box,
 * a paste spreads over the boxes, and the code is emitted only when every box is full.
 */
export interface BoxState {
  digits: string[];
  /** The box to focus next. */
  focus: number;
}

export function emptyBoxes(length: number): string[] {
  return Array.from({ length }, () => '');
}

export function boxesOf(value: string | undefined | null, length: number): string[] {
  const digits = emptyBoxes(length);
  [...(value ?? '').replace(/\D/g, '')].slice(0, length).forEach((d, i) => {
    digits[i] = d;
  });
  return digits;
}

/** What typing (or pasting) `raw` into box `index` does. */
export function typeInto(digits: readonly string[], index: number, raw: string): BoxState {
  const next = [...digits];
  const typed = raw.replace(/\D/g, '');
  if (typed.length === 0) {
    next[index] = '';
    return { digits: next, focus: index };
  }
  // A box already holding a digit receives the old digit plus the new one: keep the new.
  const incoming = raw.length === 2 && digits[index] && raw.startsWith(digits[index]) ? typed.slice(-1) : typed;
  let i = index;
  for (const d of incoming) {
    if (i >= next.length) break;
    next[i] = d;
    i++;
  }
  return { digits: next, focus: Math.min(i, next.length - 1) };
}

/** Backspace: clear this box, or when it is already empty, the one before. */
export function backspace(digits: readonly string[], index: number): BoxState {
  const next = [...digits];
  if (next[index]) {
    next[index] = '';
    return { digits: next, focus: index };
  }
  const prev = Math.max(index - 1, 0);
  next[prev] = '';
  return { digits: next, focus: prev };
}

/** The code once complete, else '' (an incomplete code is never emitted). */
export function completeCode(digits: readonly string[]): string {
  return digits.every((d) => /^\d$/.test(d)) ? digits.join('') : '';
}
