import type { ElementDraft } from '../../elements/element.js';
import { ServiceError } from '../../errors.js';
import { partitionDocx } from '../docx/partition.js';
import type { FormatPartitioner } from '../format.js';
import { isCompoundFile, wantsImagePayloads } from '../ooxml/package.js';
import { partitionPptx } from '../pptx/partition.js';
import { convertWithLibreOffice } from './convert.js';

/**
 * Legacy binary Word (.doc) and PowerPoint (.ppt): converted to .docx/.pptx by LibreOffice, then
 * partitioned by the OOXML partitioners. Elements keep the original file's MIME type (the pipeline sets
 * filetype from the detected input type). Without LibreOffice the error says how to install it.
 */
export const partition: FormatPartitioner = async ({ data, limits, options, fileType, signal }) => {
  const kind = fileType.id === 'ppt' ? 'ppt' : 'doc';
  if (data.length === 0) throw new ServiceError('corrupt_document', `The .${kind} file is empty.`);
  if (!isCompoundFile(data)) {
    throw new ServiceError('corrupt_document', `The .${kind} file is not an OLE2 compound document.`);
  }
  const withImagePayloads = wantsImagePayloads(options.extract_image_block_types);
  const timeoutMs = limits.documentTimeoutMs;
  if (kind === 'ppt') {
    const pptx = await convertWithLibreOffice(data, 'ppt', 'pptx', { timeoutMs, signal });
    return partitionPptx(pptx, limits, { includeNotes: options.include_slide_notes, withImagePayloads });
  }
  const docx = await convertWithLibreOffice(data, 'doc', 'docx', { timeoutMs, signal });
  return partitionDocx(docx, limits, { withImagePayloads }) satisfies ElementDraft[];
};
