import { describe, expect, it } from 'vitest';
import { DEFAULT_RECOMPUTE_BUDGET, SCHEDULE_NAMES, ScheduleError, resolveSchedule } from './schedule-options.js';

describe('resolveSchedule', () => {
  it('spells out names and options', () => {
    expect(SCHEDULE_NAMES).toEqual(['normal', 'inplace', 'patch', 'patch+inplace']);
    expect(resolveSchedule(undefined)).toMatchObject({
      name: 'normal',
      patch: false,
      inPlace: false,
      recomputeBudget: DEFAULT_RECOMPUTE_BUDGET,
      stage: null,
      maxGrid: 8,
      inPlaceVariants: 'where-needed',
    });
    expect(resolveSchedule('inplace')).toMatchObject({ patch: false, inPlace: true });
    expect(resolveSchedule('patch+inplace')).toMatchObject({ patch: true, inPlace: true });
    expect(resolveSchedule({ name: 'patch', recomputeBudget: 0.5, maxGrid: 4 })).toMatchObject({
      patch: true,
      inPlace: false,
      recomputeBudget: 0.5,
      maxGrid: 4,
    });
    const stage = { firstNode: 1, lastNode: 3, rows: 2, cols: 3 };
    expect(resolveSchedule({ name: 'patch', stage }).stage).toEqual(stage);
  });

  it.each([
    [{ name: 'tiles' }, /unknown schedule "tiles" \(known: normal, inplace, patch, patch\+inplace\)/],
    [{ name: 'patch', recomputeBudget: -1 }, /recomputeBudget must be a non-negative number/],
    [{ name: 'patch', maxGrid: 0 }, /maxGrid must be an integer in \[1, 64\], got 0/],
    [{ name: 'inplace', inPlaceVariants: 'some' }, /inPlaceVariants must be where-needed or all, got some/],
    [{ name: 'inplace', stage: { firstNode: 0, lastNode: 1, rows: 2, cols: 2 } }, /a fixed stage needs a patch schedule/],
    [{ name: 'patch', stage: { firstNode: 3, lastNode: 1, rows: 2, cols: 2 } }, /stage.lastNode 1 is before stage.firstNode 3/],
    [{ name: 'patch', stage: { firstNode: 0, lastNode: 1, rows: 0, cols: 2 } }, /stage.rows must be a positive integer, got 0/],
  ])('refuses %j with a ScheduleError', (option, message) => {
    expect(() => resolveSchedule(option as never)).toThrow(ScheduleError);
    expect(() => resolveSchedule(option as never)).toThrow(message);
  });
});
