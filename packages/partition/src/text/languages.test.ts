import { describe, expect, it } from 'vitest';
import { partition } from '../pipeline/partition.js';
import { detectLanguages, toIso6393 } from './languages.js';

describe('detectLanguages', () => {
  it.each([
    // Short English, which trigram models often call Scots, Catalan or French:
    ['Make sure to RSVP!', 'eng'],
    ['The quick brown fox jumps over the lazy dog.', 'eng'],
    ['Hire two more dispatchers for the night shift.', 'eng'],
    ['This is a test email to use for unit tests.', 'eng'],
    ['Hamburgers are delicious', 'eng'],
    // Tables and names: plain ASCII without function words is taken as English.
    ['Stanley Cups Team Location Blues STL Flyers PHI Maple Leafs TOR', 'eng'],
    ['Year Month Revenue Costs 2022 1 123 -123', 'eng'],
    ['Todos los seres humanos nacen libres e iguales en dignidad y derechos.', 'spa'],
    ['Tous les êtres humains naissent libres et égaux en dignité et en droits.', 'fra'],
    ['Alle Menschen sind frei und gleich an Würde und Rechten geboren.', 'deu'],
    ['Tutti gli esseri umani nascono liberi ed eguali in dignità e diritti.', 'ita'],
    ['Todos os seres humanos nascem livres e iguais em dignidade e em direitos.', 'por'],
    ['Alle mensen worden vrij en gelijk in waardigheid en rechten geboren.', 'nld'],
    ['Alla människor är födda fria och lika i värde och rättigheter.', 'swe'],
    ['Wszyscy ludzie rodzą się wolni i równi pod względem swej godności i swych praw.', 'pol'],
    ['Все люди рождаются свободными и равными в своем достоинстве и правах.', 'rus'],
    ['Όλοι οι άνθρωποι γεννιούνται ελεύθεροι και ίσοι στην αξιοπρέπεια και τα δικαιώματα.', 'ell'],
    ['يولد جميع الناس أحرارًا متساوين في الكرامة والحقوق.', 'ara'],
    ['כל בני האדם נולדו בני חורין ושווים בערכם ובזכויותיהם.', 'heb'],
    ['是人都生而自由，在尊严和权利上一律平等。', 'zho'],
    ['すべての人間は、生まれながらにして自由であり、かつ、尊厳と権利とについて平等である。', 'jpn'],
    ['모든 인간은 태어날 때부터 자유로우며 그 존엄과 권리에 있어 동등하다.', 'kor'],
    ['सभी मनुष्यों को गौरव और अधिकारों के मामले में जन्मजात स्वतन्त्रता और समानता प्राप्त है।', 'hin'],
  ])('%j → %s', (text, expected) => {
    expect(detectLanguages(text)?.[0]).toBe(expected);
  });

  it('says nothing about text too short to tell, or made of addresses', () => {
    expect(detectLanguages('OK')).toBeUndefined();
    expect(detectLanguages('12345 67890')).toBeUndefined();
    expect(detectLanguages('https://example.com/some/long/path ann@example.com')).toBeUndefined();
  });

  it('lists every language that covers a good share of a mixed document, most first', () => {
    const english =
      'All human beings are born free and equal in dignity and rights. They are endowed with reason and conscience and should act towards one another in a spirit of brotherhood. ';
    const spanish =
      'Todos los seres humanos nacen libres e iguales en dignidad y derechos y, dotados como están de razón y conciencia, deben comportarse fraternalmente los unos con los otros. ';
    expect(detectLanguages(english.repeat(3) + spanish)).toEqual(['eng', 'spa']);
    expect(detectLanguages(english.repeat(30) + spanish)).toEqual(['eng']);
  });

  it('can leave short ASCII undecided, for per-element detection', () => {
    expect(detectLanguages('Stanley Cups Team Location', { asciiIsEnglish: false })).toBeUndefined();
    expect(detectLanguages('Stanley Cups Team Location')).toEqual(['eng']);
  });
});

describe('languages in partition metadata', () => {
  const utf8 = (text: string) => new TextEncoder().encode(text);
  const spanishDoc =
    'Capítulo Uno\n\nTodos los seres humanos nacen libres e iguales en dignidad y derechos y, dotados como están de razón y conciencia, deben comportarse fraternalmente los unos con los otros.\n\nMesa Grande Roja\n';

  it('detects once per document by default', async () => {
    const elements = await partition({ data: utf8(spanishDoc), filename: 'es.txt' });
    expect(elements.map((element) => element.metadata.languages)).toEqual([['spa'], ['spa'], ['spa']]);
  });

  it('detects per element on request; short elements inherit the document languages', async () => {
    const doc = `${spanishDoc}\nThe committee will publish the English translation of this chapter next week.\n`;
    const elements = await partition(
      { data: utf8(doc), filename: 'mixed.txt' },
      { detect_language_per_element: true },
    );
    const byText = new Map(elements.map((element) => [element.text, element.metadata.languages]));
    expect(byText.get('Mesa Grande Roja')).toEqual(['spa', 'eng']);
    expect(
      byText.get('The committee will publish the English translation of this chapter next week.'),
    ).toEqual(['eng']);
  });

  it('uses the languages the caller gives, normalised to ISO 639-3', async () => {
    const elements = await partition(
      { data: utf8(spanishDoc), filename: 'es.txt' },
      { languages: ['es', 'en'] },
    );
    expect(elements[0]!.metadata.languages).toEqual(['spa', 'eng']);
  });

  it('refuses an unknown language code with invalid_option', async () => {
    await expect(
      partition({ data: utf8(spanishDoc), filename: 'es.txt' }, { languages: ['xx-nope'] }),
    ).rejects.toMatchObject({
      code: 'invalid_option',
    });
  });
});

describe('toIso6393', () => {
  it.each([
    ['en', 'eng'],
    ['eng', 'eng'],
    ['EN-us', 'eng'],
    ['chi_sim', 'zho'],
    ['de', 'deu'],
  ])('%s → %s', (code, expected) => {
    expect(toIso6393(code)).toBe(expected);
  });
});
