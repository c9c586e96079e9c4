import { decompressRTF } from '@kenjiuno/decompressrtf';
import msgreader, { type FieldsData } from '@kenjiuno/msgreader';
import { ServiceError } from '../../errors.js';
import { formatAddress, isoDate, type MailAttachment, mailMetadata, mailToDrafts } from '../eml/mail.js';
import type { FormatPartitioner } from '../format.js';

/**
 * The package is CommonJS with `exports.default`: Node's ESM interop gives the exports object (the class
 * is `.default`), bundlers such as Vite give the class itself.
 */
const MsgReader = ((msgreader as unknown as { default?: unknown }).default ??
  msgreader) as typeof msgreader.default;
type MsgReader = InstanceType<typeof MsgReader>;

/**
 * Outlook .msg (an OLE compound file of MAPI properties), read with @kenjiuno/msgreader. The same rules as
 * .eml apply (eml/mail.ts): header fields into metadata, the HTML body preferred over the plain one,
 * attachments partitioned with `attached_to_filename`. Embedded messages (a .msg attached to a .msg) are
 * rebuilt as .msg files and partitioned as such.
 *
 * - Dates: the Date of the original internet headers when present, else the delivery time, else the
 *   submit time.
 * - An S/MIME or PGP-encrypted message is `encrypted_document`; a file msgreader cannot read is
 *   `corrupt_document`.
 * - A message whose only body is compressed RTF (PR_RTF_COMPRESSED: Outlook keeps many messages so,
 *   with the HTML or text original encapsulated in it) is decompressed and read by the RTF format.
 */
export const partition: FormatPartitioner = async (context) => {
  const { data } = context;
  let reader: MsgReader;
  let fields: FieldsData;
  try {
    reader = new MsgReader(new DataView(data.buffer, data.byteOffset, data.byteLength));
    fields = reader.getFileData();
  } catch (error) {
    throw new ServiceError(
      'corrupt_document',
      `Cannot read the Outlook message: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  if (fields.error)
    throw new ServiceError('corrupt_document', `Cannot read the Outlook message: ${fields.error}`);
  refuseEncrypted(fields);
  const headers = parseHeaders(fields.headers);
  const recipients = (kind: string) =>
    (fields.recipients ?? [])
      .filter((recipient) => recipient.recipType === kind)
      .map((recipient) => formatAddress(recipient.name, recipient.smtpAddress ?? recipient.email))
      .filter((address): address is string => address !== undefined);
  const metadata = mailMetadata({
    sent_from: [formatAddress(fields.senderName, senderAddress(fields))].filter((a): a is string => !!a),
    sent_to: recipients('to'),
    cc_recipient: recipients('cc'),
    bcc_recipient: recipients('bcc'),
    subject: fields.subject?.trim(),
    email_message_id: headers.get('message-id')?.trim(),
    last_modified:
      isoDate(headers.get('date')) ?? isoDate(fields.messageDeliveryTime) ?? isoDate(fields.clientSubmitTime),
  });
  return mailToDrafts(context, {
    metadata,
    html: fields.bodyHtml ?? (fields.html && fields.html.length > 0 ? fields.html : undefined),
    text: fields.body,
    rtf: rtfBody(fields),
    attachments: attachments(reader, fields),
  });
};

function rtfBody(fields: FieldsData): Uint8Array | undefined {
  if (!fields.compressedRtf || fields.compressedRtf.length === 0) return undefined;
  try {
    return Uint8Array.from(decompressRTF(Array.from(fields.compressedRtf)));
  } catch {
    return undefined; // a damaged RTF body is skipped; the other bodies and attachments still count
  }
}

/** The SMTP address of the sender; Exchange-internal senders have an X.500 path in senderEmail. */
function senderAddress(fields: FieldsData): string | undefined {
  const email = fields.senderSmtpAddress ?? fields.senderEmail ?? fields.creatorSMTPAddress;
  return email?.startsWith('/') ? (fields.senderSmtpAddress ?? fields.creatorSMTPAddress) : email;
}

function refuseEncrypted(fields: FieldsData): void {
  const messageClass = fields.messageClass?.toUpperCase() ?? '';
  const contentType = parseHeaders(fields.headers).get('content-type')?.toLowerCase() ?? '';
  if (
    messageClass.startsWith('IPM.NOTE.SMIME') ||
    /^multipart\/encrypted\b/.test(contentType) ||
    /^application\/(x-)?pkcs7-mime\b/.test(contentType)
  ) {
    throw new ServiceError(
      'encrypted_document',
      'The Outlook message is encrypted (S/MIME or PGP); decrypt it before partitioning.',
    );
  }
}

/** The transport headers an Outlook message keeps from its internet original (name → first value). */
function parseHeaders(raw: string | undefined): Map<string, string> {
  const headers = new Map<string, string>();
  if (!raw) return headers;
  const unfolded = raw.replace(/\r?\n[ \t]+/g, ' ');
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return headers;
}

function attachments(reader: MsgReader, fields: FieldsData): MailAttachment[] {
  const result: MailAttachment[] = [];
  for (const attachment of fields.attachments ?? []) {
    let content: { fileName: string; content: Uint8Array };
    try {
      content = reader.getAttachment(attachment);
    } catch {
      continue; // an attachment msgreader cannot extract is skipped like an unreadable one
    }
    const name = content.fileName || attachment.fileName || attachment.fileNameShort;
    result.push({
      filename: attachment.innerMsgContent && name && !/\.msg$/i.test(name) ? `${name}.msg` : name,
      data: content.content,
      // Hidden attachments with a content id are images shown inside the HTML body.
      inline: attachment.attachmentHidden === true && attachment.pidContentId !== undefined,
    });
  }
  return result;
}
