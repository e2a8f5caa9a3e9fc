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
  },
});
