import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadModel } from '@micrort/core';
import { CORPUS, corpusBytes, corpusPath, packedRange } from '@micrort/corpus';

describe('models shipped inside packed-assets files', () => {
  it("packedRange reads the file packager's listing", () => {
    const loader = `loadPackage({"files": [{"filename": "/a/x.txt", "start": 0, "end": 11}, {"filename": "/m/y.tflite", "start": 11, "end": 2048}], "remote_package_size": 2048});`;
    expect(packedRange(loader, '/m/y.tflite')).toEqual({ start: 11, end: 2048 });
    expect(packedRange(loader, '/m/z.tflite')).toBeNull();
  });

  it.each(CORPUS.filter((m) => m.packed).map((m) => [m.name, m] as const))('%s is extracted whole: a TFLite file that loads', (_, m) => {
    const bytes = corpusBytes(m);
    expect(String.fromCharCode(...bytes.subarray(4, 8))).toBe('TFL3');
    expect(loadModel(bytes).subgraphs[0]!.operators.length).toBeGreaterThan(100);
    expect(readFileSync(corpusPath(m)).byteLength).toBe(bytes.byteLength); // the second call reuses the extracted file
  });
});
