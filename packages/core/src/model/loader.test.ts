import { describe, expect, it } from 'vitest';
import { BuiltinOperator, builtinOperatorName } from '../builtin-ops.js';
import { tensorTypeName } from '../types.js';
import {
  CONFORMANCE_DIR,
  conformanceModels,
  expectSameBuffers,
  fieldPos,
  rootTable,
  setU32,
  tableVectorElement,
  u32,
  readConformanceJson,
  readConformanceModel,
  smallModelBuilder,
  withoutBuffers,
} from './__tests__/helpers.js';
import { loadModel } from './loader.js';
import type { ModelDef } from './model-def.js';
import { writeModel } from './writer.js';

interface Manifest {
  op_counts: Record<string, number>;
  cases: Array<{ inputs: Array<{ dtype: string; shape: number[] }>; outputs: Array<{ dtype: string; shape: number[] }> }>;
}

interface IntermediateTensor {
  index: number;
  name: string;
  dtype: string;
  shape: number[];
  /** Absent or null for tensors that are not quantized. */
  scale?: number | null;
  zero_point?: number | null;
  variable: boolean;
}

const models = conformanceModels();
if (models.length === 0) {
  console.warn(`conformance models not found at ${CONFORMANCE_DIR}: skipping the conformance loading tests`);
}

function opName(def: ModelDef, opcodeIndex: number): string {
  const code = def.operatorCodes[opcodeIndex]!;
  return code.builtinCode === BuiltinOperator.CUSTOM ? `CUSTOM:${code.customCode}` : builtinOperatorName(code.builtinCode);
}

describe.skipIf(models.length === 0)('loadModel on the conformance models', () => {
  describe.each(models)('%s', (name) => {
    const bytes = readConformanceModel(name);
    const def = loadModel(bytes);
    const manifest = readConformanceJson<Manifest>(name, 'manifest.json');

    it('has the operators the manifest lists', () => {
      const counts: Record<string, number> = {};
      for (const op of def.subgraphs[0]!.operators) {
        const n = opName(def, op.opcodeIndex);
        counts[n] = (counts[n] ?? 0) + 1;
      }
      expect(counts).toEqual(manifest.op_counts);
    });

    it('has the input and output tensors the manifest lists', () => {
      const sg = def.subgraphs[0]!;
      const io = (indices: Int32Array) =>
        Array.from(indices, (i) => ({ dtype: tensorTypeName(sg.tensors[i]!.type), shape: Array.from(sg.tensors[i]!.shape) }));
      const strip = (list: Array<{ dtype: string; shape: number[] }>) => list.map(({ dtype, shape }) => ({ dtype, shape }));
      expect(io(sg.inputs)).toEqual(strip(manifest.cases[0]!.inputs));
      expect(io(sg.outputs)).toEqual(strip(manifest.cases[0]!.outputs));
    });

    it('reads names, types, shapes and quantization as TFLM did', () => {
      const tensors = readConformanceJson<IntermediateTensor[]>(name, 'intermediates_case0/tensors.json');
      const sg = def.subgraphs[0]!;
      for (const t of tensors) {
        const mine = sg.tensors[t.index]!;
        expect(mine.name).toBe(t.name);
        expect(tensorTypeName(mine.type)).toBe(t.dtype);
        expect(Array.from(mine.shape)).toEqual(t.shape);
        expect(mine.isVariable).toBe(t.variable);
        if (t.scale == null) {
          expect(mine.quantization?.scale.length ?? 0).toBe(0);
        } else {
          expect(mine.quantization!.scale[0]).toBeCloseTo(t.scale, 6);
          expect(mine.quantization!.zeroPoint[0]).toBe(t.zero_point);
        }
      }
    });

    it('gives every constant buffer 16-byte aligned, zero-copy where the file allows', () => {
      for (const b of def.buffers) {
        expect(b.data.byteOffset % 16).toBe(0);
        if (b.zeroCopy) expect(b.data.buffer).toBe(bytes.buffer);
        else if (b.data.byteLength > 0) expect(b.data.buffer).not.toBe(bytes.buffer);
      }
    });

    it('survives load → write → load unchanged', () => {
      const again = loadModel(writeModel(def));
      expect(withoutBuffers(again)).toEqual(withoutBuffers(def));
      expectSameBuffers(def, again);
      // The writer aligns every constant, so the reloaded model is entirely zero-copy.
      expect(again.buffers.every((b) => b.data.byteLength === 0 || b.zeroCopy === true)).toBe(true);
    });
  });

  it('loads the 3.9 MB mobilenet quickly (timing printed, not asserted)', () => {
    if (!models.includes('mobilenet_v2_quantized_1x3x224x224')) return;
    const bytes = readConformanceModel('mobilenet_v2_quantized_1x3x224x224');
    const start = performance.now();
    const def = loadModel(bytes);
    const ms = performance.now() - start;
    console.info(`mobilenet_v2 (${bytes.byteLength} bytes): loadModel ${ms.toFixed(1)} ms`);
    const manifest = readConformanceJson<Manifest>('mobilenet_v2_quantized_1x3x224x224', 'manifest.json');
    const ops = Object.values(manifest.op_counts).reduce((a, b) => a + b, 0);
    expect(def.subgraphs[0]!.operators.length).toBe(ops);
  });
});

describe('loadModel alignment handling', () => {
  const bytes = smallModelBuilder().build();

  it('returns zero-copy views into the model bytes for aligned buffers', () => {
    const def = loadModel(bytes);
    const constants = def.buffers.filter((b) => b.data.byteLength > 0);
    expect(constants.length).toBeGreaterThan(0);
    for (const b of constants) {
      expect(b.zeroCopy).toBe(true);
      expect(b.data.buffer).toBe(bytes.buffer);
    }
  });

  it('copies a model that starts at an unaligned byteOffset once, keeping buffers aligned', () => {
    const host = new Uint8Array(bytes.byteLength + 3);
    host.set(bytes, 3);
    const unaligned = host.subarray(3);
    const def = loadModel(unaligned);
    for (const b of def.buffers) {
      expect(b.data.byteOffset % 16).toBe(0);
      if (b.data.byteLength > 0) expect(b.data.buffer).not.toBe(host.buffer);
    }
    expect(withoutBuffers(def)).toEqual(withoutBuffers(loadModel(bytes)));
  });

  it('copies an individual buffer whose data is not 16-byte aligned in the file', () => {
    // Write the constants after the flatbuffer, then copy buffer 1's data to the end of the file at an
    // offset ≡ 4 (mod 16) and point its Buffer.offset there: the file start stays aligned, that data not.
    const external = writeModel(loadModel(bytes), { externalData: true });
    const buffer1 = tableVectorElement(external, rootTable(external), 4 /* Model.buffers */, 1);
    const offsetField = fieldPos(external, buffer1, 1 /* Buffer.offset */);
    const size = u32(external, fieldPos(external, buffer1, 2 /* Buffer.size */));
    const dataAt = u32(external, offsetField);
    const newAt = Math.ceil(external.byteLength / 16) * 16 + 4;
    const moved = new Uint8Array(newAt + size);
    moved.set(external);
    moved.set(external.subarray(dataAt, dataAt + size), newAt);
    setU32(moved, offsetField, newAt);
    const def = loadModel(moved);
    const b = def.buffers[1]!;
    expect(b.offset).toBe(newAt);
    expect(b.zeroCopy).toBe(false);
    expect(b.data.byteOffset % 16).toBe(0);
    expect(b.data.buffer).not.toBe(moved.buffer);
    expect(Array.from(b.data)).toEqual(Array.from(loadModel(bytes).buffers[1]!.data));
    expect(def.buffers[2]!.zeroCopy).toBe(true);
  });

  it('reads the offset/size buffer form as slices of the file', () => {
    const def = loadModel(bytes);
    const file = writeModel(def, { externalData: true });
    const loaded = loadModel(file);
    expect(withoutBuffers(loaded)).toEqual(withoutBuffers(def));
    expectSameBuffers(def, loaded);
    for (const b of loaded.buffers) {
      if (b.data.byteLength === 0) continue;
      expect(b.offset).toBeGreaterThan(1);
      expect(b.size).toBe(b.data.byteLength);
      expect(b.zeroCopy).toBe(true);
      expect(b.data.byteOffset).toBe(b.offset);
    }
  });
});
