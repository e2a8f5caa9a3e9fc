import { describe, expect, it } from 'vitest';
import { OpResolver, composeRuntime } from '@micrort/core';
import { referencePackage } from '@micrort/ops-reference';
import { PROVIDER, mediapipePackage, registerMediapipeOps } from '../src/index.js';

describe('mediapipePackage', () => {
  it('registers each kernel for its own op version, as registerMediapipeOps does', () => {
    expect(mediapipePackage).toMatchObject({ name: 'ops-mediapipe', provider: PROVIDER, provides: ['custom-ops'], join: 'register' });
    const composed = composeRuntime([referencePackage, mediapipePackage])
      .resolver.listRegistrations()
      .filter((r) => r.provider === PROVIDER);
    expect(composed).toEqual(registerMediapipeOps(new OpResolver()).listRegistrations());
    // v1 and v2 of the same custom op coexist
    expect(composed.filter((r) => r.op === 'CUSTOM:Landmarks2TransformMatrix').map((r) => r.versions)).toEqual([
      [1, 1],
      [2, 2],
    ]);
  });
});
