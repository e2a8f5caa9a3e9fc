/**
 * The layout of per-thread scratch slots (parallel.ts's threadSlots, assembly/thread-slot.ts's
 * threadSlot): with several threads no two slots, and no slot and the memory beside the buffer, share
 * a 4 KiB page wherever the arena puts the buffer; with one thread the buffer is the slot.
 */
import { describe, expect, it } from 'vitest';
import { THREAD_GAP_BYTES } from '../generated/abi.js';
import { threadSlotBytes, threadSlots } from './parallel.js';

const page = (x: number) => Math.floor(x / 4096);

describe('threadSlots', () => {
  it('is the slot itself on one thread', () => {
    for (const bytes of [0, 1, 64, 100, 5000]) expect(threadSlots(bytes, 1)).toEqual({ lead: 0, bytes });
  });

  it('keeps every slot on pages of its own, and off the pages of whatever lies beside the buffer', () => {
    expect(THREAD_GAP_BYTES).toBeGreaterThanOrEqual(4096);
    for (const bytes of [1, 63, 64, 65, 704, 2560, 4096, 9999]) {
      for (let threads = 2; threads <= 5; threads++) {
        const { lead, bytes: total } = threadSlots(bytes, threads);
        const stride = threadSlotBytes(bytes);
        expect(stride % 64).toBe(0);
        for (const base of [0, 16, 48, 4080, 4096 + 32, 123456]) {
          // [start, end) of every slot, with the buffer's neighbours as slots of their own before and after it
          const ranges: [number, number][] = [[base - 1, base]];
          for (let k = 0; k < threads; k++) ranges.push([base + lead + k * stride, base + lead + k * stride + bytes]);
          ranges.push([base + total, base + total + 1]);
          expect(ranges[threads]![1]).toBeLessThanOrEqual(base + total);
          for (let i = 1; i < ranges.length; i++) expect(page(ranges[i - 1]![1] - 1)).toBeLessThan(page(ranges[i]![0]));
        }
      }
    }
  });
});
