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
      throw new PlannerError(`planner ${plannerName} placed buffer ${i} (${describe(reqs[i]!)}) at offset ${o}, not a non-negative multiple of ${alignment}`);
    end = Math.max(end, o + reqs[i]!.size);
  }
  if (plan.headBytes < end)
    throw new PlannerError(`planner ${plannerName} reported a head of ${plan.headBytes} bytes but places buffers up to byte ${end}`);
  const partner = inPlacePartners(reqs);
  for (let i = 0; i < reqs.length; i++) {
    const a = reqs[i]!;
    const ao = plan.offsets[i]!;
    for (let j = i + 1; j < reqs.length; j++) {
      const b = reqs[j]!;
      if (a.lastUsed < b.firstUsed || b.lastUsed < a.firstUsed) continue;
      const bo = plan.offsets[j]!;
      if (ao === bo && (partner[i] === j || partner[j] === i)) continue;
      if (ao < bo + b.size && bo < ao + a.size && a.size > 0 && b.size > 0)
        throw new PlannerError(
          `planner ${plannerName}: buffers ${describe(a)} at [${ao}, ${ao + a.size}) and ${describe(b)} at [${bo}, ${bo + b.size}) ` +
            `overlap in memory while both are live (steps ${a.firstUsed}..${a.lastUsed} and ${b.firstUsed}..${b.lastUsed})`,
        );
    }
  }
}

function describe(r: BufferRequirement): string {
  return `${r.kind} ${r.id}${r.label ? ` "${r.label}"` : ''} (${r.size} bytes)`;
}
