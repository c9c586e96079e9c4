import { describe, expect, it } from 'vitest';
import type { ElementType } from '../elements/element-types.js';
import { classifyText, containsVerb, isAddress, isBulleted, stripBullet } from './text-type.js';

/**
 * What a reader would call each text. Written for this project (not copied from any test suite); the
 * groups follow the element types, with non-English text in each group where it applies.
 */
const CASES: [string, ElementType, string?][] = [
  // -- narrative: sentences, with or without a verb from the common-verb list --
  ['The operations team reduced average delivery time by twelve percent.', 'NarrativeText'],
  ['Costs stayed within the approved budget. Revenue grew faster than expected.', 'NarrativeText'],
  ['The attachment says hello to everyone.', 'NarrativeText'],
  ['Our technology allows you to certify your rights in minutes.', 'NarrativeText'],
  ['What is the plan for the next quarter?', 'NarrativeText'],
  ['Please find the signed contract attached.', 'NarrativeText'],
  ['This is a test email to use for unit tests.', 'NarrativeText'],
  ["We'll meet again next week to review the numbers.", 'NarrativeText'],
  ['Sales grew in every region except the north, where the weather hurt demand.', 'NarrativeText'],
  ['Make sure to RSVP!', 'NarrativeText'],
  ['Note: the office is closed on Friday.', 'NarrativeText'],
  ['I appreciate if you could let me know your interest in the list.', 'NarrativeText'],
  [
    'Roberts made 647 league appearances during his career, almost half of which were for Norwich.',
    'NarrativeText',
  ],
  ['The meeting was moved to Thursday because of the holiday', 'NarrativeText'],
  ['Le rapport annuel présente les résultats de la société pour l’année écoulée.', 'NarrativeText'],
  ['Todos los seres humanos nacen libres e iguales en dignidad y derechos.', 'NarrativeText'],
  ['Die Sitzung wurde wegen des Feiertags auf Donnerstag verschoben.', 'NarrativeText'],
  ['Все люди рождаются свободными и равными в своем достоинстве и правах.', 'NarrativeText'],
  ['אם אוכל לעזור לך בשאלות מקצועיות גרידא, אשמח לסייע.', 'NarrativeText'],
  [
    '是人都生而自由，在尊严和权利上一律平等。他们赋有理性和良心，并应以弟兄关系的精神相对待。',
    'NarrativeText',
  ],
  ['すべての人間は、生まれながらにして自由であり、かつ、尊厳と権利とについて平等である。', 'NarrativeText'],
  ['모든 인간은 태어날 때부터 자유로우며 그 존엄과 권리에 있어 동등하다.', 'NarrativeText'],
  // scripts written without spaces between words, or with their own word separator
  ['የሰው፡ልጅ፡ሁሉ፡ሲወለድ፡ነጻና፡በክብርና፡በመብትም፡እኩልነት፡ያለው፡ነው።', 'NarrativeText'],
  ['มนุษย์ทั้งหลายเกิดมามีอิสระและเสมอภาคกันในเกียรติศักดิ์และสิทธิ ต่างมีเหตุผลและมโนธรรม', 'NarrativeText'],
  ['လူတိုင်းသည် တူညီ လွတ်လပ်သော ဂုဏ်သိက္ခာဖြင့် လည်းကောင်း၊ မွေးဖွားလာသူများ ဖြစ်သည်။', 'NarrativeText'],
  ['ມະນຸດເກີດມາມີສິດເສລີພາບ ແລະ ສະເໝີໜ້າກັນໃນທາງກຽດຕິສັກ ແລະ ທາງສິດ.', 'NarrativeText'],
  ['འགྲོ་བ་མིའི་རིགས་རྒྱུད་ཡོངས་རྡོལ་དབང་ཆ་འདྲ་མཉམ་དུ་སྐྱེས་ཤིང༌།', 'NarrativeText'],
  ['꧋ꦱꦧꦼꦤ꧀ꦲꦸꦮꦺꦴꦁꦏꦭꦲꦶꦂꦫꦏꦺꦏꦤ꧀ꦛꦶꦩꦂꦢꦶꦏꦭꦤ꧀ꦢꦂꦧꦺꦩꦂꦠꦧꦠ꧀ꦭꦤ꧀ꦲꦏ꧀ꦲꦏ꧀ꦏꦁꦥꦝ꧉\u200b', 'NarrativeText'],
  // -- titles: short headings without sentence punctuation --
  ['Quarterly Operations Review', 'Title'],
  ['Next Steps', 'Title'],
  ['CHAPTER I', 'Title'],
  ['Introduction', 'Title'],
  ['1.2 Scope of the Study', 'Title'],
  ['3. Results', 'Title'],
  ['Important points:', 'Title'],
  ['Appendix A: Data Sources', 'Title'],
  ['RISK FACTORS', 'Title'],
  ['How to Install the Package', 'Title'],
  ['Résumé des résultats', 'Title'],
  ['Zusammenfassung der Ergebnisse', 'Title'],
  ['Глава первая', 'Title'],
  ['第一章 总则', 'Title'],
  ['สรุปผลการประชุม', 'Title'],
  ['Part II (continued)', 'Title'],
  ['2.3.1 Data Collection', 'Title'],
  // -- list items: bullets removed, numbered items kept whole --
  [
    '• Hire two more dispatchers for the night shift.',
    'ListItem',
    'Hire two more dispatchers for the night shift.',
  ],
  ['- Roses are red', 'ListItem', 'Roses are red'],
  ['* Violets are blue', 'ListItem', 'Violets are blue'],
  ['● Replace the routing software', 'ListItem', 'Replace the routing software'],
  ['▪ Item with a square bullet', 'ListItem', 'Item with a square bullet'],
  ['– en dash item', 'ListItem', 'en dash item'],
  ['1. Install the package with npm.', 'ListItem'],
  ['2) Run the tests before you commit.', 'ListItem'],
  ['(a) the buyer pays the shipping costs;', 'ListItem'],
  ['iv. a fourth roman-numbered point that explains itself.', 'ListItem'],
  ['10. Keep the receipts for seven years.', 'ListItem'],
  ['• Élément de liste en français', 'ListItem', 'Élément de liste en français'],
  ['· 项目符号列表', 'ListItem', '项目符号列表'],
  // -- numbers and other fragments --
  ['2023', 'UncategorizedText'],
  ['$1,200.00', 'UncategorizedText'],
  ['12.5%', 'UncategorizedText'],
  ['(555) 123-4567', 'UncategorizedText'],
  ['2024-03-05', 'UncategorizedText'],
  ['Hi All,', 'UncategorizedText'],
  ['Best regards,', 'UncategorizedText'],
  ['Sincerely,', 'UncategorizedText'],
  ['--', 'UncategorizedText'],
  ['_____', 'UncategorizedText'],
  ['A1 B2 C3 D4 E5 F6', 'UncategorizedText'],
  ['Meeting ID 869 1664 1575', 'UncategorizedText'],
  ['https://example.com/docs/install', 'UncategorizedText'],
  ['x = 12; y = 7; z = x * y', 'UncategorizedText'],
  ['Tel. +49 30 1234567', 'UncategorizedText'],
  ['© 2024', 'UncategorizedText'],
  // -- page numbers --
  ['Page 3', 'PageNumber'],
  ['Page 3 of 10', 'PageNumber'],
  ['- 12 -', 'PageNumber'],
  ['Seite 4 von 9', 'PageNumber'],
  // -- e-mail addresses --
  ['ann.smith@example.com', 'EmailAddress'],
  ['support+billing@mail.example.co.uk', 'EmailAddress'],
  ['  bob@example.org  ', 'EmailAddress', 'bob@example.org'],
  // -- addresses --
  ['1600 Amphitheatre Parkway, Mountain View, CA 94043', 'Address'],
  ['350 Fifth Avenue, New York, NY 10118', 'Address'],
  ['221B Baker Street, London NW1 6XE', 'Address'],
  ['10 Downing Street, London SW1A 2AA', 'Address'],
  ['Doylestown, PA 18901', 'Address'],
  ['8uPr5e8gVGVzbGEgLSDw4/j5+iDn+unu5CDy7CDk4ff55CDs+On55e0g', 'UncategorizedText'],
  ['Pariser Platz 1, 10117 Berlin', 'Address'],
  ['12 rue de Rivoli, 75004 Paris', 'Address'],
  // -- numbered captions name their figure or table: FigureCaption --
  ['Figure 3: Revenue by region, 2019-2023', 'FigureCaption'],
  ['Fig. 2. Architecture of the ingestion pipeline', 'FigureCaption'],
  ['Table 2. Results of the customer survey', 'FigureCaption'],
  // -- source lines: not headings, not prose; without layout no figure is known → UncategorizedText --
  ['Source: U.S. Census Bureau, 2020 American Community Survey', 'UncategorizedText'],
  ['Sources: company filings; analyst estimates.', 'UncategorizedText'],
  ['Source: https://example.com/data/2023', 'UncategorizedText'],
  ['SOURCE: Bureau of Labor Statistics', 'UncategorizedText'],
  ['Source: regional statistics office, 2024 survey.', 'UncategorizedText'],
  ['Quelle: Statistisches Bundesamt (Destatis), 2023', 'UncategorizedText'],
  ['Fuente: Instituto Nacional de Estadística', 'UncategorizedText'],
  ['Source code for the examples is available on request.', 'NarrativeText'],
  ['Figure out what went wrong before the next release.', 'NarrativeText'],
  ['Table of Contents', 'Title'],
  ['Sources of Funding', 'Title'],
  // -- dates and datelines --
  ['Dec 13, 2022 - Press ISW', 'UncategorizedText'],
  ['December 13, 2022', 'UncategorizedText'],
  ['13 December 2022', 'UncategorizedText'],
  ['Monday, March 4, 2024', 'UncategorizedText'],
  ['March 2024 Update', 'Title'],
  // -- prose whose only verb is a regular past tense or a contraction --
  ['Goods delivered to the warehouse on time', 'NarrativeText'],
  ['The parcel was delivered yesterday', 'NarrativeText'],
  ['All parties agreed to the revised schedule', 'NarrativeText'],
  ['The new owners entered the market in spring', 'NarrativeText'],
  ['We’ll send the minutes after the call', 'NarrativeText'],
  ['Thanks for joining the call today', 'NarrativeText'],
  ['This is a test', 'NarrativeText'],
  // -- headings with nouns that look like verb forms --
  ['Minutes of the annual meeting', 'Title'],
  ['A hundred years of the city library', 'Title'],
  ['Notes on the building and its ceiling', 'Title'],
  ["Director's report on the year", 'Title'],
  ['The use of force by the police', 'Title'],
  // -- long text that only looks like a heading --
  ['THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG.', 'UncategorizedText'],
  ['Total revenue, net of returns,', 'UncategorizedText'],
];

/** Words in context: does the text have a verb? The last word of each text is the one tested. */
const VERB_CASES: [string, boolean][] = [
  // regular past tenses and participles, including the -red, -eed and short forms
  ['goods delivered', true],
  ['the parcel was', true],
  ['everyone entered', true],
  ['they offered', true],
  ['it was considered', true],
  ['fields required', true],
  ['both sides agreed', true],
  ['prisoners freed', true],
  ['the tool used', true],
  ['the bank referred', true],
  // -ing forms that are verbs (gerunds and participles)
  ['thanks for joining', true],
  ['we keep travelling', true],
  ['looking', true],
  ['by calling', true],
  // contractions
  ["we'll", true],
  ['we’ll', true],
  ["it's", true],
  ['they’re', true],
  ["don't", true],
  ["I'm", true],
  ["she'd", true],
  // auxiliaries after demonstratives, which are also pronouns
  ['This is', true],
  ['that was', true],
  ['these have', true],
  // nouns and adjectives that end like verb forms
  ['a hundred', false],
  ['kindred', false],
  ['sacred', false],
  ['naked', false],
  ['speed', false],
  ['indeed', false],
  ['seed', false],
  ['the bed', false],
  ['something', false],
  ['nothing', false],
  ['during', false],
  ['morning', false],
  ['evening', false],
  ['spring', false],
  ['string', false],
  ['ceiling', false],
  ['sibling', false],
  ['wedding', false],
  // a determiner before the word makes it a noun
  ['the meeting', false],
  ['a building', false],
  ['the feeling', false],
  ['the use', false],
  ['a call', false],
  ['our work', false],
  // possessives are not "is"
  ["Director's", false],
  ["women's", false],
  // names in capitals are not verbs
  ['the United', false],
  ['Acme Limited', false],
];

describe('isBulleted', () => {
  it('knows Unicode bullets and the private-use bullets of Symbol and Wingdings fonts', () => {
    for (const text of ['• Item', '\uf0b7 Item', '\uf0a7 Life cycle course', '\uf0d8 Next step'])
      expect(isBulleted(text)).toBe(true);
    expect(stripBullet('\uf0a7 Life cycle course')).toBe('Life cycle course');
    // A private-use letter of the Symbol font (alpha) is not a bullet.
    expect(isBulleted('\uf061 = 0.5')).toBe(false);
  });
});

describe('containsVerb', () => {
  it.each(VERB_CASES)('%j → %s', (text, expected) => {
    expect(containsVerb(text)).toBe(expected);
  });
});

describe('isAddress', () => {
  it.each([
    ['Pariser Platz 1, 10117 Berlin', true],
    ['Hauptstraße 12a, 8010 Graz', true],
    ['1600 Amphitheatre Parkway, Mountain View, CA 94043', true],
    ['Dec 13, 2022 - Press ISW', false],
    ['March 5, 2021 Berlin', false],
    ['Jan 3, 2024 Update', false],
    ['Chapter 3, 2021 edition', false],
  ])('%j → %s', (text, expected) => {
    expect(isAddress(text)).toBe(expected);
  });
});

describe('classifyText', () => {
  it.each(CASES)('%j → %s', (text, type, expectedText) => {
    const result = classifyText(text);
    expect(result.type).toBe(type);
    expect(result.text).toBe(expectedText ?? text.trim());
  });

  it('has a case for each kind of text', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(80);
  });
});
