import fc from 'fast-check';
import type { Element } from '../../elements/element.js';
import type { ElementType } from '../../elements/element-types.js';
import { hashElementId } from '../../elements/ids.js';
import type { ElementMetadata } from '../../elements/metadata.js';
import { elementsFromBase64Gzip } from '../../elements/serialize.js';
import { tableToHtml, tableToText } from '../../elements/table-html.js';

/** An element as partition would produce it (id = hash of the text). */
export function el(type: ElementType, text: string, metadata: ElementMetadata = {}): Element {
  return { type, element_id: hashElementId(`${type}:${text}:${JSON.stringify(metadata)}`), text, metadata };
}

export function table(rows: string[][], headerRows = 0, metadata: ElementMetadata = {}): Element {
  return el('Table', tableToText(rows), { ...metadata, text_as_html: tableToHtml(rows, { headerRows }) });
}

/** The elements a chunk was made from. */
export function origOf(chunk: Element): Element[] {
  return chunk.metadata.orig_elements ? elementsFromBase64Gzip(chunk.metadata.orig_elements) : [];
}

/** Words of a text, for checking that chunking loses and reorders nothing. */
export function wordsOf(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

const word = fc.stringMatching(/^[a-z]{1,10}$/);
const sentence = fc
  .array(word, { minLength: 1, maxLength: 12 })
  .map((words) => `${words.join(' ')}.`.replace(/^./, (c) => c.toUpperCase()));
const prose = fc.array(sentence, { minLength: 1, maxLength: 30 }).map((sentences) => sentences.join(' '));

const textElement: fc.Arbitrary<Omit<Element, 'element_id' | 'metadata'>> = fc.oneof(
  { weight: 2, arbitrary: sentence.map((text) => ({ type: 'Title' as const, text })) },
  { weight: 5, arbitrary: prose.map((text) => ({ type: 'NarrativeText' as const, text })) },
  { weight: 2, arbitrary: sentence.map((text) => ({ type: 'ListItem' as const, text })) },
  { weight: 1, arbitrary: fc.constant({ type: 'PageBreak' as const, text: '' }) },
  { weight: 1, arbitrary: word.map((text) => ({ type: 'Header' as const, text })) },
);

const tableElement = fc
  .array(fc.array(fc.oneof(word, sentence), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 12 })
  .chain((rows) => fc.integer({ min: 0, max: 1 }).map((header) => ({ rows, header })));

/** Random documents: prose, titles, list items, page breaks, headers and tables over a few pages. */
export const arbitraryElements: fc.Arbitrary<Element[]> = fc
  .array(
    fc.tuple(
      fc.oneof({ weight: 9, arbitrary: textElement }, { weight: 1, arbitrary: tableElement }),
      fc.boolean(),
    ),
    { minLength: 0, maxLength: 40 },
  )
  .map((items) => {
    let page = 1;
    return items.map(([item, nextPage], index) => {
      if (nextPage && index % 3 === 0) page++;
      const metadata: ElementMetadata = { filename: 'doc.pdf', page_number: page, languages: ['eng'] };
      const element =
        'rows' in item
          ? table(item.rows, item.header, metadata)
          : el(item.type, item.text, item.type === 'PageBreak' ? {} : metadata);
      element.element_id = `${index}-${element.element_id}`;
      return element;
    });
  });
