import type { CaseSource, EvalCase, ExpectedElement } from '../types.js';

/** Plain-text documents written from a known outline. */
function textCase(
  name: string,
  expected: ExpectedElement[],
  render: (e: ExpectedElement) => string,
): EvalCase {
  const body = expected.map(render).join('\n\n');
  return {
    name,
    format: 'txt',
    filename: `${name.split('/')[1]}.txt`,
    data: new TextEncoder().encode(body),
    expected,
  };
}

const report: ExpectedElement[] = [
  { type: 'Title', text: 'Quarterly Operations Review' },
  {
    type: 'NarrativeText',
    text: 'The operations team reduced average delivery time by twelve percent. Costs stayed within the approved budget for the quarter.',
  },
  { type: 'Title', text: 'Next Steps' },
  { type: 'ListItem', text: 'Hire two more dispatchers for the night shift.' },
  { type: 'ListItem', text: 'Replace the routing software before the holiday season.' },
  {
    type: 'NarrativeText',
    text: 'We will report progress on these items at the next review meeting in March.',
  },
];

export const source: CaseSource = {
  area: 'text',
  async cases() {
    return [
      textCase('txt/report', report, (e) => (e.type === 'ListItem' ? `• ${e.text}` : e.text)),
      textCase('txt/report-wrapped', report, (e) =>
        (e.type === 'ListItem' ? `- ${e.text}` : e.text).replace(/(.{1,60})(\s|$)/g, '$1\n').trim(),
      ),
    ];
  },
};
