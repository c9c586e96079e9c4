import { burn, type Entry } from '@kenjiuno/msgreader/lib/Burner.js';

/**
 * Writes a small Outlook .msg (MS-OXMSG) for tests: string properties as UTF-16 `__substg1.0_*` streams,
 * recipients and attachments as sub-storages with their fixed-size property streams. Enough of the format
 * for a reader to see subject, sender, recipients, bodies, headers and attachments.
 */

export interface MsgFixture {
  subject?: string;
  senderName?: string;
  senderEmail?: string;
  body?: string;
  html?: string;
  /** PR_RTF_COMPRESSED (see compressed-rtf.ts). */
  compressedRtf?: Uint8Array;
  /** Internet headers (PR_TRANSPORT_MESSAGE_HEADERS), CRLF-separated. */
  headers?: string;
  messageClass?: string;
  recipients?: { name: string; email: string; type: 'to' | 'cc' | 'bcc' }[];
  attachments?: { filename: string; data: Uint8Array; mimeType?: string }[];
}

const DIRECTORY = 1;
const DOCUMENT = 2;
const ROOT = 5;

const utf16 = (text: string) => new Uint8Array(Buffer.from(`${text}\0`, 'utf16le'));
const hex = (value: number, width = 4) => value.toString(16).toUpperCase().padStart(width, '0');

interface Node {
  name: string;
  data?: Uint8Array;
  children?: Node[];
}

function stringProp(id: number, text: string): Node {
  return { name: `__substg1.0_${hex(id)}001F`, data: utf16(text) };
}

function binaryProp(id: number, data: Uint8Array): Node {
  return { name: `__substg1.0_${hex(id)}0102`, data };
}

/** A property stream: a header (32 bytes at the root, 8 in sub-storages), then 16-byte fixed entries. */
function propertiesStream(headerBytes: number, longs: [number, number][]): Node {
  const data = new Uint8Array(headerBytes + longs.length * 16);
  const view = new DataView(data.buffer);
  longs.forEach(([id, value], index) => {
    const offset = headerBytes + index * 16;
    view.setUint32(offset, (id << 16) | 0x0003, true);
    view.setUint32(offset + 4, 0x6, true);
    view.setInt32(offset + 8, value, true);
  });
  return { name: '__properties_version1.0', data };
}

export function writeMsg(fixture: MsgFixture): Uint8Array {
  const children: Node[] = [propertiesStream(32, [])];
  if (fixture.messageClass !== undefined) children.push(stringProp(0x001a, fixture.messageClass));
  else children.push(stringProp(0x001a, 'IPM.Note'));
  if (fixture.subject !== undefined) children.push(stringProp(0x0037, fixture.subject));
  if (fixture.senderName !== undefined) children.push(stringProp(0x0c1a, fixture.senderName));
  if (fixture.senderEmail !== undefined) children.push(stringProp(0x0c1f, fixture.senderEmail));
  if (fixture.body !== undefined) children.push(stringProp(0x1000, fixture.body));
  if (fixture.html !== undefined) children.push(binaryProp(0x1013, new TextEncoder().encode(fixture.html)));
  if (fixture.compressedRtf !== undefined) children.push(binaryProp(0x1009, fixture.compressedRtf));
  if (fixture.headers !== undefined) children.push(stringProp(0x007d, fixture.headers));
  const recipientType = { to: 1, cc: 2, bcc: 3 };
  (fixture.recipients ?? []).forEach((recipient, index) => {
    children.push({
      name: `__recip_version1.0_#${hex(index, 8)}`,
      children: [
        propertiesStream(8, [[0x0c15, recipientType[recipient.type]]]),
        stringProp(0x3001, recipient.name),
        stringProp(0x3003, recipient.email),
        stringProp(0x39fe, recipient.email),
      ],
    });
  });
  (fixture.attachments ?? []).forEach((attachment, index) => {
    children.push({
      name: `__attach_version1.0_#${hex(index, 8)}`,
      children: [
        propertiesStream(8, [[0x3705, 1]]),
        stringProp(0x3707, attachment.filename),
        stringProp(0x3704, attachment.filename.slice(0, 8)),
        stringProp(0x370e, attachment.mimeType ?? 'application/octet-stream'),
        binaryProp(0x3701, attachment.data),
      ],
    });
  });
  return burnTree({ name: 'Root Entry', children });
}

/** Flatten the tree into the entry list the burner wants (root first, children by index). */
function burnTree(root: Node): Uint8Array {
  const entries: Entry[] = [];
  const add = (node: Node, isRoot: boolean): number => {
    const index = entries.length;
    const entry: Entry = node.data
      ? { name: node.name, type: DOCUMENT, length: node.data.length, binaryProvider: () => node.data! }
      : { name: node.name, type: isRoot ? ROOT : DIRECTORY, length: 0, children: [] };
    entries.push(entry);
    if (node.children) entry.children = node.children.map((child) => add(child, false));
    return index;
  };
  add(root, true);
  return burn(entries);
}
