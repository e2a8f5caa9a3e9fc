import * as flatbuffers from 'flatbuffers';
import { describe, expect, it } from 'vitest';
import { BuiltinOperator } from '../builtin-ops.js';
import { ModelError } from '../errors.js';
import { TensorType } from '../types.js';
import {
  deref,
  expectModelError,
  fieldPos,
  rootTable,
  setU32,
  smallModelBuilder,
  tableVectorElement,
  u32,
  vtableOf,
} from './__tests__/helpers.js';
import { Buffer, Model, SubGraph, Tensor } from './generated/tflite.js';
import { loadModel } from './loader.js';
import type { ModelDef } from './model-def.js';
import { BuiltinOptionsType } from './options-map.js';
import { verifyModel } from './verifier.js';
import { writeModel } from './writer.js';

const good = smallModelBuilder().build();
const goodDef = loadModel(good);

/** A deep-enough copy of the small model's def to corrupt one field. */
function def(): ModelDef {
  return loadModel(good);
}

/** Writes a corrupted def and verifies it, expecting a ModelError. */
function rejectDef(mutate: (d: ModelDef) => void): ModelError {
  const d = def();
  mutate(d);
  const bytes = writeModel(d);
  return expectModelError(() => loadModel(bytes));
}

function copy(bytes: Uint8Array = good): Uint8Array {
  return bytes.slice();
}

// Field ids (vtable slots) used below, from schema/tflite.fbs.
const MODEL_SUBGRAPHS = 2;
const SUBGRAPH_TENSORS = 0;
const TENSOR_NAME = 3;

describe('verifyModel: accepts', () => {
  it('a builder-made model', () => {
    expect(() => verifyModel(good)).not.toThrow();
  });

  it('-1 for an omitted optional operator input', () => {
    const fc = goodDef.subgraphs[0]!.operators[2]!;
    expect(Array.from(fc.inputs)).toContain(-1);
  });

  it('a file without identifier when requireIdentifier is false', () => {
    const bytes = copy();
    bytes.set([0x58, 0x58, 0x58, 0x58], 4);
    expect(() => verifyModel(bytes, { requireIdentifier: false })).not.toThrow();
    expect(loadModel(bytes, { requireIdentifier: false }).subgraphs.length).toBe(1);
  });

  it('a 1-D per-channel bias carrying a legacy quantized_dimension (as TFLM does)', () => {
    const d = def();
    d.subgraphs[0]!.tensors[2]!.quantization!.quantizedDimension = 3;
    expect(() => loadModel(writeModel(d))).not.toThrow();
  });
});

describe('verifyModel: structural errors', () => {
  it('rejects every truncation of a valid file', () => {
    let rejected = 0;
    for (let n = 0; n < good.byteLength; n += n < 64 ? 1 : 7) {
      expectModelError(() => loadModel(good.subarray(0, n)));
      rejected++;
    }
    expect(rejected).toBeGreaterThan(100);
  });

  it('rejects a bad file identifier, naming it', () => {
    const bytes = copy();
    bytes.set([0x54, 0x46, 0x4c, 0x32], 4); // "TFL2"
    const e = expectModelError(() => loadModel(bytes));
    expect(e.message).toContain('"TFL2"');
    expect(e.location.offset).toBe(4);
  });

  it('rejects a root offset past the end, zero, or misaligned', () => {
    for (const root of [good.byteLength + 100, 0xfffffff0, 0, 6]) {
      const bytes = copy();
      setU32(bytes, 0, root);
      const e = expectModelError(() => loadModel(bytes));
      expect(e.location.table).toBe('Model');
    }
  });

  it('rejects a table whose vtable offset points outside the file', () => {
    const bytes = copy();
    const root = rootTable(bytes);
    new DataView(bytes.buffer).setInt32(root, -0x100000, true);
    const e = expectModelError(() => loadModel(bytes));
    expect(e.message).toMatch(/vtable/);
    expect(e.location.table).toBe('Model');
  });

  it('rejects an odd or too small vtable size', () => {
    for (const size of [3, 2, 0xfff]) {
      const bytes = copy();
      const vt = vtableOf(bytes, rootTable(bytes));
      new DataView(bytes.buffer).setUint16(vt, size, true);
      expectModelError(() => loadModel(bytes));
    }
  });

  it('rejects a field that lies outside its table', () => {
    const bytes = copy();
    const vt = vtableOf(bytes, rootTable(bytes));
    new DataView(bytes.buffer).setUint16(vt + 4 + 2 * MODEL_SUBGRAPHS, 0xfff0, true);
    const e = expectModelError(() => loadModel(bytes));
    expect(e.location.field).toBe('subgraphs');
  });

  it('rejects a vector whose length runs past the end of the file', () => {
    const bytes = copy();
    const subgraph = tableVectorElement(bytes, rootTable(bytes), MODEL_SUBGRAPHS, 0);
    const tensors = deref(bytes, fieldPos(bytes, subgraph, SUBGRAPH_TENSORS));
    setU32(bytes, tensors, 0x10000000);
    const e = expectModelError(() => loadModel(bytes));
    expect(e.message).toMatch(/runs past the end/);
    expect(e.location).toMatchObject({ table: 'SubGraph', field: 'tensors', path: 'model.subgraphs[0]', offset: tensors });
  });

  it('rejects a string that is not NUL-terminated, with the path of its table', () => {
    const bytes = copy();
    const subgraph = tableVectorElement(bytes, rootTable(bytes), MODEL_SUBGRAPHS, 0);
    const tensor = tableVectorElement(bytes, subgraph, SUBGRAPH_TENSORS, 1);
    const name = deref(bytes, fieldPos(bytes, tensor, TENSOR_NAME));
    bytes[name + 4 + u32(bytes, name)] = 0x41;
    const e = expectModelError(() => loadModel(bytes));
    expect(e.location).toMatchObject({ table: 'Tensor', field: 'name', path: 'model.subgraphs[0].tensors[1]' });
  });

  it('rejects an unknown builtin options union type', () => {
    const e = rejectDef((d) => {
      d.subgraphs[0]!.operators[0]!.builtinOptionsType = 200;
    });
    expect(e.message).toMatch(/unknown BuiltinOptions type 200/);
    expect(e.location).toMatchObject({ table: 'Operator', field: 'builtin_options_type', path: 'model.subgraphs[0].operators[0]' });
  });

  it('bounds the work on files whose offsets share subtables (no blow-up)', () => {
    // 3000 subgraph entries all pointing at one subgraph of 200 tensors: 600k table visits from ~20 KB.
    const b = new flatbuffers.Builder(1024);
    const name = b.createString('t');
    const shape = Tensor.createShapeVector(b, [1]);
    const tensors: number[] = [];
    for (let i = 0; i < 200; i++) {
      Tensor.startTensor(b);
      Tensor.addShape(b, shape);
      Tensor.addName(b, name);
      tensors.push(Tensor.endTensor(b));
    }
    const sg = SubGraph.createSubGraph(b, SubGraph.createTensorsVector(b, tensors), 0, 0, 0, 0, -1);
    Buffer.startBuffer(b);
    const buffers = Model.createBuffersVector(b, [Buffer.endBuffer(b)]);
    const subgraphs = Model.createSubgraphsVector(b, new Array<number>(3000).fill(sg));
    Model.startModel(b);
    Model.addVersion(b, 3);
    Model.addSubgraphs(b, subgraphs);
    Model.addBuffers(b, buffers);
    b.finish(Model.endModel(b), 'TFL3');
    const bytes = b.asUint8Array().slice();
    const e = expectModelError(() => loadModel(bytes));
    expect(e.message).toMatch(/too many tables/);
  });
});

describe('verifyModel: semantic errors', () => {
  it('rejects an out-of-range tensor buffer index', () => {
    const e = rejectDef((d) => {
      d.subgraphs[0]!.tensors[1]!.buffer = 99;
    });
    expect(e.message).toMatch(/buffer index 99 out of range/);
    expect(e.location).toMatchObject({ table: 'Tensor', field: 'buffer', index: 1, path: 'model.subgraphs[0].tensors[1]' });
  });

  it('rejects an out-of-range opcode index', () => {
    const e = rejectDef((d) => {
      d.subgraphs[0]!.operators[1]!.opcodeIndex = 7;
    });
    expect(e.location).toMatchObject({ table: 'Operator', field: 'opcode_index', index: 1 });
  });

  it('rejects out-of-range operator input, output and intermediate tensor indices', () => {
    const n = goodDef.subgraphs[0]!.tensors.length;
    expect(rejectDef((d) => d.subgraphs[0]!.operators[0]!.inputs.set([n], 0)).location.field).toBe('inputs');
    expect(rejectDef((d) => d.subgraphs[0]!.operators[0]!.inputs.set([-2], 0)).location.field).toBe('inputs');
    expect(rejectDef((d) => d.subgraphs[0]!.operators[0]!.outputs.set([-1], 0)).location.field).toBe('outputs');
    expect(
      rejectDef((d) => {
        d.subgraphs[0]!.operators[0]!.intermediates = new Int32Array([n + 5]);
      }).location.field,
    ).toBe('intermediates');
  });

  it('rejects out-of-range subgraph inputs and outputs', () => {
    expect(rejectDef((d) => d.subgraphs[0]!.inputs.set([-1], 0)).location).toMatchObject({ table: 'SubGraph', field: 'inputs' });
    expect(rejectDef((d) => d.subgraphs[0]!.outputs.set([1000], 0)).location).toMatchObject({ table: 'SubGraph', field: 'outputs' });
  });

  it('rejects an unknown tensor type', () => {
    const e = rejectDef((d) => {
      d.subgraphs[0]!.tensors[0]!.type = 42 as TensorType;
    });
    expect(e.message).toMatch(/unknown tensor type 42/);
  });

  it('rejects a negative dimension', () => {
    const e = rejectDef((d) => d.subgraphs[0]!.tensors[0]!.shape.set([-3], 1));
    expect(e.message).toMatch(/negative dimension -3 at shape\[1\]/);
  });

  it('rejects a shape whose byte size overflows 2^31', () => {
    const e = rejectDef((d) => {
      d.subgraphs[0]!.tensors[3]!.shape = new Int32Array([65536, 65536, 1, 3]);
    });
    expect(e.message).toMatch(/more than 2\^31-1/);
  });

  it('rejects a constant buffer whose size does not match its tensor', () => {
    const e = rejectDef((d) => {
      d.subgraphs[0]!.tensors[1]!.shape = new Int32Array([3, 1, 1, 3]);
    });
    expect(e.message).toMatch(/holds 6 bytes but the tensor .* needs 9/);
  });

  it('rejects per-channel quantization whose length differs from shape[quantized_dimension]', () => {
    const e = rejectDef((d) => {
      d.subgraphs[0]!.tensors[1]!.quantization!.quantizedDimension = 3;
    });
    expect(e.message).toMatch(/3 scales but shape\[3\] is 2/);
    expect(e.location.table).toBe('QuantizationParameters');
  });

  it('rejects a per-channel quantized_dimension beyond the rank', () => {
    const e = rejectDef((d) => {
      d.subgraphs[0]!.tensors[1]!.quantization!.quantizedDimension = 4;
    });
    expect(e.message).toMatch(/quantized_dimension 4 is not < tensor rank 4/);
  });

  it('rejects scale and zero_point arrays of different lengths', () => {
    const e = rejectDef((d) => {
      d.subgraphs[0]!.tensors[0]!.quantization!.zeroPoint = new Int32Array([0, 0]);
    });
    expect(e.message).toMatch(/1 scales but 2 zero points/);
  });

  it('rejects builtin options of the wrong type for a parsed op', () => {
    const e = rejectDef((d) => {
      const op = d.subgraphs[0]!.operators[0]!; // CONV_2D
      op.builtinOptionsType = BuiltinOptionsType.Pool2DOptions;
    });
    expect(e.message).toMatch(/CONV_2D carries Pool2DOptions, expected Conv2DOptions/);
  });

  it('rejects a metadata buffer index out of range', () => {
    const e = rejectDef((d) => {
      d.metadata[0]!.buffer = 50;
    });
    expect(e.location).toMatchObject({ table: 'Metadata', field: 'buffer' });
  });

  it('rejects a schema version other than 3', () => {
    const bytes = copy();
    const root = rootTable(bytes);
    setU32(bytes, fieldPos(bytes, root, 0), 2);
    expect(expectModelError(() => loadModel(bytes)).message).toMatch(/schema version 2/);
  });

  it('rejects an external buffer that extends past the file', () => {
    const bytes = writeModel(def(), { externalData: true });
    expect(() => loadModel(bytes)).not.toThrow();
    const e = expectModelError(() => loadModel(bytes.subarray(0, bytes.byteLength - 1)));
    expect(e.message).toMatch(/extends past the/);
    expect(e.location.table).toBe('Buffer');
  });

  it('rejects a CUSTOM operator code without custom_code', () => {
    const e = rejectDef((d) => {
      d.operatorCodes[0]!.builtinCode = BuiltinOperator.CUSTOM;
      d.operatorCodes[0]!.deprecatedBuiltinCode = BuiltinOperator.CUSTOM;
    });
    expect(e.message).toMatch(/no custom_code/);
  });

  it('exempts string tensors from the constant size check', () => {
    const d = def();
    const shapeTensor = d.subgraphs[0]!.tensors[4]!; // 'shape': INT32 [2] with 8 bytes of data
    expect(d.buffers[shapeTensor.buffer]!.data.byteLength).toBe(8);
    shapeTensor.shape = new Int32Array([5]);
    expect(() => loadModel(writeModel(d))).toThrow(ModelError);
    shapeTensor.type = TensorType.STRING;
    expect(() => loadModel(writeModel(d))).not.toThrow();
  });
});
