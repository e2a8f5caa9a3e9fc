import { describe, expect, it } from 'vitest';
import { composeRuntime } from '@micrort/core';
import { referencePackage } from '@micrort/ops-reference';
import { PROVIDER, signalKernels, signalPackage } from '../src/index.js';

describe('signalPackage', () => {
  it('registers every signal custom op beside ops-reference', () => {
    expect(signalPackage).toMatchObject({ name: 'ops-signal', provider: PROVIDER, provides: ['custom-ops'], join: 'register' });
    const rt = composeRuntime([referencePackage, signalPackage]);
    const mine = rt.resolver.listRegistrations().filter((r) => r.provider === PROVIDER);
    expect(mine.map((r) => r.op).sort()).toEqual(signalKernels.map((k) => `CUSTOM:${k.customName}`).sort());
  });
});
