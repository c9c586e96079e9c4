import { defineOptions, field, type OptionsOutput } from '@docsvc/partition';

/** `service-ingest local --input-path PATH [--recursive]` */
export const localSourceOptions = defineOptions({
  input_path: field.string({
    required: true,
    description: 'A file, or a directory whose files are processed.',
    placeholder: '<path>',
  }),
  recursive: field.boolean({
    default: false,
    description: 'Descend into subdirectories of input_path.',
  }),
  file_glob: field.stringList({
    description:
      'Only process files whose path relative to input_path matches one of these globs (e.g. *.pdf,**/*.docx).',
    placeholder: '<globs>',
  }),
});
export type LocalSourceConfig = OptionsOutput<typeof localSourceOptions.shape>;

/** Local destination: one JSON file per input file. */
export const localDestinationOptions = defineOptions({
  output_dir: field.string({
    required: true,
    description: 'Directory that receives <relative path of the input>.json for every processed file.',
    placeholder: '<dir>',
  }),
});
export type LocalDestinationConfig = OptionsOutput<typeof localDestinationOptions.shape>;
