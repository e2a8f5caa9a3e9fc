// Per-thread scratch slots: the pool's threads each write their own slot (im2col rows, tap pointers,
// partial blocks) while they run one node. src/kernels/parallel.ts lays the slots out (threadSlots:
// a page free before, between and after them, so the cores never trade cache lines they write) and
// passes thread 0's slot as the base; both sides take THREAD_GAP_BYTES from the generated ABI.
import { THREAD_GAP_BYTES } from './generated/abi';

/** Bytes from one thread's slot of `bytes` to the next: whole cache lines plus THREAD_GAP_BYTES. */
@inline export function threadSlotBytes(bytes: usize): usize {
  return ((bytes + 63) & ~(<usize>63)) + <usize>THREAD_GAP_BYTES;
}

/** Thread `tid`'s slot of `bytes` in the slots whose first one is at `base`. */
@inline export function threadSlot(base: usize, tid: i32, bytes: usize): usize {
  return base + <usize>tid * threadSlotBytes(bytes);
}
