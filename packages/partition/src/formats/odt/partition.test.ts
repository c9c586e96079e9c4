import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { partition, ServiceError } from '../../index.js';

const NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" ' +
  'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:xlink="http://www.w3.org/1999/xlink"';

/** An ODF text package written from XML strings: the format is simple enough to author directly. */
export function odtPackage(body: string, masterPage = ''): Uint8Array {
  const content = `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${NS}><office:automatic-styles><style:style style:name="T1" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style></office:automatic-styles><office:body><office:text>${body}</office:text></office:body></office:document-content>`;
  const styles = `<?xml version="1.0" encoding="UTF-8"?><office:document-styles ${NS}><office:master-styles><style:master-page style:name="Standard">${masterPage}</style:master-page></office:master-styles></office:document-styles>`;
  return zipSync({
    mimetype: [strToU8('application/vnd.oasis.opendocument.text'), { level: 0 }],
    'content.xml': strToU8(content),
    'styles.xml': strToU8(styles),
    'META-INF/manifest.xml': strToU8('<manifest/>'),
  });
}

describe('odt partitioner', () => {
  it('reads headings, paragraphs, nested lists, tables, header and footer', async () => {
    const data = odtPackage(
      '<text:h text:outline-level="1">Project Plan</text:h>' +
        '<text:p>The team will deliver the <text:span text:style-name="T1">first release</text:span> in May, see <text:a xlink:href="https://example.com">the roadmap</text:a>.</text:p>' +
        '<text:list><text:list-item><text:p>Design the schema</text:p><text:list><text:list-item><text:p>Review it with the users</text:p></text:list-item></text:list></text:list-item></text:list>' +
        '<text:soft-page-break/>' +
        '<text:h text:outline-level="2">Budget</text:h>' +
        '<table:table><table:table-header-rows><table:table-row><table:table-cell><text:p>Item</text:p></table:table-cell><table:table-cell><text:p>Cost</text:p></table:table-cell></table:table-row></table:table-header-rows>' +
        '<table:table-row><table:table-cell table:number-columns-spanned="2"><text:p>Servers 100</text:p></table:table-cell><table:covered-table-cell/></table:table-row></table:table>',
      '<style:header><text:p>Plan header</text:p></style:header><style:footer><text:p>Plan footer</text:p></style:footer>',
    );
    const elements = await partition({ data, filename: 'plan.odt' });
    expect(elements.map((e) => [e.type, e.text, e.metadata.category_depth, e.metadata.page_number])).toEqual([
      ['Header', 'Plan header', undefined, 1],
      ['Title', 'Project Plan', 0, 1],
      ['NarrativeText', 'The team will deliver the first release in May, see the roadmap.', undefined, 1],
      ['ListItem', 'Design the schema', 0, 1],
      ['ListItem', 'Review it with the users', 1, 1],
      ['Title', 'Budget', 1, 2],
      ['Table', 'Item Cost\nServers 100', undefined, 2],
      ['Footer', 'Plan footer', undefined, 2],
    ]);
    const prose = elements[2]!.metadata;
    expect(prose.emphasized_text_contents).toEqual(['first release']);
    expect(prose.links).toEqual([{ text: 'the roadmap', url: 'https://example.com', start_index: 52 }]);
    expect(elements[6]!.metadata.text_as_html).toBe(
      '<table><thead><tr><th>Item</th><th>Cost</th></tr></thead><tbody><tr><td colspan="2">Servers 100</td></tr></tbody></table>',
    );
  });

  it('reports a package without content.xml as corrupt', async () => {
    const data = zipSync({ mimetype: [strToU8('application/vnd.oasis.opendocument.text'), { level: 0 }] });
    await expect(partition({ data, filename: 'x.odt' })).rejects.toSatisfy(
      (error) => error instanceof ServiceError && error.code === 'corrupt_document',
    );
  });
});
