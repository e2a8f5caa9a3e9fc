import { MicrortError } from '../errors.js';
import type { ArenaRegion } from '../kernel/arena-region.js';
import type { ResourceVariables, TfLiteContext } from '../kernel/api.js';
import type { EvalTensor, Tensor } from '../kernel/tensor.js';

/** Default slot count: what TFLM's test runner and micrort's conformance data use. */
export const DEFAULT_RESOURCE_VARIABLE_SLOTS = 64;

/**
 * Arena bytes TFLM spends on the slot table (x86-64): the MicroResourceVariables object (a pointer and
 * two ints, 16 bytes) and one MicroResourceVariable per slot (two name pointers, the buffer pointer, a
 * size_t and an int: 40 bytes). micrort allocates the same in the tail so arena figures stay comparable.
 */
export const RESOURCE_VARIABLES_HEADER_BYTES = 16;
export const RESOURCE_VARIABLE_SLOT_BYTES = 40;

interface Slot {
  container: string | null;
  sharedName: string | null;
  buffer: Uint8Array | null;
  defaultValue: number;
}

/**
 * TFLM's MicroResourceVariables (see the `ResourceVariables` interface): slots of named variables
 * whose buffers are persistent arena memory. The slot table itself takes `tableBytes` of the tail.
 */
export class MicroResourceVariables implements ResourceVariables {
  private readonly slots: Slot[] = [];
  /** Tail bytes of the slot table (header + slots), aligned as allocated. */
  readonly tableBytes: number;
  /** Tail bytes of the variables' buffers, aligned. */
  bufferBytes = 0;

  /**
   * @param capacity number of slots (TFLM's `max_num_variables`)
   * @param allocate persistent allocation in the arena tail (the slot table is allocated at once)
   */
  constructor(
    readonly capacity: number,
    allocate: (bytes: number, what: string) => ArenaRegion,
  ) {
    if (!Number.isInteger(capacity) || capacity < 0)
      throw new MicrortError(`resource variables: the slot count must be a non-negative integer, got ${capacity}`);
    const header = allocate(RESOURCE_VARIABLES_HEADER_BYTES, 'resource variables (table)');
    const slots = allocate(RESOURCE_VARIABLE_SLOT_BYTES * capacity, `resource variables (${capacity} slots)`);
    this.tableBytes = align16(header.size) + align16(slots.size);
  }

  get count(): number {
    return this.slots.length;
  }

  createIdIfNoneFound(container: string | null, sharedName: string | null): number {
    const found = this.findId(container, sharedName);
    if (found >= 0) return found;
    if (this.slots.length >= this.capacity) return -1;
    this.slots.push({ container, sharedName, buffer: null, defaultValue: 0 });
    return this.slots.length - 1;
  }

  allocate(id: number, context: TfLiteContext, tensor: Tensor): void {
    const slot = this.slot(id, 'allocate');
    const bytes = tensor.byteLength;
    if (slot.buffer) {
      if (slot.buffer.byteLength !== bytes)
        throw new MicrortError(
          `resource variable ${id} (${describe(slot)}) holds ${slot.buffer.byteLength} bytes; tensor ${tensor.index} (${tensor.name || 'unnamed'}) has ${bytes}`,
        );
      return;
    }
    const region = context.allocatePersistentBuffer(bytes);
    slot.buffer = region.u8;
    this.bufferBytes += align16(bytes);
    // TFLM: the zero point of a quantized tensor, cast to int8 and memset; else 0.
    const q = tensor.quantization;
    slot.defaultValue = q && q.zeroPoint.length > 0 ? q.zeroPoint[0]! & 0xff : 0;
    slot.buffer.fill(slot.defaultValue);
  }

  assign(id: number, value: EvalTensor): void {
    const buffer = this.buffer(id, 'assign', value);
    buffer.set(value.bytes);
  }

  read(id: number, out: EvalTensor): void {
    const buffer = this.buffer(id, 'read', out);
    out.bytes.set(buffer);
  }

  resetAll(): void {
    for (const s of this.slots) s.buffer?.fill(s.defaultValue);
  }

  /** TFLM FindId: a null container matches any container; names compare exactly. */
  private findId(container: string | null, sharedName: string | null): number {
    for (let i = 0; i < this.slots.length; i++) {
      const s = this.slots[i]!;
      if ((container === null || container === s.container) && sharedName === s.sharedName) return i;
    }
    return -1;
  }

  private slot(id: number, what: string): Slot {
    const s = Number.isInteger(id) ? this.slots[id] : undefined;
    if (!s) throw new MicrortError(`resource variables: ${what} of variable ${id}, which does not exist (${this.slots.length} created)`);
    return s;
  }

  private buffer(id: number, what: string, tensor: EvalTensor): Uint8Array {
    const s = this.slot(id, what);
    const b = s.buffer;
    if (!b)
      throw new MicrortError(
        `resource variables: ${what} of variable ${id} (${describe(s)}) before any ASSIGN_VARIABLE of it was prepared (it has no buffer)`,
      );
    if (b.byteLength !== tensor.bytes.byteLength)
      throw new MicrortError(
        `resource variables: ${what} of variable ${id} (${describe(s)}, ${b.byteLength} bytes) with tensor ${tensor.index} of ${tensor.bytes.byteLength} bytes`,
      );
    return b;
  }
}

function describe(s: Slot): string {
  return `"${s.container ?? ''}/${s.sharedName ?? ''}"`;
}

function align16(n: number): number {
  return Math.ceil(n / 16) * 16;
}
