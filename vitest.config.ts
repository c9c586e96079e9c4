import { configDefaults, defineConfig } from 'vitest/config';

/**
 * One test run for the whole workspace, in two projects:
 *   - `unit`: every `*.test.ts` beside the code, no servers;
 *   - `integration`: `*.int.test.ts`, against real servers that the global set-up starts (or reuses) once
 *     per run and stops afterwards (scripts/services, docs/testing.md).
 * Tests import sibling packages through their `source` export condition, so no build is needed to run them.
 * `npx vitest run --project unit` runs only the unit tests; a single file picks its project by name.
 */
const INTEGRATION = ['packages/*/src/**/*.int.test.ts', 'scripts/**/*.int.test.ts'];

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: [...configDefaults.exclude, '**/*.int.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: INTEGRATION,
          globalSetup: ['scripts/services/global-setup.ts'],
          // Starting the search engines can take minutes on a busy 2-core machine.
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
