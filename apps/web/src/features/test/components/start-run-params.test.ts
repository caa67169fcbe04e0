import { describe, expect, it } from 'vitest';
import { parseParams } from './start-run-dialog.tsx';

describe("a start's parameters", () => {
  it('takes a JSON object (empty text as no parameters) and refuses anything else', () => {
    expect(parseParams('{"limit": 5, "unit": "km/h"}')).toEqual({ limit: 5, unit: 'km/h' });
    expect(parseParams('  ')).toEqual({});
    expect(parseParams('[1, 2]')).toBeNull();
    expect(parseParams('5')).toBeNull();
    expect(parseParams('null')).toBeNull();
    expect(parseParams('{"limit": ')).toBeNull();
  });
});
