import { defineConfig } from 'vitest/config';

/**
 * One test run for the whole workspace. Tests live beside the code (`src/**\/*.test.ts`) and import
 * sibling packages through their `source` export condition, so no build is needed to run them.
 */
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'scripts/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
