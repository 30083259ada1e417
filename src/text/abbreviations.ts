/**
 * English abbreviation lists for the sentence splitter. Keys are matched lower-cased
 * (without the final period) unless they sit in CASED_AMBIGUOUS.
 *
 * Three behaviours after "abbr. Next":
 * - CONTINUE: never a boundary (titles before a name, "vs.", "e.g.").
 * - BEFORE_NUMBER: not a boundary when a number follows ("No. 5", "Fig. 3", "p. 55");
 *   otherwise an ordinary word ("He said no. Then ...").
 * - AMBIGUOUS: a boundary only when a typical sentence starter follows
 *   ("Briggs & Co. It closed" vs "Briggs & Co. at noon", "Inc. Chairman ...").
 */

export const CONTINUE = new Set<string>([
  'mr', 'mrs', 'ms', 'mx', 'messrs', 'mssrs', 'mme', 'mlle', 'dr', 'drs', 'prof', 'profs',
  'st', 'mt', 'ft', 'gen', 'sen', 'sens', 'rep', 'reps', 'gov', 'govs', 'lt', 'lieut',
  'col', 'capt', 'cpt', 'sgt', 'cpl', 'pvt', 'maj', 'cmdr', 'comdr', 'adm', 'brig', 'rev',
  'revd', 'hon', 'pres', 'supt', 'insp', 'det', 'fr', 'msgr', 'atty', 'gen', 'sr',
  'vs', 'v', 'cf', 'viz', 'approx', 'ca', 'incl', 'esp', 'e.g', 'i.e', 'eg', 'ie', 'resp',
  'excl', 'w.r.t', 'a.k.a', 'aka',
]);
// 'sr' sits in CONTINUE because "Sr." is mostly "Señor"/"Senior" before a name; "Jr." is AMBIGUOUS.

export const BEFORE_NUMBER = new Set<string>([
  'no', 'nos', 'nr', 'n°', 'fig', 'figs', 'p', 'pp', 'vol', 'vols', 'art', 'arts', 'ch',
  'chap', 'sec', 'secs', 'sect', 'eq', 'eqs', 'ref', 'refs', 'tab', 'para', 'pt', 'pts',
  'op', 'ex', 'ed', 'nb', 'tel', 'ext', 'vs', 'approx', 'ca', 'c', 'rs', 'inr', 'ph',
]);

export const AMBIGUOUS = new Set<string>([
  'inc', 'ltd', 'co', 'corp', 'cos', 'jr', 'bros', 'llc', 'plc', 'al', 'etc', 'dept',
  'univ', 'assn', 'assoc', 'est', 'govt', 'intl', 'natl', 'mfg', 'mgr', 'div', 'acad',
  'inst', 'ave', 'blvd', 'rd', 'hwy', 'sq', 'km', 'kg', 'lb', 'lbs', 'oz', 'mi', 'yr',
  'yrs', 'hr', 'hrs', 'min', 'mins', 'misc', 'eds', 'trans', 'ibid', 'cit', 'orig',
  'abbr', 'ph.d', 'm.d', 'b.a', 'm.a', 'b.sc', 'm.sc', 'wk', 'wks', 'mos',
  'jan', 'feb', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec',
  'ala', 'ariz', 'calif', 'colo', 'conn', 'fla', 'kan', 'kans', 'ky', 'minn', 'mont',
  'neb', 'nev', 'okla', 'penn', 'tenn', 'tex', 'vt', 'wis', 'wyo', 'dist', 'natl', 'mln',
]);

/**
 * Abbreviations that are also common lower-case words ("mar", "sat", "sun", "wed"):
 * they count only when written capitalised exactly as here.
 */
export const CASED_AMBIGUOUS = new Set<string>([
  'Mar', 'Mon', 'Tue', 'Tues', 'Wed', 'Thu', 'Thur', 'Thurs', 'Fri', 'Sat', 'Sun', 'Ill',
  'Ind', 'Miss', 'Mass', 'Wash', 'Del', 'Pa', 'Va', 'Ga', 'La', 'Mo', 'Md', 'Mich', 'Ore',
  'Ark', 'Fed', 'Est', 'Mil', 'Min',
]);

/**
 * Capitalised words that typically start a sentence. After an ambiguous abbreviation
 * ("U.S.", "Co.", "a.m.", an initial) only these make the period a boundary. The core
 * comes from Pragmatic Segmenter's SENTENCE_STARTERS; the rest are frequent sentence-
 * initial function words.
 */
export const SENTENCE_STARTERS = new Set<string>([
  'A', 'Being', 'Did', 'For', 'He', 'How', 'However', 'I', 'In', 'It', 'Millions', 'More',
  'She', 'That', 'The', 'There', 'They', 'We', 'What', 'When', 'Where', 'Who', 'Why',
  'An', 'And', 'As', 'At', 'But', 'By', 'Each', 'Even', 'Her', 'His', 'If', 'Its', 'My',
  'No', 'Not', 'Now', 'Of', 'On', 'One', 'Our', 'So', 'Some', 'Such', 'Then', 'These',
  'This', 'Those', 'Thus', 'To', 'Two', 'Was', 'Were', 'While', 'With', 'You', 'Your',
  'After', 'Also', 'Although', 'All', 'Because', 'Both', 'During', 'Here', 'Many', 'Most',
  'Since', 'Still', 'Their', 'Today', 'Yet', 'Meanwhile', 'Nevertheless', 'Moreover',
  'Furthermore', 'Other', 'Only', 'Once', 'Under', 'Until', 'Unlike', 'Every', 'Is',
  'Are', 'Can', 'Could', 'Do', 'Does', 'Has', 'Have', 'Had', 'Should', 'Will', 'Would',
  'Let', 'Please', 'Several', 'Last', 'Next', 'First', 'Finally', 'Instead', 'Indeed',
  'Therefore', 'Hence', 'Otherwise', 'Why', 'Which', 'Whether', 'Though', 'Yes',
  'Nor', 'Or', 'From', 'Into', 'About', 'Over', 'Among', 'Despite', 'Given', 'Later',
  'Earlier', 'Sales', 'Shares', 'Analysts', 'Officials', 'Prices',
]);
