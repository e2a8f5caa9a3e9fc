import { defineConfig } from 'vitest/config';

export default defineConfig({
  oxc: { decorator: { legacy: true, emitDecoratorMetadata: true } } as never,
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'benchmarks/src/**/*.test.ts',
      'docs/**/*.test.ts',
      'scripts/**/*.test.ts',
    ],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Optimise on each worker's main thread. With concurrent recompilation, a loaded machine (CI: 2 cores,
    // 2 workers) starves the background compiler, hot code stays in a tier that boxes every double it
    // computes, and the "invoke() allocates nothing" tests (test-support's measureAllocation) see that
    // boxing as allocation. V8 reads this flag when the isolate starts: v8.setFlagsFromString later has no
    // effect, so it must be an argument of the worker process. (ops-wasm's relaxed-SIMD child run uses
    // the threads pool, whose workers share their process's V8 flags and refuse V8 flags of their own: it
    // starts that process with the flag instead.)
    execArgv: process.env.MICRORT_WASM_RELAXED ? [] : ['--no-concurrent-recompilation'],
  },
});
