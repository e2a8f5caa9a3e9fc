/**
 * The arena backing: each interpreter's arena is the linear memory of its own instance of the kernels
 * module, so the kernels read and write tensors in place (no copy per invoke), and several interpreters
 * coexist, each with its memory. The memory is sized once, for the arena core asks for, and never grows
 * (its maximum equals its initial size): growing would detach the buffer every tensor view uses. With a
 * thread pool the memory is shared, and every worker instantiates the (threaded) module over it too.
 * Past the arena: READ_SLACK bytes, then, at the memory's end, the kernels' constant tables
 * (constant-tables.ts), written once here.
 */
import { KernelError, type ArenaBacking, type ArenaRegion, type Node } from '@micrort/core';
import type { WasmThreadPool } from './threads/pool.js';
import type { KernelExports } from './wasm-module.js';
import { CONSTANT_TABLES_BYTES, writeConstantTables } from './constant-tables.js';

const PAGE = 65536;
/** Bytes past the arena's end that the memory also has: kernels read up to 15 bytes past a tensor. */
export const READ_SLACK = 64;

/** The kernels instantiated over one arena, and the thread pool that shares it (with the instance id its workers know). */
export interface ArenaKernels {
  exports: KernelExports;
  pool: WasmThreadPool | null;
  instance: number;
}

/** Arena buffer → the kernels instantiated over it. */
const instances = new WeakMap<ArrayBufferLike, ArenaKernels>();

/** An ArenaBacking that instantiates `module` over a fresh memory per arena (shared, and attached to `pool`'s workers, with threads). */
export class WasmArenaBacking implements ArenaBacking {
  readonly name = '@micrort/ops-wasm linear memory';
  /** Arenas handed out so far (one per interpreter that allocated). */
  allocations = 0;

  constructor(
    private readonly module: WebAssembly.Module,
    readonly pool: WasmThreadPool | null = null,
  ) {}

  allocate(bytes: number): ArrayBuffer | SharedArrayBuffer {
    const pages = Math.max(1, Math.ceil((bytes + READ_SLACK + CONSTANT_TABLES_BYTES) / PAGE));
    const memory = new WebAssembly.Memory({ initial: pages, maximum: pages, shared: this.pool !== null });
    writeConstantTables(memory.buffer);
    const instance = new WebAssembly.Instance(this.module, { env: { memory } });
    const id = this.pool ? this.pool.attach(memory) : -1;
    instances.set(memory.buffer, { exports: instance.exports as unknown as KernelExports, pool: this.pool, instance: id });
    this.allocations++;
    return memory.buffer;
  }
}

/**
 * The kernels instantiated over the arena `region` lives in, for a kernel's prepare. Returns null in the
 * measuring pass of arena `'auto'` (and when the arena overflowed): the region is then a side buffer of
 * its own size, and that pass never invokes. Throws when the arena is an ordinary ArrayBuffer: the
 * kernels can only work on WebAssembly memory.
 */
export function kernelsFor(op: string, node: Node, region: ArenaRegion): KernelExports | null {
  const k = instances.get(region.buffer);
  if (k) return k.exports;
  if (region.buffer.byteLength > ((region.size + 15) & ~15))
    throw new KernelError(
      op,
      node.index,
      'the arena is not in WebAssembly memory: ops-wasm kernels need `arenaBacking: wasm.arenaBacking` in the interpreter options (wasm from loadWasmKernels())',
    );
  return null;
}

/** Whether `buffer` is the memory of an ops-wasm instance. */
export function isWasmArena(buffer: ArrayBufferLike): boolean {
  return instances.has(buffer);
}

/** The kernels, pool and instance id of the arena `region` lives in (null in the measuring pass, as kernelsFor). */
export function arenaKernelsFor(region: ArenaRegion): ArenaKernels | null {
  return instances.get(region.buffer) ?? null;
}
