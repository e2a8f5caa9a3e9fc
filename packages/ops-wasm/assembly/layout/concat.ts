// CONCATENATION of same-typed tensors along one axis, in bytes: for each of the `outer` slices before
// the axis, every input contributes one run of (its axis size x the inner size x element size) bytes,
// moved with memory.copy. src/kernels/concatenation.ts writes the parameter block and, at each invoke,
// the inputs' offsets (they are fixed once the arena is planned, but known only then).

// Parameter block CC (scripts/abi.mjs): outer, input count, then per input its run in bytes; the input
// offsets are in the table at `ptrs`.
import { CC_INPUTS, CC_OUTER, CC_RUN } from '../generated/abi';

export function concat_bytes(p: usize, ptrs: usize, output: usize): void {
  const outer = load<i32>(p, CC_OUTER);
  const n = load<i32>(p, CC_INPUTS);
  let o = output;
  for (let k = 0; k < outer; k++) {
    for (let i = 0; i < n; i++) {
      const run = <usize>load<i32>(p + <usize>(i << 2), CC_RUN);
      memory.copy(o, <usize>load<u32>(ptrs + <usize>(i << 2)) + <usize>k * run, run);
      o += run;
    }
  }
}
