import { describe, expect, it } from 'vitest';
import { chunkSync } from './chunk.js';
import { el } from './test-support/elements.js';

const coordinates = {
  points: [[0, 0]] as [number, number][],
  system: 'PointSpace',
  layout_width: 1,
  layout_height: 1,
};

describe('chunk metadata', () => {
  const elements = [
    el('Header', 'Report', {
      filename: 'a.docx',
      filetype: 'docx-mime',
      header_footer_type: 'primary',
      languages: ['eng'],
    }),
    el('Title', 'Intro', {
      filename: 'a.docx',
      page_number: 2,
      parent_id: 'p',
      category_depth: 0,
      coordinates,
      languages: ['eng'],
      emphasized_text_contents: ['Intro'],
      emphasized_text_tags: ['b'],
      data_source: { url: 'file:///a.docx', record_locator: { path: '/a.docx' } },
    }),
    el('NarrativeText', 'See  the\tsite now.', {
      filename: 'a.docx',
      page_number: 3,
      languages: ['fra', 'eng'],
      links: [{ text: 'site', url: 'https://x.test', start_index: 9 }],
      link_texts: ['site'],
      link_urls: ['https://x.test'],
      custom_key: 'kept',
    }),
  ];
  const [chunk] = chunkSync(elements, { chunking_strategy: 'basic', include_orig_elements: false });

  it('takes the first defined value of single-valued fields', () => {
    expect(chunk!.metadata).toMatchObject({
      filename: 'a.docx',
      filetype: 'docx-mime',
      page_number: 2,
      data_source: { url: 'file:///a.docx', record_locator: { path: '/a.docx' } },
      custom_key: 'kept',
    });
  });

  it('joins languages in order of appearance, each once', () => {
    expect(chunk!.metadata.languages).toEqual(['eng', 'fra']);
  });

  it('drops fields that describe one element (coordinates, parent links, depth, header type, orig_elements when off)', () => {
    for (const key of [
      'coordinates',
      'parent_id',
      'category_depth',
      'header_footer_type',
      'orig_elements',
      'is_continuation',
    ]) {
      expect(chunk!.metadata).not.toHaveProperty(key);
    }
  });

  it('concatenates emphasis and link lists and shifts link offsets into the chunk text', () => {
    expect(chunk!.text).toBe('Report\n\nIntro\n\nSee the site now.');
    expect(chunk!.metadata.emphasized_text_contents).toEqual(['Intro']);
    expect(chunk!.metadata.emphasized_text_tags).toEqual(['b']);
    const [link] = chunk!.metadata.links!;
    expect(chunk!.text.slice(link!.start_index, link!.start_index + link!.text.length)).toBe('site');
    expect(chunk!.metadata.link_texts).toEqual(['site']);
  });

  it('does not share objects with the input elements', () => {
    chunk!.metadata.data_source!.url = 'changed';
    expect(elements[1]!.metadata.data_source!.url).toBe('file:///a.docx');
  });

  it('keeps links and emphasis only on the pieces of a split element that contain them', () => {
    const long = el('NarrativeText', 'First part of the text. Second part has the link here.', {
      links: [{ text: 'link', url: 'https://l.test', start_index: 44 }],
      emphasized_text_contents: ['First'],
      emphasized_text_tags: ['i'],
    });
    const pieces = chunkSync([long], { chunking_strategy: 'basic', max_characters: 32 });
    expect(pieces.map((p) => p.text)).toEqual(['First part of the text.', 'Second part has the link here.']);
    expect(pieces[0]!.metadata.links).toBeUndefined();
    expect(pieces[0]!.metadata.emphasized_text_contents).toEqual(['First']);
    expect(pieces[1]!.metadata.links).toEqual([{ text: 'link', url: 'https://l.test', start_index: 20 }]);
    expect(pieces[1]!.metadata.emphasized_text_contents).toBeUndefined();
  });
});
