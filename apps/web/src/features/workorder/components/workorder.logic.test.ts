import { describe, expect, it } from 'vitest';
import { canApply, moveLabelKey, movesFor } from './workorder.logic.ts';

describe('work order moves', () => {
  it('offers the handler take or refuse on a pending order, the initiator only abandon', () => {
    expect(movesFor('pending', 'handler').sort()).toEqual(['process', 'refuse']);
    expect(movesFor('pending', 'initiator')).toEqual(['abandon']);
  });

  it('lets the initiator reopen or confirm an answered order, and the handler nothing', () => {
    expect(movesFor('wait', 'initiator').sort()).toEqual(['done', 'process']);
    expect(movesFor('wait', 'handler')).toEqual([]);
  });

  it('offers nothing on a final order', () => {
    for (const s of ['done', 'abandon', 'refuse'] as const) {
      expect(movesFor(s, 'handler')).toEqual([]);
      expect(movesFor(s, 'initiator')).toEqual([]);
    }
  });

  it('names a move by where it comes from', () => {
    expect(moveLabelKey('pending', 'process')).toBe('workorder.move.take');
    expect(moveLabelKey('wait', 'process')).toBe('workorder.move.reopen');
    expect(moveLabelKey('wait', 'done')).toBe('workorder.move.confirm');
    expect(moveLabelKey('process', 'done')).toBe('workorder.move.finish');
  });

  it('applies only unapplied capacity requests, on the way to wait or done', () => {
    expect(canApply({ feedback_type: 'capacity', applied: false }, 'wait')).toBe(true);
    expect(canApply({ feedback_type: 'capacity', applied: false }, 'refuse')).toBe(false);
    expect(canApply({ feedback_type: 'capacity', applied: true }, 'done')).toBe(false);
    expect(canApply({ feedback_type: 'fault', applied: false }, 'done')).toBe(false);
  });
});
