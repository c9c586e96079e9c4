import { defineOptions, field, type OptionsInput, type OptionsOutput } from '@docsvc/partition';

/** How the pipeline runs (not what it produces). Same names in `ingest({...})` and on the CLI. */
export const processorOptions = defineOptions({
  num_processes: field.integer({
    default: 2,
    min: 1,
    max: 64,
    description: 'How many records are processed at the same time.',
  }),
  raise_on_error: field.boolean({
    default: false,
    description: 'Stop at the first failing record instead of reporting it and going on.',
  }),
});

export type ProcessorOptionsInput = OptionsInput<typeof processorOptions.shape>;
export type ProcessorOptions = OptionsOutput<typeof processorOptions.shape>;
