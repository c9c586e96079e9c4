import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import MailComposer from 'nodemailer/lib/mail-composer';
import { describe, expect, it } from 'vitest';
import { isServiceError } from '../../errors.js';
import { partition } from '../../pipeline/partition.js';

type Mail = ConstructorParameters<typeof MailComposer>[0];

async function compose(mail: Mail): Promise<Uint8Array> {
  const composer = new MailComposer(mail);
  const node = composer.compile();
  node.keepBcc = true;
  return new Uint8Array(await node.build());
}

const BASE: Mail = {
  from: 'Ann Smith <ann@example.com>',
  to: ['Bob Jones <bob@example.com>', 'carol@example.com'],
  cc: 'Dan <dan@example.com>',
  bcc: 'eve@example.com',
  subject: 'Quarterly plan',
  messageId: '<plan-1@example.com>',
  date: new Date('2024-03-05T14:30:00Z'),
};

describe('eml partitioner', () => {
  it('reads the HTML body into elements carrying the header fields', async () => {
    const data = await compose({
      ...BASE,
      text: 'Hello team,\n\nThe plan is attached to this message.\n',
      html: '<p>Hello team,</p><p>The plan for the next quarter is attached to this message.</p><ul><li>Hire two engineers</li><li>Ship the beta</li></ul>',
    });
    const elements = await partition({ data, filename: 'plan.eml' });
    expect(elements.map((element) => [element.type, element.text])).toEqual([
      ['UncategorizedText', 'Hello team,'],
      ['NarrativeText', 'The plan for the next quarter is attached to this message.'],
      ['ListItem', 'Hire two engineers'],
      ['ListItem', 'Ship the beta'],
    ]);
    expect(elements[0]!.metadata).toMatchObject({
      filename: 'plan.eml',
      filetype: 'message/rfc822',
      sent_from: ['Ann Smith <ann@example.com>'],
      sent_to: ['Bob Jones <bob@example.com>', 'carol@example.com'],
      cc_recipient: ['Dan <dan@example.com>'],
      bcc_recipient: ['eve@example.com'],
      subject: 'Quarterly plan',
      email_message_id: '<plan-1@example.com>',
      last_modified: '2024-03-05T14:30:00.000Z',
    });
  });

  it('reads a plain-text body with the paragraph rules', async () => {
    const data = await compose({
      ...BASE,
      text: 'Hi Bob,\n\nThe numbers for March look good and we\nare ahead of the plan by two weeks.\n\n- first point\n- second point\n',
    });
    const elements = await partition({ data, filename: 'note.eml' });
    expect(elements.map((element) => element.text)).toEqual([
      'Hi Bob,',
      'The numbers for March look good and we are ahead of the plan by two weeks.',
      'first point',
      'second point',
    ]);
  });

  it('partitions attachments with their own name and attached_to_filename', async () => {
    const data = await compose({
      ...BASE,
      text: 'See the attachment.',
      attachments: [
        { filename: 'notes.txt', content: 'The attachment says hello to everyone.' },
        { filename: 'sound.mp3', content: Buffer.from([0xff, 0xfb, 0x90, 0x64, 0, 0, 0, 0, 1, 2, 3, 4]) },
        { filename: 'table.csv', content: 'a,b\n1,2\n' },
      ],
    });
    const elements = await partition({ data, filename: 'with-files.eml' });
    const attached = elements.filter((element) => element.metadata.attached_to_filename !== undefined);
    expect(
      attached.map((element) => [element.type, element.metadata.filename, element.metadata.filetype]),
    ).toEqual([
      ['NarrativeText', 'notes.txt', 'text/plain'],
      ['Table', 'table.csv', 'text/csv'],
    ]);
    for (const element of attached) {
      expect(element.metadata.attached_to_filename).toBe('with-files.eml');
      expect(element.metadata.last_modified).toBe('2024-03-05T14:30:00.000Z');
      expect(element.metadata.subject).toBeUndefined();
    }
    expect(elements[0]!.text).toBe('See the attachment.');
  });

  it('partitions an attached e-mail as an e-mail', async () => {
    const inner = await compose({ ...BASE, subject: 'Inner', text: 'The forwarded message body is here.' });
    const data = await compose({
      ...BASE,
      text: 'Forwarding this.',
      attachments: [{ filename: 'inner.eml', content: Buffer.from(inner), contentType: 'message/rfc822' }],
    });
    const elements = await partition({ data, filename: 'outer.eml' });
    const forwarded = elements.find((element) => element.text === 'The forwarded message body is here.');
    expect(forwarded?.metadata).toMatchObject({ subject: 'Inner', attached_to_filename: 'outer.eml' });
  });

  it('skips inline images that the HTML shows', async () => {
    const data = await compose({
      ...BASE,
      html: '<p>Our logo is below this line of text.</p><img src="cid:logo@x">',
      attachments: [{ filename: 'logo.png', content: Buffer.from('not really a png'), cid: 'logo@x' }],
    });
    const elements = await partition({ data, filename: 'logo.eml' });
    const texts = elements.filter((element) => element.text !== '').map((element) => element.text);
    expect(texts).toEqual(['Our logo is below this line of text.']);
    expect(elements.some((element) => element.metadata.filename === 'logo.png')).toBe(false);
  });

  it('decodes encoded-word subjects and non-UTF-8 bodies', async () => {
    const raw = [
      'From: a@example.com',
      'To: b@example.com',
      'Subject: =?UTF-8?B?Q2Fmw6kg4piV?=',
      'Content-Type: text/plain; charset=iso-8859-1',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      'Le caf=E9 est pr=EAt pour tout le monde ce matin.',
      '',
    ].join('\r\n');
    const [element] = await partition({ data: new TextEncoder().encode(raw), filename: 'fr.eml' });
    expect(element!.metadata.subject).toBe('Café ☕');
    expect(element!.text).toBe('Le café est prêt pour tout le monde ce matin.');
  });

  it('repairs UTF-8 text labelled with a single-byte charset', async () => {
    const body = Buffer.from('I’m here — see you at the café.', 'utf8').toString('latin1');
    const raw = `From: a@example.com\r\nTo: b@example.com\r\nSubject: x\r\nContent-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: 8bit\r\n\r\n${body}\r\n`;
    const [element] = await partition({
      data: new Uint8Array(Buffer.from(raw, 'latin1')),
      filename: 'x.eml',
    });
    expect(element!.text).toBe('I’m here — see you at the café.');
  });

  it('reads a message saved as UTF-16', async () => {
    const raw = await compose({ ...BASE, text: 'A message stored in UTF-16 by a mail client.' });
    const text = new TextDecoder().decode(raw);
    const data = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const [element] = await partition({ data: new Uint8Array(data), filename: 'u16.eml' });
    expect(element!.text).toBe('A message stored in UTF-16 by a mail client.');
    expect(element!.metadata.subject).toBe('Quarterly plan');
  });

  it('leaves out an unparseable date', async () => {
    const raw =
      'From: a@example.com\r\nTo: b@example.com\r\nDate: someday soon\r\nSubject: x\r\n\r\nBody text of the message.\r\n';
    const [element] = await partition({ data: new TextEncoder().encode(raw), filename: 'x.eml' });
    expect(element!.metadata.last_modified).toBeUndefined();
  });
});

describe('eml partitioner: bad input', () => {
  it('refuses an encrypted message with encrypted_document', async () => {
    const raw = [
      'From: a@example.com',
      'To: b@example.com',
      'Content-Type: multipart/encrypted; boundary=foo; protocol="application/pgp-encrypted"',
      '',
      '--foo',
      'Content-Type: application/pgp-encrypted',
      '',
      'Version: 1',
      '--foo',
      'Content-Type: application/octet-stream',
      '',
      '-----BEGIN PGP MESSAGE-----',
      'hIwDY32hYGCE8MkBA/wOu7d45aUxF4Q0RKJprD3v5Z9K1YcRJ2fve87lMlDlx4Oj',
      '-----END PGP MESSAGE-----',
      '--foo--',
    ].join('\r\n');
    await expect(
      partition({ data: new TextEncoder().encode(raw), filename: 'secret.eml' }),
    ).rejects.toMatchObject({
      code: 'encrypted_document',
    });
    const smime =
      'From: a@example.com\r\nTo: b@example.com\r\nContent-Type: application/pkcs7-mime; smime-type=enveloped-data; name=smime.p7m\r\nContent-Transfer-Encoding: base64\r\n\r\nMIAGCSqGSIb3DQEHA6CAMIACAQAxggFU\r\n';
    await expect(
      partition({ data: new TextEncoder().encode(smime), filename: 'smime.eml' }),
    ).rejects.toMatchObject({
      code: 'encrypted_document',
    });
  });

  it('refuses binary garbage declared as an e-mail with corrupt_document', async () => {
    const garbage = new Uint8Array(4096).map((_, index) => (index * 7919 + 3) % 256);
    await expect(
      partition({ data: garbage, filename: 'junk.eml', content_type: 'message/rfc822' }),
    ).rejects.toMatchObject({ code: 'corrupt_document' });
  });

  it('gives no elements for an empty message', async () => {
    expect(await partition({ data: new TextEncoder().encode('\r\n'), filename: 'empty.eml' })).toEqual([]);
  });
});

const SAMPLES = join(import.meta.dirname, '../../../../../../shared/samples/unstructured-example-docs/eml');

describe.skipIf(!existsSync(SAMPLES))('eml partitioner on the sample e-mails', () => {
  const files = existsSync(SAMPLES) ? readdirSync(SAMPLES).filter((name) => name.endsWith('.eml')) : [];
  /** Messages that hold no readable body by design. */
  const EMPTY = new Set(['empty.eml', 'mime-no-body.eml']);

  it.each(files)('%s partitions or fails with a typed error', async (name) => {
    const data = new Uint8Array(readFileSync(join(SAMPLES, name)));
    try {
      const elements = await partition({ data, filename: name });
      if (!EMPTY.has(name)) expect(elements.length).toBeGreaterThan(0);
      for (const element of elements) expect(element.text).not.toMatch(/\uFFFD|Ã©|â€/);
    } catch (error) {
      expect(isServiceError(error) && error.code).toBe('encrypted_document');
      expect(name).toBe('fake-encrypted.eml');
    }
  });

  it('family-day.eml gives 9 elements with "Make sure to RSVP!" fourth, as API clients expect', async () => {
    const data = new Uint8Array(readFileSync(join(SAMPLES, 'family-day.eml')));
    const elements = await partition({ data, filename: 'family-day.eml' });
    expect(elements).toHaveLength(9);
    expect(elements[3]!.text).toBe('Make sure to RSVP!');
  });

  it('the three UTF-16 samples read like the UTF-8 one', async () => {
    const read = async (name: string) =>
      (await partition({ data: new Uint8Array(readFileSync(join(SAMPLES, name))), filename: name })).map(
        (element) => element.text,
      );
    const expected = await read('fake-email.eml');
    for (const name of ['fake-email-utf-16.eml', 'fake-email-utf-16-be.eml', 'fake-email-utf-16-le.eml']) {
      expect(await read(name)).toEqual(expected);
    }
  });
});
