import { inPlacePartners } from '../arena/in-place.js';
import { PlannerError } from '../errors.js';
import type { BufferRequirement, MemoryPlan } from './memory-planner.js';

/**
 * Checks a plan against its requirements: one offset per buffer, every offset a non-negative multiple of
 * `alignment`, `headBytes` covering every buffer, and no two buffers whose lifetimes overlap sharing a
 * byte, except an in-place pair (`inPlaceOf`, see arena/in-place.ts) placed at the very same offset.
 * Throws PlannerError naming the buffers, offsets, sizes and lifetimes at fault.
 */
export function validatePlan(plannerName: string, reqs: readonly BufferRequirement[], plan: MemoryPlan, alignment = 16): void {
  if (plan.offsets.length !== reqs.length)
    throw new PlannerError(`planner ${plannerName} returned ${plan.offsets.length} offsets for ${reqs.length} buffers`);
  let end = 0;
  for (let i = 0; i < reqs.length; i++) {
    const o = plan.offsets[i]!;
    if (!(o >= 0) || o % alignment !== 0)
      throw new PlannerError(
        `planner ${plannerName} placed buffer ${i} (${describe(reqs[i]!)}) at offset ${o}, not a non-negative multiple of ${alignment}`,
      );
    end = Math.max(end, o + reqs[i]!.size);
  }
  if (plan.headBytes < end)
    throw new PlannerError(`planner ${plannerName} reported a head of ${plan.headBytes} bytes but places buffers up to byte ${end}`);
  const overlap = findPlanOverlap(reqs, plan.offsets);
  if (overlap) {
    const [i, j] = overlap;
    const a = reqs[i]!;
    const b = reqs[j]!;
    const ao = plan.offsets[i]!;
    const bo = plan.offsets[j]!;
    throw new PlannerError(
      `planner ${plannerName}: buffers ${describe(a)} at [${ao}, ${ao + a.size}) and ${describe(b)} at [${bo}, ${bo + b.size}) ` +
        `overlap in memory while both are live (steps ${a.firstUsed}..${a.lastUsed} and ${b.firstUsed}..${b.lastUsed})`,
    );
  }
}

/**
 * The first pair `[i, j]` (i < j) of buffers live at a common step whose byte ranges intersect, or
 * undefined. Empty buffers never collide; an in-place pair (see `inPlacePartners`) at the same offset is
 * allowed. Sweeps buffers in offset order, so it is fast on large plans.
 */
export function findPlanOverlap(reqs: readonly BufferRequirement[], offsets: ArrayLike<number>): [number, number] | undefined {
  const partner = inPlacePartners(reqs);
  const byOffset: number[] = [];
  for (let i = 0; i < reqs.length; i++) if (reqs[i]!.size > 0) byOffset.push(i);
  byOffset.sort((a, b) => offsets[a]! - offsets[b]! || a - b);
  for (let x = 0; x < byOffset.length; x++) {
    const i = byOffset[x]!;
    const a = reqs[i]!;
    const end = offsets[i]! + a.size;
    for (let y = x + 1; y < byOffset.length; y++) {
      const j = byOffset[y]!;
      if (offsets[j]! >= end) break;
      const b = reqs[j]!;
      if (a.lastUsed < b.firstUsed || b.lastUsed < a.firstUsed) continue;
      if (offsets[i] === offsets[j] && (partner[i] === j || partner[j] === i)) continue;
      return i < j ? [i, j] : [j, i];
    }
  }
  return undefined;
}

function describe(r: BufferRequirement): string {
  return `${r.kind} ${r.id}${r.label ? ` "${r.label}"` : ''} (${r.size} bytes)`;
}
