// Function words of the languages the planner detects: enough to keep them from
// dominating BM25 and from cluttering keyword queries. Deliberately short.
const LISTS: Record<string, string> = {
  en:
    "a an and are as at be been but by can could did do does for from had has have how i if in into is it its me my no not of on or our please " +
    "should so tell than that the their them then there these they this those to us was we were what when where which who whom why will with " +
    "would you your about explain",
  de:
    "der die das den dem des ein eine einen einem einer und oder ist sind war wie was warum wer wo wann welche welcher welches nicht zu von mit " +
    "sich auf für im in an es gibt bei aus auch noch nach über um sie er wir ich ihr sein seine",
  fr:
    "le la les l un une des du de et ou est sont comment pourquoi quel quelle quels quelles qui que qu quoi pour dans en sur au aux ce cette ces " +
    "il elle ils on ne pas par avec se",
  es: "el la los las y o es son cómo como qué que por una uno del para con en al lo se su sus cuál cuáles dónde cuándo sobre",
  it: "il lo la le gli i e è sono come perché che una uno del della delle dei di da per con su non cosa quali nel alla al",
  pt: "o os as e é são como porque que uma um do da dos das em para com não qual quais",
  nl: "de het een en is zijn hoe wat waarom van op te voor met niet welke wordt",
};

// Stop words of one language that are content words in English ("war", "die", "come").
const AMBIGUOUS = new Set([
  "die",
  "war",
  "son",
  "come",
  "con",
  "hoe",
  "dos",
  "gift",
  "also",
  "same",
  "pie",
  "sale",
  "fin",
]);

const split = (s: string) => s.split(/\s+/).filter(Boolean);

/** Lower-case stop words of en, de, fr, es, it, pt, nl, minus those that are English content words. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  Object.values(LISTS)
    .flatMap(split)
    .filter((w) => !AMBIGUOUS.has(w) || LISTS.en!.includes(` ${w} `)),
);

/** The full stop list of one language (plus English, the lingua franca of queries). */
export function stopwordsFor(language: string): ReadonlySet<string> {
  // Built once per language: every run asks, and the lists never change.
  let set = built.get(language);
  if (!set) {
    set = new Set([...split(LISTS.en!), ...split(LISTS[language] ?? "")]);
    built.set(language, set);
  }
  return set;
}
const built = new Map<string, ReadonlySet<string>>();
