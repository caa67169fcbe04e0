import { describe, expect, it } from 'vitest';
import { formToInput, newRuleForm, parseParams, signalConditionCount } from './trigger-rule.form.ts';
import { editRuleHref, parseFrameId, parseImportFile } from './trigger-rule.logic.ts';

describe('trigger rule helpers', () => {
  it('links to the editor with the device and, when editing, the rule', () => {
    expect(editRuleHref('d1')).toBe('/Container/EditTriggerRule?things_id=d1');
    expect(editRuleHref('d1', 'r 2')).toBe('/Container/EditTriggerRule?things_id=d1&id=r+2');
  });

  it('reads an export file or a bare list and refuses anything else', () => {
    expect(parseImportFile('{"version":1,"rules":[{"name":"a"}]}')).toEqual([{ name: 'a' }]);
    expect(parseImportFile('[{"name":"b"}]')).toEqual([{ name: 'b' }]);
    expect(parseImportFile('not json')).toBeNull();
    expect(parseImportFile('{"rules":[]}')).toBeNull();
    expect(parseImportFile('[1,2]')).toBeNull();
  });

  it('checks frame ids against the standard and extended ranges of spec §5', () => {
    expect(parseFrameId('7FF', 'standard')).toBe(0x7ff);
    expect(parseFrameId('0x800', 'standard')).toBeNull();
    expect(parseFrameId('0x800', 'extended')).toBe(0x800);
    expect(parseFrameId('1FFFFFFF', 'extended')).toBe(0x1fffffff);
    expect(parseFrameId('20000000', 'extended')).toBeNull();
    expect(parseFrameId('xyz', 'extended')).toBeNull();
  });
});

describe('rule form conversion', () => {
  it('sends minutes as seconds, frame ids as numbers and only the fields a condition uses', () => {
    const f = newRuleForm();
    f.name = 'Hot';
    f.frame_id = '1a0';
    f.notify_minutes = 45;
    f.conditions = [{ source: 'data', op: 'in', start_byte: 2, length: 2, byte_order: 'motorola', signed: true, min: 1, max: 9, value: 5 }];
    f.actions.command_name = 'reboot';
    f.actions.command_params = '{"delay":3}';
    const body = formToInput(f, 'dev');
    expect(body.frame_id).toBe(0x1a0);
    expect(body.frequency).toEqual({ notify_interval_s: 2700, command_interval_s: 60 });
    expect(body.conditions).toEqual([
      { source: 'data', op: 'in', start_byte: 2, length: 2, byte_order: 'motorola', signed: true, min: 1, max: 9 },
    ]);
    expect(body.actions?.command).toEqual({ operation_name: 'reboot', operation_params: { delay: 3 } });
    expect(body.fence_id).toBeNull();
  });

  it('drops CAN fields from a fence rule and counts signal conditions', () => {
    const f = { ...newRuleForm(), data_type: 'fence' as const, fence_id: 'f1', fence_rule: 'out' as const, frame_id: '7FF' };
    const body = formToInput(f, 'dev');
    expect(body.channel).toBeNull();
    expect(body.frame_id).toBeNull();
    expect(body.conditions).toEqual([]);
    expect(body.fence_rule).toBe('out');
    expect(
      signalConditionCount([
        { source: 'signal', op: 'change' },
        { source: 'data', op: 'change' },
        { source: 'signal', op: 'change' },
      ]),
    ).toBe(2);
  });

  it('reads command parameters only as a JSON object', () => {
    expect(parseParams('')).toEqual({});
    expect(parseParams('[1]')).toBeNull();
    expect(parseParams('{bad')).toBeNull();
  });
});
