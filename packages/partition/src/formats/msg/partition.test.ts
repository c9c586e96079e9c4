import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { partition } from '../../pipeline/partition.js';
import { compressRtf } from './test-support/compressed-rtf.js';
import { writeMsg } from './test-support/write-msg.js';

/** What Outlook stores for an HTML message: the HTML tags in \\*\\htmltag groups, their rendering \\htmlrtf. */
const ENCAPSULATED_HTML = [
  '{\\rtf1\\ansi\\ansicpg1252\\fromhtml1 \\deff0{\\fonttbl{\\f0\\fswiss Arial;}}',
  '{\\*\\htmltag19 <html>}{\\*\\htmltag50 <body>}',
  '{\\*\\htmltag2 <h1>}\\htmlrtf {\\b \\htmlrtf0 Quarterly figures\\htmlrtf }\\par \\htmlrtf0{\\*\\htmltag10 </h1>}',
  '{\\*\\htmltag64 <p>}Sales rose in every region this quarter.\\htmlrtf\\par\\htmlrtf0{\\*\\htmltag72 </p>}',
  '{\\*\\htmltag64 <table>}{\\*\\htmltag64 <tr>}{\\*\\htmltag64 <td>}North{\\*\\htmltag72 </td>}',
  '{\\*\\htmltag64 <td>}1,200{\\*\\htmltag72 </td>}{\\*\\htmltag72 </tr>}',
  '{\\*\\htmltag64 <tr>}{\\*\\htmltag64 <td>}South{\\*\\htmltag72 </td>}',
  '{\\*\\htmltag64 <td>}950{\\*\\htmltag72 </td>}{\\*\\htmltag72 </tr>}{\\*\\htmltag72 </table>}',
  '{\\*\\htmltag58 </body>}{\\*\\htmltag27 </html>}}',
].join('\r\n');

const HEADERS =
  'Date: Tue, 05 Mar 2024 14:30:00 +0000\r\nMessage-ID: <plan-7@example.com>\r\nContent-Type: multipart/alternative; boundary="b"\r\n';

describe('msg partitioner', () => {
  it('reads the plain body with sender, recipients, subject, id and date in metadata', async () => {
    const data = writeMsg({
      subject: 'Quarterly plan',
      senderName: 'Ann Smith',
      senderEmail: 'ann@example.com',
      headers: HEADERS,
      body: 'Hello team,\r\n\r\nThe plan for the next quarter is attached to this message.\r\n',
      recipients: [
        { name: 'Bob Jones', email: 'bob@example.com', type: 'to' },
        { name: 'carol@example.com', email: 'carol@example.com', type: 'cc' },
        { name: 'Eve', email: 'eve@example.com', type: 'bcc' },
      ],
    });
    const elements = await partition({ data, filename: 'plan.msg' });
    expect(elements.map((element) => [element.type, element.text])).toEqual([
      ['UncategorizedText', 'Hello team,'],
      ['NarrativeText', 'The plan for the next quarter is attached to this message.'],
    ]);
    expect(elements[1]!.metadata).toMatchObject({
      filename: 'plan.msg',
      filetype: 'application/vnd.ms-outlook',
      sent_from: ['Ann Smith <ann@example.com>'],
      sent_to: ['Bob Jones <bob@example.com>'],
      cc_recipient: ['carol@example.com'],
      bcc_recipient: ['Eve <eve@example.com>'],
      subject: 'Quarterly plan',
      email_message_id: '<plan-7@example.com>',
      last_modified: '2024-03-05T14:30:00.000Z',
    });
  });

  it('prefers the HTML body', async () => {
    const data = writeMsg({
      subject: 'x',
      body: 'plain version',
      html: '<html><body><p>The HTML version of the body is richer.</p><ul><li>first</li><li>second</li></ul></body></html>',
    });
    const elements = await partition({ data, filename: 'html.msg' });
    expect(elements.map((element) => [element.type, element.text])).toEqual([
      ['NarrativeText', 'The HTML version of the body is richer.'],
      ['ListItem', 'first'],
      ['ListItem', 'second'],
    ]);
  });

  it('partitions attachments with attached_to_filename, outside the body sections', async () => {
    const data = writeMsg({
      subject: 'Files',
      headers: HEADERS,
      body: 'Summary\r\n\r\nPlease read the attached notes before the meeting.\r\n',
      attachments: [
        {
          filename: 'notes.txt',
          data: new TextEncoder().encode('The notes list three open questions.'),
          mimeType: 'text/plain',
        },
        { filename: 'blob.bin', data: new Uint8Array([0, 1, 2, 3, 250, 251, 252]) },
      ],
    });
    const elements = await partition({ data, filename: 'files.msg' });
    const attached = elements.filter((element) => element.metadata.attached_to_filename === 'files.msg');
    expect(attached.map((element) => [element.text, element.metadata.filename])).toEqual([
      ['The notes list three open questions.', 'notes.txt'],
    ]);
    expect(attached[0]!.metadata.parent_id).toBeUndefined();
    expect(attached[0]!.metadata.last_modified).toBe('2024-03-05T14:30:00.000Z');
  });

  it('reads a body kept only as compressed RTF that encapsulates HTML: headings and tables survive', async () => {
    const data = writeMsg({
      subject: 'Figures',
      senderEmail: 'ann@example.com',
      compressedRtf: compressRtf(ENCAPSULATED_HTML),
    });
    const elements = await partition({ data, filename: 'figures.msg' });
    expect(elements.map((element) => [element.type, element.text])).toEqual([
      ['Title', 'Quarterly figures'],
      ['NarrativeText', 'Sales rose in every region this quarter.'],
      ['Table', 'North 1,200\nSouth 950'],
    ]);
    expect(elements[2]!.metadata.text_as_html).toContain('<td>1,200</td>');
    expect(elements[0]!.metadata).toMatchObject({
      subject: 'Figures',
      filetype: 'application/vnd.ms-outlook',
    });
  });

  it('reads a body kept only as compressed native RTF', async () => {
    const rtf =
      '{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0 Arial;}}\\pard The meeting moved to Thursday at ten.\\par}';
    const data = writeMsg({ subject: 'Moved', compressedRtf: compressRtf(rtf) });
    const elements = await partition({ data, filename: 'moved.msg' });
    expect(elements.map((element) => element.text)).toEqual(['The meeting moved to Thursday at ten.']);
  });

  it('prefers the plain body to the RTF one, and skips a damaged RTF body', async () => {
    const rtf = compressRtf('{\\rtf1\\ansi\\pard From the RTF body.\\par}');
    const both = writeMsg({ subject: 'x', body: 'From the plain body.', compressedRtf: rtf });
    expect((await partition({ data: both, filename: 'both.msg' })).map((e) => e.text)).toEqual([
      'From the plain body.',
    ]);
    const damaged = writeMsg({ subject: 'x', compressedRtf: new Uint8Array([1, 2, 3]) });
    expect(await partition({ data: damaged, filename: 'damaged.msg' })).toEqual([]);
  });

  it('refuses an S/MIME message with encrypted_document', async () => {
    const data = writeMsg({ subject: 'secret', messageClass: 'IPM.Note.SMIME', body: '' });
    await expect(partition({ data, filename: 'secret.msg' })).rejects.toMatchObject({
      code: 'encrypted_document',
    });
  });

  it('refuses a truncated file with a typed error', async () => {
    const data = writeMsg({ subject: 'x', body: 'Some body text that is long enough.' });
    await expect(partition({ data: data.subarray(0, 700), filename: 'cut.msg' })).rejects.toMatchObject({
      code: expect.stringMatching(/^(corrupt_document|unsupported_file_type)$/),
    });
  });
});

const SAMPLES = join(import.meta.dirname, '../../../../../../shared/samples/unstructured-example-docs');

describe.skipIf(!existsSync(SAMPLES))('msg partitioner on the sample messages', () => {
  const files = existsSync(SAMPLES) ? readdirSync(SAMPLES).filter((name) => name.endsWith('.msg')) : [];

  it.each(files)('%s', async (name) => {
    const data = new Uint8Array(readFileSync(join(SAMPLES, name)));
    if (name === 'fake-encrypted.msg') {
      await expect(partition({ data, filename: name })).rejects.toMatchObject({ code: 'encrypted_document' });
      return;
    }
    const elements = await partition({ data, filename: name });
    expect(elements.length).toBeGreaterThan(0);
    expect(elements[0]!.metadata.sent_from?.length).toBe(1);
    expect(elements[0]!.metadata.subject).toBeTruthy();
  });

  it('fake-email-attachment.msg ends with its attachment', async () => {
    const name = 'fake-email-attachment.msg';
    const elements = await partition({
      data: new Uint8Array(readFileSync(join(SAMPLES, name))),
      filename: name,
    });
    expect(elements.at(-1)).toMatchObject({
      text: 'Hey this is a fake attachment!',
      metadata: { filename: 'fake-attachment.txt', attached_to_filename: name },
    });
  });
});
