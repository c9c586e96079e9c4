import { ServiceError } from '../../errors.js';
import type { FormatPartitioner } from '../format.js';

// Placeholder while the format is being written; replaced by the real partitioner.
export const partition: FormatPartitioner = async ({ fileType }) => {
  throw new ServiceError('unsupported_file_type', `Partitioning ${fileType.mime} is not implemented yet.`);
};
