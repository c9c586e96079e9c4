import PostalMime, { type Address, type Email } from 'postal-mime';
import { ServiceError } from '../../errors.js';
import { decodeText, isValidUtf8, looksLikeText, repairMojibake } from '../../text/decode.js';
import type { FormatPartitioner } from '../format.js';
import { formatAddress, isoDate, type MailMessage, mailMetadata, mailToDrafts } from './mail.js';

/**
 * RFC 822 / MIME e-mail (.eml), parsed with postal-mime: it decodes every transfer encoding, charset and
 * encoded-word header, and tolerates the malformed messages real mailboxes hold. What becomes elements is
 * decided in mail.ts (shared with .msg).
 *
 * - A part whose declared charset is wrong (UTF-8 bytes labelled ISO-8859-1) is repaired (repairMojibake).
 * - A whole message stored as UTF-16/32 (a mail client's "save as Unicode") is decoded first.
 * - An encrypted message (PGP/MIME multipart/encrypted, S/MIME application/pkcs7-mime) has no readable
 *   body: `encrypted_document`. A signed message (multipart/signed) is read normally.
 */
export const partition: FormatPartitioner = async (context) => {
  const raw = withBlankLineAfterBareBoundaries(messageBytes(context.data, context.options.encoding));
  let email: Email;
  try {
    email = await PostalMime.parse(raw, { maxNestingDepth: 64, forceRfc822Attachments: true });
  } catch (error) {
    throw new ServiceError('corrupt_document', `Cannot parse the e-mail: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const hasHeaderField = email.headers.some((header) => /^[\w-]+$/.test(header.key));
  if (!hasHeaderField && !looksLikeText(raw)) {
    throw new ServiceError(
      'corrupt_document',
      'The data is not an e-mail: no header fields, binary content.',
    );
  }
  refuseEncrypted(email);
  return mailToDrafts(context, toMailMessage(email));
};

/**
 * Bytes for the MIME parser: as they are, unless the whole file is UTF-16/32, an encoding is forced, or
 * the message holds 8-bit text that is not UTF-8 and declares no charset anywhere (old mail clients sent
 * raw windows-125x): then the whole message is decoded by detection and handed over as UTF-8.
 */
function messageBytes(data: Uint8Array, encoding: string | undefined): Uint8Array {
  if (encoding) return new TextEncoder().encode(decodeText(data, encoding).text);
  const decoded = decodeText(data.subarray(0, 4096));
  if (/^utf-(16|32)/.test(decoded.encoding)) {
    return new TextEncoder().encode(decodeText(data).text.replace(/^\uFEFF/, ''));
  }
  if (!isValidUtf8(data) && !declaresCharset(data)) return new TextEncoder().encode(decodeText(data).text);
  return data;
}

/**
 * A body part begins with header fields or a blank line (RFC 2046). Some writers put the text right
 * after the boundary line ("--b\nThis is a test", as in S/MIME signed samples); the MIME parser then
 * reads that text as a broken header and the body is lost. A blank line is inserted there.
 */
function withBlankLineAfterBareBoundaries(data: Uint8Array): Uint8Array {
  const text = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1');
  const boundaries = new Set(
    [...text.matchAll(/boundary\s*=\s*"?([^";\r\n]+)"?/gi)].map((match) => match[1]!),
  );
  let repaired = text;
  for (const boundary of boundaries) {
    const escaped = boundary.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const bareStart = new RegExp(`^(--${escaped}[ \\t]*(\\r?\\n))(?![!-9;-~]+:|\\r?\\n)`, 'gm');
    repaired = repaired.replace(bareStart, '$1$2');
  }
  return repaired === text ? data : new Uint8Array(Buffer.from(repaired, 'latin1'));
}

function declaresCharset(data: Uint8Array): boolean {
  return /charset\s*=/i.test(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1'));
}

function refuseEncrypted(email: Email): void {
  const contentType =
    email.headers.find((header) => header.key === 'content-type')?.value.toLowerCase() ?? '';
  if (/^multipart\/encrypted\b/.test(contentType) || /^application\/(x-)?pkcs7-mime\b/.test(contentType)) {
    throw new ServiceError(
      'encrypted_document',
      'The e-mail is encrypted (PGP/MIME or S/MIME); decrypt it before partitioning.',
    );
  }
}

function addresses(list: Address | Address[] | undefined): string[] {
  const result: string[] = [];
  for (const entry of Array.isArray(list) ? list : list ? [list] : []) {
    const mailboxes = entry.group ?? [entry];
    for (const mailbox of mailboxes) {
      const formatted = formatAddress(mailbox.name, mailbox.address);
      if (formatted) result.push(formatted);
    }
  }
  return result;
}

function toMailMessage(email: Email): MailMessage {
  const metadata = mailMetadata({
    sent_from: addresses(email.from),
    sent_to: addresses(email.to),
    cc_recipient: addresses(email.cc),
    bcc_recipient: addresses(email.bcc),
    subject: email.subject ? repairMojibake(email.subject).trim() : undefined,
    email_message_id: email.messageId?.trim(),
    last_modified: isoDate(email.date),
  });
  return {
    metadata,
    html: email.html === undefined ? undefined : repairMojibake(email.html),
    text: email.text === undefined ? undefined : repairMojibake(email.text),
    attachments: email.attachments.map((attachment) => ({
      filename: attachment.filename ?? undefined,
      data: toBytes(attachment.content),
      inline: attachment.related === true,
    })),
  };
}

function toBytes(content: ArrayBuffer | Uint8Array | string): Uint8Array {
  if (typeof content === 'string') return new TextEncoder().encode(content);
  return content instanceof Uint8Array ? content : new Uint8Array(content);
}
