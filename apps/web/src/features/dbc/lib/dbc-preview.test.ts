import { parseDbc } from '@loggerhead/can';
import { describe, expect, it } from 'vitest';
import { readDbcPreview } from './dbc-preview.ts';

const enc = (s: string) => new TextEncoder().encode(s);

describe('readDbcPreview', () => {
  it('lists the messages and signals of a valid file', () => {
    const text = [
      'VERSION ""',
      'BU_: ECU',
      'BO_ 256 Engine: 8 ECU',
      ' SG_ Speed : 0|16@1+ (0.1,0) [0|6553.5] "km/h" Vector__XXX',
      ' SG_ Temp : 16|8@1- (1,-40) [-40|215] "degC" Vector__XXX',
      '',
    ].join('\n');
    const p = readDbcPreview(enc(text), parseDbc);
    expect(p.problem).toBeNull();
    expect(p.messages).toHaveLength(1);
    expect(p.messages[0]).toMatchObject({ id: 256, name: 'Engine', length: 8 });
    expect(p.messages[0].signals.map((s) => [s.name, s.unit, s.factor])).toEqual([
      ['Speed', 'km/h', 0.1],
      ['Temp', 'degC', 1],
    ]);
  });
  it('names the line of a broken statement', () => {
    const text = ['VERSION ""', 'BU_: ECU', 'BO_ 256 Engine: 8 ECU', ' SG_ Speed : 0|16@1+ (0.1,0) [0|6553.5 "km/h" Vector__XXX', ''].join(
      '\n',
    );
    const p = readDbcPreview(enc(text), parseDbc);
    // The closing bracket of the range is missing: the parser stops at column 40 of line 4.
    expect(p.problem).toMatchObject({ line: 4, col: 40 });
    expect(p.messages).toEqual([]);
  });
});
