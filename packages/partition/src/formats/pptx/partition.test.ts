import PptxGenJS from 'pptxgenjs';
import { describe, expect, it } from 'vitest';
import { type Element, partition, ServiceError } from '../../index.js';
import { fakeEncryptedOffice } from '../ooxml/test-support.js';

const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
const PPTX_MIME = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';

async function sampleDeck(): Promise<Uint8Array> {
  const deck = new PptxGenJS();
  deck.defineSlideMaster({
    title: 'CONTENT',
    objects: [
      { placeholder: { options: { name: 'title', type: 'title', x: 0.5, y: 0.2, w: 9, h: 1 }, text: '' } },
      { placeholder: { options: { name: 'body', type: 'body', x: 0.5, y: 1.5, w: 9, h: 3 }, text: '' } },
    ],
  });
  const first = deck.addSlide({ masterName: 'CONTENT' });
  first.addText('Quarterly Results', { placeholder: 'title' });
  first.addText(
    [
      { text: 'Revenue grew in every region', options: { bullet: true } },
      { text: 'Europe led the growth', options: { bullet: true, indentLevel: 1 } },
      { text: 'Costs stayed flat', options: { bullet: true } },
    ],
    { placeholder: 'body' },
  );
  first.addNotes('Mention the new office opening.');
  const second = deck.addSlide({ masterName: 'CONTENT' });
  second.addText('Numbers', { placeholder: 'title' });
  // Added first but placed lower on the slide: reading order follows position, not z-order.
  second.addText('The table shows totals for the whole year.', { x: 0.5, y: 4.6, w: 9, h: 0.6 });
  second.addTable(
    [
      [{ text: 'Region' }, { text: 'Sales' }],
      [{ text: 'North' }, { text: '120' }],
      [{ text: 'South' }, { text: '95' }],
    ],
    { x: 0.5, y: 1.5, w: 6 },
  );
  second.addImage({ data: `image/png;base64,${PNG_1X1}`, x: 7, y: 1.5, w: 1, h: 1, altText: 'Company logo' });
  return new Uint8Array((await deck.write({ outputType: 'nodebuffer' })) as Buffer);
}

const summary = (elements: Element[]) => elements.map((e) => [e.type, e.text, e.metadata.page_number]);

describe('pptx partitioner', () => {
  it('reads slides in order: titles, bullets with depth, notes, tables, pictures', async () => {
    const elements = await partition(
      { data: await sampleDeck(), filename: 'deck.pptx' },
      { include_page_breaks: true },
    );
    expect(summary(elements)).toEqual([
      ['Title', 'Quarterly Results', 1],
      ['ListItem', 'Revenue grew in every region', 1],
      ['ListItem', 'Europe led the growth', 1],
      ['ListItem', 'Costs stayed flat', 1],
      ['NarrativeText', 'Mention the new office opening.', 1],
      ['PageBreak', '', undefined],
      ['Title', 'Numbers', 2],
      ['Table', 'Region Sales\nNorth 120\nSouth 95', 2],
      ['Image', 'Company logo', 2],
      ['NarrativeText', 'The table shows totals for the whole year.', 2],
    ]);
    const nested = elements.find((e) => e.text === 'Europe led the growth')!;
    expect(nested.metadata.category_depth).toBe(1);
    expect(nested.metadata.parent_id).toBe(
      elements.find((e) => e.text === 'Revenue grew in every region')!.element_id,
    );
    expect(elements.find((e) => e.type === 'Table')!.metadata.text_as_html).toContain(
      '<td>North</td><td>120</td>',
    );
  });

  it('leaves notes out when include_slide_notes is false', async () => {
    const elements = await partition(
      { data: await sampleDeck(), filename: 'deck.pptx' },
      { include_slide_notes: false },
    );
    expect(elements.some((e) => e.text.includes('office opening'))).toBe(false);
  });

  it('gives typed errors for bad input', async () => {
    const code = async (data: Uint8Array, contentType?: string) => {
      try {
        await partition({ data, filename: 'x.pptx' }, contentType ? { content_type: contentType } : {});
      } catch (error) {
        return error instanceof ServiceError ? error.code : 'untyped';
      }
      return 'no error';
    };
    const deck = await sampleDeck();
    expect(await code(deck.subarray(0, 2000), PPTX_MIME)).toBe('corrupt_document');
    expect(await code(new Uint8Array(0), PPTX_MIME)).toBe('corrupt_document');
    expect(await code(fakeEncryptedOffice())).toBe('encrypted_document');
  });
});
