import type { ElementDraft } from '../../elements/element.js';
import type { ElementMetadata } from '../../elements/metadata.js';
import { type ErrorCode, isServiceError } from '../../errors.js';
import { decodeText } from '../../text/decode.js';
import type { FormatContext } from '../format.js';
import { partitionEmbeddedHtml } from '../html/embedded.js';
import { partition as partitionRtfDocument } from '../rtf/partition.js';
import { partitionPlainText } from '../txt/partition.js';
import { htmlToText } from './html-text.js';

/**
 * What .eml and .msg have in common once parsed: header fields, a body in HTML and/or plain text, and
 * attachments. Both formats turn it into elements here, so they behave alike:
 *
 * - Body elements come from the HTML body when there is one (it keeps lists, tables and headings; it is
 *   what the reference system reads by default), else from the plain-text body. If the HTML format
 *   cannot read it, the HTML's text is read with the plain-text rules (html-text.ts); if the HTML
 *   yields no text at all, the plain-text body is used.
 * - Every body element carries the header fields in its metadata: sent_from, sent_to, cc_recipient,
 *   bcc_recipient, subject, email_message_id, and last_modified = the Date header. No element is made
 *   for the subject or the headers themselves.
 * - Attachments are partitioned as documents of their own (through the registry, so an attached PDF or
 *   e-mail is handled by its own format). Their elements keep their own filename and filetype and get
 *   `attached_to_filename` = the e-mail's file name, and the e-mail's date when they have none.
 *   Inline parts that the HTML shows (cid: images) are part of the body, not attachments. An attachment
 *   of a type we cannot partition, or one that is broken, is skipped: the message itself is fine.
 */

export interface MailAttachment {
  filename: string | undefined;
  data: Uint8Array;
  /** Shown inside the HTML body (a cid: image): not partitioned as an attachment. */
  inline: boolean;
}

export interface MailMessage {
  /** sent_from, sent_to, cc_recipient, bcc_recipient, subject, email_message_id, last_modified. */
  metadata: ElementMetadata;
  html: string | Uint8Array | undefined;
  text: string | undefined;
  /** An RTF body (Outlook), read only when the HTML and text bodies give nothing. */
  rtf?: Uint8Array | undefined;
  attachments: MailAttachment[];
}

/** Errors that mean "this attachment cannot be read"; anything else (limits, timeouts, bugs) propagates. */
const SKIPPED_ATTACHMENT_ERRORS: ReadonlySet<ErrorCode> = new Set([
  'unsupported_file_type',
  'corrupt_document',
  'encrypted_document',
  'invalid_encoding',
  'converter_unavailable',
  'strategy_not_available',
]);

export async function mailToDrafts(context: FormatContext, message: MailMessage): Promise<ElementDraft[]> {
  const body = await bodyDrafts(context, message);
  for (const draft of body) draft.metadata = { ...message.metadata, ...draft.metadata };
  const attached: ElementDraft[] = [];
  for (const attachment of message.attachments) {
    if (attachment.inline || attachment.data.length === 0) continue;
    for (const draft of await attachmentDrafts(context, attachment)) {
      draft.metadata ??= {};
      const metadata = draft.metadata;
      if (context.filename !== undefined) metadata.attached_to_filename = context.filename;
      if (metadata.last_modified === undefined && message.metadata.last_modified !== undefined) {
        metadata.last_modified = message.metadata.last_modified;
      }
      attached.push(draft);
    }
  }
  return [...body, ...attached];
}

async function bodyDrafts(context: FormatContext, message: MailMessage): Promise<ElementDraft[]> {
  const { html, text } = message;
  if (html !== undefined && hasContent(html)) {
    let drafts: ElementDraft[];
    try {
      drafts = await partitionEmbeddedHtml(context, html);
    } catch (error) {
      if (!isServiceError(error) || !SKIPPED_ATTACHMENT_ERRORS.has(error.code)) throw error;
      // No HTML reader for this body (or it failed): its text, with blocks as paragraphs.
      const htmlText = typeof html === 'string' ? html : decodeText(html).text;
      drafts = partitionPlainText(htmlToText(htmlText));
    }
    if (drafts.some((draft) => draft.text.trim() !== '')) return drafts;
  }
  if (text !== undefined && text.trim() !== '') return partitionPlainText(text);
  return message.rtf ? partitionRtfDocument({ ...context, data: message.rtf }) : [];
}

function hasContent(html: string | Uint8Array): boolean {
  return typeof html === 'string' ? html.trim() !== '' : html.length > 0;
}

async function attachmentDrafts(context: FormatContext, attachment: MailAttachment): Promise<ElementDraft[]> {
  try {
    // No declared content type: mail clients label attachments loosely; content and name decide.
    return await context.partitionNested({ data: attachment.data, filename: attachment.filename });
  } catch (error) {
    if (isServiceError(error) && SKIPPED_ATTACHMENT_ERRORS.has(error.code)) return [];
    throw error;
  }
}

/** "Name <address>" when a display name exists, else the bare address (the usual way to show a sender). */
export function formatAddress(name: string | undefined, address: string | undefined): string | undefined {
  const cleanName = name?.replace(/\s+/g, ' ').trim();
  const cleanAddress = address?.trim();
  if (!cleanAddress) return cleanName || undefined;
  return cleanName && cleanName !== cleanAddress ? `${cleanName} <${cleanAddress}>` : cleanAddress;
}

/** ISO-8601 (UTC) of a date string, or undefined when it is not a date. */
export function isoDate(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** Drop empty lists and undefined values so metadata shows only what the message has. */
export function mailMetadata(fields: {
  sent_from?: string[];
  sent_to?: string[];
  cc_recipient?: string[];
  bcc_recipient?: string[];
  subject?: string | undefined;
  email_message_id?: string | undefined;
  last_modified?: string | undefined;
}): ElementMetadata {
  const metadata: ElementMetadata = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    metadata[key] = value;
  }
  return metadata;
}
