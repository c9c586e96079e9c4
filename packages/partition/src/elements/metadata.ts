import { z } from 'zod';

/**
 * Element metadata (SPEC 2.6 plus the fields users of document partitioners rely on).
 * The zod shape is the single definition: it gives the TypeScript type, validates parsed JSON
 * and documents each field in the OpenAPI document.
 */

export const COORDINATE_SYSTEMS = ['PixelSpace', 'PointSpace'] as const;

export const coordinatesSchema = z.object({
  points: z
    .array(z.tuple([z.number(), z.number()]))
    .describe(
      'Corners of the bounding box from top-left, counter-clockwise (top-left, bottom-left, bottom-right, top-right).',
    ),
  system: z
    .string()
    .describe('PixelSpace (rendered or scanned pixels) or PointSpace (PDF points, 1/72 inch).'),
  layout_width: z.number().describe('Width of the page in the units of `system`.'),
  layout_height: z.number().describe('Height of the page in the units of `system`.'),
});
export type Coordinates = z.infer<typeof coordinatesSchema>;

export const dataSourceSchema = z.looseObject({
  url: z.string().optional(),
  version: z.string().optional(),
  record_locator: z.record(z.string(), z.unknown()).optional(),
  date_created: z.string().optional(),
  date_modified: z.string().optional(),
  date_processed: z.string().optional(),
  permissions_data: z.array(z.record(z.string(), z.unknown())).optional(),
  filesize_bytes: z.number().optional(),
});
export type DataSource = z.infer<typeof dataSourceSchema>;

export const entitySchema = z.object({ entity: z.string(), type: z.string() });
export const relationshipSchema = z.object({ from: z.string(), relationship: z.string(), to: z.string() });
export const entitiesSchema = z.object({
  items: z.array(entitySchema),
  relationships: z.array(relationshipSchema),
});
export type Entities = z.infer<typeof entitiesSchema>;

export const linkSchema = z.object({ text: z.string(), url: z.string(), start_index: z.number().int() });
export type Link = z.infer<typeof linkSchema>;

const metadataShape = {
  // -- where the element comes from --
  filename: z.string().optional().describe('Base name of the source file.'),
  file_directory: z.string().optional().describe('Directory of the source file (local sources only).'),
  filetype: z.string().optional().describe('MIME type of the source document.'),
  last_modified: z.string().optional().describe('ISO-8601 time the source was last modified, when known.'),
  url: z.string().optional().describe('URL of the source, for documents fetched from the web.'),
  data_source: dataSourceSchema.optional().describe('Where a connector read the document from.'),
  attached_to_filename: z
    .string()
    .optional()
    .describe(
      'For elements of an e-mail attachment: the file name of the e-mail it is attached to (filename is the attachment).',
    ),
  // -- position --
  page_number: z
    .number()
    .int()
    .optional()
    .describe('1-based page (slide, sheet) number, offset by starting_page_number.'),
  page_name: z.string().optional().describe('Name of the page when it has one (spreadsheet sheet name).'),
  coordinates: coordinatesSchema
    .optional()
    .describe('Bounding box, present with coordinates=true (PDFs and images).'),
  // -- structure --
  parent_id: z.string().optional().describe('element_id of the enclosing section title or list item.'),
  category_depth: z
    .number()
    .int()
    .optional()
    .describe('Nesting level: heading level (0 = top) or list depth.'),
  text_as_html: z.string().optional().describe('HTML of a Table or TableChunk.'),
  header_footer_type: z.string().optional().describe('For Header/Footer: primary, even_page or first_page.'),
  is_continuation: z
    .boolean()
    .optional()
    .describe('True for the second and later pieces of a split element.'),
  orig_elements: z.string().optional().describe('Chunks only: the original elements as base64(gzip(JSON)).'),
  // -- text styling and links --
  emphasized_text_contents: z.array(z.string()).optional().describe('Bold or italic runs in the text.'),
  emphasized_text_tags: z.array(z.string()).optional().describe('Tag of each emphasized run (b, i).'),
  link_urls: z.array(z.string()).optional(),
  link_texts: z.array(z.string()).optional(),
  links: z
    .array(linkSchema)
    .optional()
    .describe('Hyperlinks with the offset of their text in the element text.'),
  // -- language --
  languages: z.array(z.string()).optional().describe('ISO 639-3 codes of the languages of the text.'),
  // -- e-mail --
  sent_from: z.array(z.string()).optional(),
  sent_to: z.array(z.string()).optional(),
  cc_recipient: z.array(z.string()).optional(),
  bcc_recipient: z.array(z.string()).optional(),
  subject: z.string().optional(),
  email_message_id: z.string().optional(),
  // -- images --
  image_base64: z
    .string()
    .optional()
    .describe('Base64 image of an Image/Table, with extract_image_block_types.'),
  image_mime_type: z.string().optional(),
  image_url: z.string().optional().describe('Source URL of an image that was not embedded.'),
  // -- detection --
  detection_class_prob: z.number().optional().describe('Layout model confidence for this element.'),
  detection_origin: z
    .string()
    .optional()
    .describe('What produced the element (text layer, OCR engine, layout model).'),
  is_extracted: z
    .boolean()
    .optional()
    .describe('True when text came from the document text layer, false from OCR.'),
  // -- enrichment --
  entities: entitiesSchema.optional().describe('Entities and relationships found by entity extraction.'),
};

/** Schema used to parse metadata from JSON; unknown keys are kept (other tools add their own). */
export const elementMetadataSchema = z.looseObject(metadataShape);

/** The metadata type: the known fields, typed. */
export type ElementMetadata = z.infer<z.ZodObject<typeof metadataShape>> & Record<string, unknown>;

/** Names of all known metadata fields, in their canonical order. */
export const METADATA_FIELDS = Object.keys(metadataShape) as (keyof typeof metadataShape)[];
