import { describe, expect, it } from 'vitest';
import { BuiltinOperator } from '../builtin-ops.js';
import { AllocationType } from '../kernel/tensor.js';
import { TensorType } from '../types.js';
import { expectModelError } from './__tests__/helpers.js';
import { loadModel } from './loader.js';
import { ModelBuilder } from './model-builder.js';
import type { ModelDef, SparsityDef } from './model-def.js';
import { sparseLayout, SparsityError } from './sparsity.js';
import { writeModel } from './writer.js';

/**
 * The 4x4 matrix
 *   [1 0 0 0]
 *   [0 0 2 3]
 *   [0 0 0 0]
 *   [0 4 0 5]
 * in CSR: row dimension dense, column dimension sparse.
 */
const CSR: SparsityDef = {
  traversalOrder: Int32Array.of(0, 1),
  blockMap: new Int32Array(0),
  dimMetadata: [
    { format: 'dense', denseSize: 4, arraySegments: null, arrayIndices: null },
    {
      format: 'sparseCsr',
      denseSize: 0,
      arraySegments: { type: 'uint8', values: Int32Array.of(0, 1, 3, 3, 5) },
      arrayIndices: { type: 'uint16', values: Int32Array.of(0, 2, 3, 1, 3) },
    },
  ],
};

/** The same shape in 2x2 blocks (block_map [0, 1]), block rows dense, block columns sparse, every block stored. */
const BLOCKED: SparsityDef = {
  traversalOrder: Int32Array.of(0, 1, 2, 3),
  blockMap: Int32Array.of(0, 1),
  dimMetadata: [
    { format: 'dense', denseSize: 2, arraySegments: null, arrayIndices: null },
    {
      format: 'sparseCsr',
      denseSize: 0,
      arraySegments: { type: 'int32', values: Int32Array.of(0, 2, 4) },
      arrayIndices: { type: 'int32', values: Int32Array.of(0, 1, 0, 1) },
    },
    { format: 'dense', denseSize: 2, arraySegments: null, arrayIndices: null },
    { format: 'dense', denseSize: 2, arraySegments: null, arrayIndices: null },
  ],
};

/** A model: sparse float32 constant [4, 4] → DENSIFY → output. */
function sparseModel(sparsity: SparsityDef, values: number[], consumer: BuiltinOperator = BuiltinOperator.DENSIFY): Uint8Array {
  const b = new ModelBuilder();
  const w = b.addTensor({ name: 'w', type: TensorType.FLOAT32, shape: [4, 4], data: Float32Array.from(values), sparsity });
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [4, 4] });
  if (consumer === BuiltinOperator.DENSIFY) b.addOperator({ op: BuiltinOperator.DENSIFY, inputs: [w], outputs: [y] });
  else b.addOperator({ op: consumer, inputs: [w], outputs: [y] });
  return b.setInputs([]).setOutputs([y]).build();
}

describe('sparse tensors in the loader, verifier and writer', () => {
  it('round-trips SparsityParameters (every index vector type) through writeModel and loadModel', () => {
    const def = loadModel(sparseModel(CSR, [1, 2, 3, 4, 5]));
    const t = def.subgraphs[0]!.tensors[0]!;
    expect(t.sparsity).toEqual(CSR);
    expect(def.buffers[t.buffer]!.data.byteLength).toBe(20);
    expect(loadModel(writeModel(def)).subgraphs[0]!.tensors[0]!.sparsity).toEqual(CSR);
    expect(loadModel(sparseModel(BLOCKED, [1, 0, 0, 0, 0, 0, 2, 3, 0, 0, 0, 4, 0, 0, 0, 5])).subgraphs[0]!.tensors[0]!.sparsity).toEqual(
      BLOCKED,
    );
  });

  it('sparseLayout counts the stored values and the block sizes', () => {
    expect(sparseLayout([4, 4], CSR)).toEqual({ levels: 2, blockSizes: new Int32Array(0), storedValues: 5 });
    expect(sparseLayout([4, 4], BLOCKED)).toEqual({ levels: 4, blockSizes: Int32Array.of(2, 2), storedValues: 16 });
    expect(() => sparseLayout([4, 3], BLOCKED)).toThrow(SparsityError);
  });

  const reject = (sparsity: SparsityDef, values: number[], pattern: RegExp, consumer?: BuiltinOperator) => {
    const e = expectModelError(() => loadModel(sparseModel(sparsity, values, consumer)));
    expect(e.message).toMatch(pattern);
    return e;
  };
  const withDim = (i: number, patch: Partial<SparsityDef['dimMetadata'][number]>): SparsityDef => ({
    ...CSR,
    dimMetadata: CSR.dimMetadata.map((d, k) => (k === i ? { ...d, ...patch } : d)),
  });

  it('rejects malformed metadata with a ModelError naming the field', () => {
    const five = [1, 2, 3, 4, 5];
    const e = reject({ ...CSR, traversalOrder: Int32Array.of(1, 1) }, five, /traversal_order\[1\] = 1/);
    expect(e.location).toMatchObject({ table: 'SparsityParameters', field: 'traversal_order', index: 0 });
    reject({ ...CSR, traversalOrder: Int32Array.of(0) }, five, /traversal_order has 1 entries, expected rank 2/);
    reject(withDim(0, { denseSize: 5 }), five, /DENSE with dense_size 5, expected 4/);
    reject(
      withDim(1, { arraySegments: { type: 'int32', values: Int32Array.of(0, 1, 3, 5) } }),
      five,
      /array_segments has 4 entries, expected 5/,
    );
    reject(
      withDim(1, { arraySegments: { type: 'int32', values: Int32Array.of(0, 3, 1, 3, 5) } }),
      five,
      /array_segments decreases at \[2\]/,
    );
    reject(withDim(1, { arraySegments: { type: 'int32', values: Int32Array.of(1, 1, 3, 3, 5) } }), five, /must start at 0/);
    reject(
      withDim(1, { arrayIndices: { type: 'int32', values: Int32Array.of(0, 2, 4, 1, 3) } }),
      five,
      /array_indices\[2\] = 4 is outside \[0, 4\)/,
    );
    reject(withDim(1, { arrayIndices: null }), five, /lacks array_segments or array_indices/);
    reject({ ...BLOCKED, blockMap: Int32Array.of(1, 0) }, new Array(16).fill(1), /block_map must be strictly increasing/);
  });

  it('rejects a buffer that does not hold exactly the stored values, and sparse tensors read by anything but DENSIFY', () => {
    reject(CSR, [1, 2, 3, 4], /holds 16 bytes but the sparsity metadata enumerate 5 float32 values \(20 bytes\)/);
    reject(
      CSR,
      [1, 2, 3, 4, 5],
      /sparse tensor 0 is input 0 of operator 0 \(RELU\); micrort densifies sparse tensors only through DENSIFY/,
      BuiltinOperator.RELU,
    );
  });

  it('a sparse annotation on a tensor with no data (a graph input) is ignored, as TFLite ignores it', () => {
    // TFLite's InterpreterBuilder parses sparsity only for tensors with a buffer; a read-write tensor is dense.
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [4, 4], sparsity: CSR });
    const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [4, 4] });
    b.addOperator({ op: BuiltinOperator.RELU, inputs: [x], outputs: [y] });
    const def = loadModel(b.setInputs([x]).setOutputs([y]).build());
    expect(def.subgraphs[0]!.tensors[0]!.sparsity).toBeUndefined();
    expect(Array.from(def.subgraphs[0]!.tensors[0]!.shape)).toEqual([4, 4]);
  });

  it('a sparse constant binds its stored values only; the dense shape stays on the tensor', async () => {
    const { MicroAllocator } = await import('../arena/micro-allocator.js');
    const { SingleArenaBufferAllocator } = await import('../arena/single-arena-buffer-allocator.js');
    const def: ModelDef = loadModel(sparseModel(CSR, [1, 2, 3, 4, 5]));
    const alloc = new MicroAllocator(def, 0, new SingleArenaBufferAllocator(1024));
    alloc.startModelAllocation();
    const t = alloc.tensors[0]!;
    expect(t.allocationType).toBe(AllocationType.MmapRo);
    expect(Array.from(t.dims)).toEqual([4, 4]);
    expect(Array.from(t.data as Float32Array)).toEqual([1, 2, 3, 4, 5]);
    expect(t.bytes.byteLength).toBe(20);
    expect(t.sparsity).toEqual(CSR);
  });
});
