/**
 * DIV by zero against TFLite 2.9 (issue 20): TFLite's int32 DIV checks its divisor but ignores the check
 * and divides, which kills its process with SIGFPE (run here in a child process, tflite-oracle-isolated);
 * micrort fails that invoke with a KernelError naming the element, writes nothing, and the next invoke
 * runs. uint8 (divisors checked on real values: a raw 0 byte divides normally, a divisor at its zero
 * point takes the fixed-point steps on 0) and float32 (x/0 and 0/0, with and without RELU) equal TFLite's
 * bytes.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator, KernelError, MicroInterpreter, ModelBuilder, TensorType, loadModel } from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { referenceResolver } from '@micrort/test-support/conformance';
import { runMicrort } from '@micrort/test-support/output-compare';
import { ORACLE_SKIP_REASON, oracleAvailable } from '@micrort/test-support/tflite-oracle';
import { runTfliteIsolated } from '@micrort/test-support/tflite-oracle-isolated';

type Q = { scale: number; zeroPoint: number };

function divModel(type: TensorType, q?: Q, activation = 0): Uint8Array {
  const b = new ModelBuilder();
  const quant = (s: Q | undefined) => (s ? { quantization: s } : {});
  const x = b.addTensor({ name: 'x', type, shape: [4], ...quant(q) });
  const y = b.addTensor({ name: 'y', type, shape: [4], ...quant(q) });
  const o = b.addTensor({ name: 'o', type, shape: [4], ...quant(q ? { scale: 0.5, zeroPoint: q.zeroPoint } : undefined) });
  b.addOperator({ op: BuiltinOperator.DIV, inputs: [x, y], outputs: [o], options: { fusedActivationFunction: activation } });
  return b.setInputs([x, y]).setOutputs([o]).build();
}

const u8 = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

if (!oracleAvailable) it.skip(`TFLite oracle: ${ORACLE_SKIP_REASON}`, () => {});

describe.skipIf(!oracleAvailable)('DIV with zero divisors vs TFLite 2.9', () => {
  it('int32: TFLite crashes (SIGFPE); micrort throws a KernelError naming the element, writes nothing, and runs the next invoke', () => {
    const model = divModel(TensorType.INT32);
    const x = Int32Array.from([7, -7, 0, 5]);
    const [tflite] = runTfliteIsolated([{ model, inputs: [u8(x), u8(Int32Array.from([2, 0, 0, 1]))] }]);
    expect(tflite!.status).toBe('crashed');
    const interp = new MicroInterpreter(loadModel(model), referenceResolver(), { planner: createPlanner('greedy'), arena: 'auto' });
    interp.allocateTensors();
    interp.setInput(0, x);
    interp.setInput(1, Int32Array.from([2, 3, 4, 5]));
    interp.invoke();
    const before = Array.from(interp.output(0).data as Int32Array);
    expect(before).toEqual([3, -2, 0, 1]);
    interp.setInput(1, Int32Array.from([2, 0, 0, 1]));
    let error: unknown = null;
    try {
      interp.invoke();
    } catch (e) {
      error = e;
    }
    const inner = error instanceof KernelError ? error : (error as { cause?: unknown } | null)?.cause;
    expect(inner).toBeInstanceOf(KernelError);
    expect((inner as Error).message).toMatch(/Division by 0 \(divisor element 1\)/);
    expect(Array.from(interp.output(0).data as Int32Array), 'nothing written').toEqual(before);
    interp.setInput(1, Int32Array.from([-2, 1, 3, 5]));
    interp.invoke();
    expect(Array.from(interp.output(0).data as Int32Array)).toEqual([-3, -7, 0, 1]);
    interp.dispose();
  });

  it('uint8 (raw 0 and zero-point divisors) and float32 (x/0, 0/0, with and without RELU) equal TFLite byte for byte', () => {
    const cases = [
      {
        model: divModel(TensorType.UINT8, { scale: 0.1, zeroPoint: 10 }),
        inputs: [Uint8Array.from([20, 30, 40, 50]), Uint8Array.from([12, 0, 14, 15])],
      },
      {
        model: divModel(TensorType.UINT8, { scale: 0.1, zeroPoint: 10 }),
        inputs: [Uint8Array.from([20, 3, 40, 10]), Uint8Array.from([10, 10, 14, 10])],
      },
      { model: divModel(TensorType.FLOAT32), inputs: [Float32Array.from([1, -1, 0, 2.5]), Float32Array.from([0, 0, 0, -0])] },
      { model: divModel(TensorType.FLOAT32, undefined, 1), inputs: [Float32Array.from([1, -1, 0, 2.5]), Float32Array.from([0, 0, 0, -0])] },
    ].map((c) => ({ model: c.model, inputs: c.inputs.map(u8) }));
    const tflite = runTfliteIsolated(cases);
    cases.forEach((c, i) => {
      const t = tflite[i]!;
      if (t.status !== 'ok') throw new Error(`case ${i}: TFLite ${t.status}: ${t.error}`);
      const got = runMicrort(c.model, c.inputs)[0]!;
      expect(Array.from(got.bytes), `case ${i}`).toEqual(Array.from(t.outputs[0]!.bytes));
    });
  });
});
