import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MicroInterpreter, ModelBuilder, OpResolver, TensorType, BuiltinOperator, loadModel } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { GreedyPlanner } from '@micrort/planners';
import {
  FLOWER_LABELS,
  appendZip,
  buildLabelledUint8Classifier,
  writeModelMetadata,
  writeZip,
} from '@micrort/test-support/tflite-metadata';
import { MetadataError, inflateRaw, parseLabels, parseModelMetadata, readTfliteMetadata, readZipDirectory, readZipEntry } from './index.js';

function tinyModel(metadata?: Uint8Array): Uint8Array {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [1, 3] });
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [1, 3] });
  b.addOperator({ op: BuiltinOperator.RELU, inputs: [x], outputs: [y] });
  if (metadata) b.addMetadata('TFLITE_METADATA', metadata);
  return b.setInputs([x]).setOutputs([y]).build();
}

describe('TFLite metadata of a model with labels', () => {
  const bytes = buildLabelledUint8Classifier();

  it('reads the model, subgraph and tensor metadata', () => {
    const md = readTfliteMetadata(bytes);
    expect(md.metadata?.name).toBe('flower classifier (test)');
    expect(md.metadata?.author).toBe('micrort tests');
    expect(md.metadata?.minParserVersion).toBe('1.0.0');
    expect(md.input(0)?.content).toEqual({ kind: 'image', colorSpace: 'RGB' });
    expect(md.inputNormalization(0)).toEqual({ mean: [127.5], std: [127.5] });
    expect(md.output(0)?.associatedFiles).toEqual([
      { name: 'labels.txt', description: 'Labels for the categories', type: 'TENSOR_AXIS_LABELS', locale: '' },
    ]);
    expect(md.output(1)).toBeNull();
  });

  it('reads the labels from the deflated entry of the appended zip archive', () => {
    const md = readTfliteMetadata(bytes);
    expect(md.fileNames).toEqual(['labels.txt', 'README.txt']);
    expect(md.outputLabels(0)).toEqual(FLOWER_LABELS);
    expect(md.outputValueLabels(0)).toBeNull();
    expect(new TextDecoder().decode(md.file('README.txt'))).toBe('a test model');
  });

  it('accepts archive offsets counted from the archive start as well as from the file start', () => {
    const model = tinyModel(writeModelMetadata({ outputs: [{ associatedFiles: [{ name: 'l.txt', type: 2 }] }] }));
    for (const fromFileStart of [true, false]) {
      const file = appendZip(model, [{ name: 'l.txt', data: 'a\r\nb\n\nd\n\n', deflate: !fromFileStart }], fromFileStart);
      expect(readTfliteMetadata(file).outputLabels(0)).toEqual(['a', 'b', '', 'd']);
    }
  });

  it('picks a label file by locale, the first one by default', () => {
    const model = tinyModel(
      writeModelMetadata({
        outputs: [
          {
            associatedFiles: [
              { name: 'en.txt', type: 2, locale: 'en' },
              { name: 'fr.txt', type: 2, locale: 'fr' },
            ],
          },
        ],
      }),
    );
    const md = readTfliteMetadata(
      appendZip(model, [
        { name: 'en.txt', data: 'rose' },
        { name: 'fr.txt', data: 'rose\n', deflate: true },
      ]),
    );
    expect(md.outputLabels(0)).toEqual(['rose']);
    expect(md.outputLabels(0, { locale: 'fr' })).toEqual(['rose']);
  });

  it('the model still loads and runs: the archive after the flatbuffer is ignored by the loader', () => {
    const it = new MicroInterpreter(loadModel(bytes), registerReferenceOps(new OpResolver()), { planner: new GreedyPlanner() });
    it.allocateTensors();
    it.setInput(0, new Uint8Array(16 * 16 * 3).fill(200));
    it.invoke();
    const probs = Array.from(it.output(0).data as Uint8Array);
    expect(probs).toHaveLength(FLOWER_LABELS.length);
    expect(probs.reduce((a, b) => a + b, 0)).toBeGreaterThan(240); // softmax at scale 1/256
  });

  it('a model without metadata answers null everywhere', () => {
    const md = readTfliteMetadata(tinyModel());
    expect(md.metadata).toBeNull();
    expect(md.fileNames).toEqual([]);
    expect(md.outputLabels(0)).toBeNull();
    expect(md.inputNormalization(0)).toBeNull();
    expect(() => md.file('labels.txt')).toThrow(/no zip archive/);
  });
});

describe('malformed metadata and archives are MetadataErrors', () => {
  it('a truncated or mis-identified metadata buffer', () => {
    const good = writeModelMetadata({ name: 'm', outputs: [{ name: 'o' }] });
    expect(parseModelMetadata(good).name).toBe('m');
    for (let n = 0; n < good.length; n += 3) {
      let err: unknown = null;
      try {
        parseModelMetadata(good.subarray(0, n));
      } catch (e) {
        err = e;
      }
      if (err) expect(err).toBeInstanceOf(MetadataError);
    }
    const wrongId = good.slice();
    wrongId[4] = 0x58;
    expect(() => parseModelMetadata(wrongId)).toThrow(/file identifier is "X001", expected "M001"/);
    const badOffset = good.slice();
    new DataView(badOffset.buffer).setUint32(0, 1 << 30, true);
    expect(() => parseModelMetadata(badOffset)).toThrow(MetadataError);
  });

  it('every corrupted byte of a metadata buffer gives a value or a MetadataError, never another error', () => {
    const good = writeModelMetadata({
      name: 'm',
      inputs: [{ name: 'i', content: 'image', normalization: { mean: [1, 2, 3], std: [4, 5, 6] } }],
      outputs: [{ name: 'o', associatedFiles: [{ name: 'x', type: 2 }] }],
    });
    for (let i = 0; i < good.length; i++)
      for (const v of [0, 0x7f, 0xff]) {
        const bad = good.slice();
        bad[i] = v;
        try {
          parseModelMetadata(bad);
        } catch (e) {
          expect(e, `byte ${i} = ${v}`).toBeInstanceOf(MetadataError);
        }
      }
  });

  it('a CRC mismatch, an unsupported method and a missing entry', () => {
    const model = tinyModel(writeModelMetadata({ outputs: [{ associatedFiles: [{ name: 'labels.txt', type: 2 }] }] }));
    const file = appendZip(model, [{ name: 'labels.txt', data: 'a\nb\n' }]);
    const entry = readZipDirectory(file)![0]!;
    const flipped = file.slice();
    flipped[entry.dataOffset] = flipped[entry.dataOffset]! ^ 1;
    expect(() => readTfliteMetadata(flipped).outputLabels(0)).toThrow(
      /CRC-32 [0-9a-f]{8} differs from the archive's [0-9a-f]{8} \(labels\.txt\)/,
    );
    expect(() => readZipEntry(file, { ...entry, method: 12 })).toThrow(/compression method 12 is not supported/);
    expect(() => readTfliteMetadata(file).file('vocab.txt')).toThrow(/not in the model's zip archive \(it holds labels\.txt\)/);
  });

  it('a broken central directory', () => {
    const zip = writeZip([{ name: 'a', data: 'x' }]);
    const bad = zip.slice();
    new DataView(bad.buffer).setUint32(bad.length - 6, 3, true); // central directory offset
    expect(() => readZipDirectory(bad)).toThrow(MetadataError);
  });
});

describe('inflate', () => {
  it('equals zlib on text, random bytes and runs, at every level', () => {
    const text = new TextEncoder().encode(Array.from({ length: 2000 }, (_, i) => `label_${i % 97} ${'ab'.repeat(i % 13)}`).join('\n'));
    let s = 7;
    const random = Uint8Array.from({ length: 70_000 }, () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0), s >>> 24));
    const runs = new Uint8Array(100_000).map((_, i) => (i >> 9) & 3);
    for (const data of [new Uint8Array(0), Uint8Array.of(42), text, random, runs])
      for (const level of [0, 1, 6, 9]) {
        const packed = deflateRawSync(data, { level });
        expect(Buffer.from(inflateRaw(packed, data.length, 'test')).equals(Buffer.from(data)), `level ${level}, ${data.length} bytes`).toBe(
          true,
        );
      }
  });

  it('refuses more output than stated, truncated streams and reserved blocks', () => {
    const data = new TextEncoder().encode('hello hello hello hello');
    const packed = deflateRawSync(data);
    expect(() => inflateRaw(packed, data.length - 1, 'x')).toThrow(/more than the 22 bytes/);
    expect(() => inflateRaw(packed, data.length + 1, 'x')).toThrow(/inflates to 23 bytes, the archive states 24/);
    expect(() => inflateRaw(packed.subarray(0, 3), data.length, 'x')).toThrow(MetadataError);
    expect(() => inflateRaw(Uint8Array.of(0x07), 1, 'x')).toThrow(/block type 3 is reserved/);
  });
});

it('parseLabels keeps interior empty lines and drops trailing ones', () => {
  expect(parseLabels(new TextEncoder().encode('a\n\nc\r\n\n\n'))).toEqual(['a', '', 'c']);
});
