/**
 * The most frequent function words of the Latin-script languages that matter most in practice. Trigram
 * models (franc) need a few hundred letters to be reliable and confuse close languages on short text
 * (English with Scots, Spanish with Galician); function words settle those cases cheaply. A word in
 * several lists votes for each of those languages; one-letter words are ignored.
 */
const LISTS: Record<string, string> = {
  eng: 'the and of to is in that it was for on are with as this be at by from have not or but an which were they their has had you we will would been there can what all',
  spa: 'el los las del por una para con que como pero más este esta son fue sus está también entre cuando muy sin sobre todo hay ser desde nos ya',
  fra: 'le les des est une dans pour pas qui sur au avec ce sont du par plus elle il nous vous mais ont été aux cette ses ou',
  deu: 'der die das und ist nicht mit sich auf für ein eine dem den von zu auch es sie wir ich bei nach wird werden sind oder aus dass wie',
  ita: 'il che di della sono per non una gli nel con del alla anche come più questo essere sono ha dei delle nella ma lo',
  por: 'os das dos não uma para com que por mais como foi são pelo pela sua seu também ao aos ela você muito já nos',
  nld: 'het een van en is dat zijn voor niet met ook aan er maar om hij dit wordt werd door naar bij uit nog wel',
  swe: 'och att det som är på för med inte av till den har jag ett var om från också vid eller men kan ska',
  dan: 'og at det som er på for med ikke af til den har jeg et var om fra også ved eller men kan skal',
  nor: 'og å det som er på for med ikke av til den har jeg et var om fra også ved eller men kan skal ble',
  fin: 'ja on ei se että hän oli ovat mutta kuin myös tai jos ole voi mukaan sekä kun niin',
  pol: 'się nie jest że na do jak ale po tak już od przez dla czy tym które jego być lub oraz',
  ces: 'se je na že to jako ale jsou pro jeho které nebo být jsem také však podle při aby',
  ron: 'și în care este cu pe din la nu un o să mai fost sunt pentru acest această ca dar',
  hun: 'a az és hogy nem egy is van meg volt csak már mint még ez de vagy ki azt',
  tur: 've bir bu da de için ile ne olarak daha çok gibi kadar ama olan sonra en var',
  cat: 'els les per amb que una del dels són és als però seu seva aquesta aquest també',
  ind: 'yang dan di itu dengan untuk ini dari dalam tidak akan pada juga ke ada oleh atau karena',
};

/** Word → the languages whose list has it (a shared word votes for each of them). */
function buildIndex(): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const [language, words] of Object.entries(LISTS)) {
    for (const word of words.split(' ')) {
      if (word.length < 2) continue; // "a", "e", "i" are words in too many languages
      index.set(word, [...(index.get(word) ?? []), language]);
    }
  }
  return index;
}

const WORD_TO_LANGUAGES = buildIndex();

export const STOPWORD_LANGUAGES: ReadonlySet<string> = new Set(Object.keys(LISTS));

/** Function-word hits per language for a list of lower-case words. */
export function stopwordHits(words: readonly string[]): Map<string, number> {
  const hits = new Map<string, number>();
  for (const word of words) {
    for (const language of WORD_TO_LANGUAGES.get(word) ?? [])
      hits.set(language, (hits.get(language) ?? 0) + 1);
  }
  return hits;
}
