import { isServiceError } from '@docsvc/partition';

/** The message of the invalid_option error `run` throws (fails the test when it throws nothing or else). */
export function configError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isServiceError(error) && error.code === 'invalid_option') return error.message;
    throw error;
  }
  throw new Error('expected an invalid_option error');
}
