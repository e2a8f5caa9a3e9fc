/**
 * micrort with one kernel package in front of ops-reference: one runtime per `kernels` entry of
 * app-kit's list (the packages the CLI's `--ops` and the playground offer), composed as every app
 * composes, by core's `composeRuntimeAsync()` over app-kit's base packages and the chosen one. A
 * package that cannot be loaded or created here (no WebAssembly SIMD128) is reported as unavailable
 * instead of breaking the harness. Adding a kernel package to app-kit's list adds it here.
 */
import { composeRuntimeAsync, loadModel, tensorTypeName, type ComposedRuntime, type MicroInterpreter } from '@micrort/core';
import { APP_KERNEL_PACKAGES, appRuntimePackages, type AppKernelPackage } from '@micrort/app-kit';
import { createPlanner } from '@micrort/planners';
import { RuntimeUnavailableError, type RuntimeAdapter, type Runner, type TensorInfo } from '../runtime.js';

/** The micrort kernel packages the harness times (app-kit's `kernels` entries), reference first. */
export const KERNEL_PACKAGES: readonly AppKernelPackage[] = APP_KERNEL_PACKAGES.filter((p) => p.role === 'kernels');

/** The adapter of micrort with `pkg` (greedy planner, arena sized exactly). */
export function micrortRuntime(pkg: AppKernelPackage): RuntimeAdapter {
  const id = `micrort ${pkg.id}`;
  let runtime: Promise<ComposedRuntime> | null = null;
  return {
    id,
    description: pkg.id === 'reference' ? '@micrort/ops-reference' : `@micrort/${pkg.label} in front of @micrort/ops-reference`,
    async load(bytes: Uint8Array): Promise<Runner> {
      runtime ??= (async () => {
        try {
          return await composeRuntimeAsync(appRuntimePackages(await pkg.load()));
        } catch (e) {
          throw new RuntimeUnavailableError(id, `${pkg.label}: ${(e as Error).message}`);
        }
      })();
      const rt = await runtime;
      const interp = rt.createInterpreter(loadModel(bytes), { planner: createPlanner('greedy'), arena: 'auto' }).allocateTensors();
      return micrortRunner(interp);
    },
  };
}

function info(t: { name: string; type: number; dims: ArrayLike<number>; byteLength: number }): TensorInfo {
  return { name: t.name, dtype: tensorTypeName(t.type), shape: Array.from(t.dims), bytes: t.byteLength };
}

/**
 * A runner over an allocated interpreter. The inputs are written back before every invoke: the memory
 * planner may reuse an input's bytes once it is consumed, so a second invoke would otherwise run on
 * what the first one left there (the copy is a memcpy of the input, small next to the invoke).
 */
function micrortRunner(interp: MicroInterpreter): Runner {
  const inputs = Array.from({ length: interp.inputsSize }, (_, i) => info(interp.input(i)));
  const outputs = Array.from({ length: interp.outputsSize }, (_, j) => info(interp.output(j)));
  const saved = inputs.map((t) => new Uint8Array(t.bytes));
  return {
    inputs,
    outputs,
    setInput(i, bytes) {
      saved[i]!.set(bytes);
    },
    run() {
      for (let i = 0; i < saved.length; i++) interp.input(i).bytes.set(saved[i]!);
      interp.invoke();
    },
    readOutputs() {
      return outputs.map((_, j) => interp.output(j).bytes.slice());
    },
    dispose() {},
  };
}
