import { describe, expect, it } from 'vitest';
import { ModelError } from '../errors.js';
import { prng, smallModelBuilder } from './__tests__/helpers.js';
import { loadModel } from './loader.js';
import { writeModel } from './writer.js';

describe('loadModel on randomly mutated files', () => {
  const good = smallModelBuilder().build();

  it('300 random byte mutations give only ModelError or a model that writes back', () => {
    const random = prng(0x5eed);
    const outcomes = { loaded: 0, rejected: 0 };
    for (let trial = 0; trial < 300; trial++) {
      const bytes = good.slice();
      const edits = 1 + Math.floor(random() * 4);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(random() * bytes.byteLength);
        // Mix small nudges (off-by-one offsets and lengths) with arbitrary bytes.
        bytes[at] = random() < 0.5 ? bytes[at]! + (random() < 0.5 ? 1 : -1) : Math.floor(random() * 256);
      }
      try {
        const def = loadModel(bytes);
        // A mutation that passes verification must still give a usable def.
        loadModel(writeModel(def));
        outcomes.loaded++;
      } catch (err) {
        if (!(err instanceof ModelError)) {
          throw new Error(`trial ${trial}: ${String(err)} is not a ModelError`, { cause: err });
        }
        outcomes.rejected++;
      }
    }
    expect(outcomes.loaded + outcomes.rejected).toBe(300);
    expect(outcomes.rejected).toBeGreaterThan(0);
  });
});
