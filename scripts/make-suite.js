#!/usr/bin/env node
/**
 * Writes the selection suite (corpora/suite/*.json): one task/mix pair per domain, each mix
 * ~1.5 MB with the in-domain source at 25-35% of the bytes, a near-domain distractor
 * (medical leaflets vs bio, finance vs news, bio vs cs, news vs speeches, ...), and
 * line-structured or hard-wrapped documents (OHSUMED, Reuters, Gutenberg, leaflets, ABC).
 * Tasks never share a document with their mix: separate task datasets where they exist,
 * else a held-out document split of the source (`split`). Also writes corpora/suite-hard/
 * (a limit, not used to choose), corpora/suite-check/ (mixes of kinds the suite lacks, built
 * after the default was chosen, to check it), corpora/suite-avoid/ (five check mixes with
 * and without `fit --avoid`) and corpora/suite-fresh/ (five mixes from pairings no other suite
 * uses, built after every choice) and corpora/suite-probe/ (a question task and four
 * more topics within a genre) and corpora/suite-raw/ (two suite tasks as their datasets
 * ship them, labels kept). Run: node scripts/make-suite.js
 */
import { writeFileSync, mkdirSync } from 'node:fs';

const C = 'corpora/';
const SRC = {
  bio: [
    { files: [`${C}bio-ohsumed/docs.jsonl.gz`], format: 'jsonl-text', w: 0.5, note: 'MEDLINE abstracts: title line, then one sentence per line (line-structured).' },
    { files: [`${C}bio-pubmedqa/ori_pqal.json.gz`], format: 'pubmedqa', w: 0.2 },
    { files: [`${C}bio-hallmarks-of-cancer/docs.jsonl.gz`], format: 'jsonl-text', normalize: ['detokenize'], w: 0.3, note: 'one tokenised sentence per line: detokenised.' },
  ],
  cs: [
    { files: [`${C}cs-scisummnet-acl-papers/docs.jsonl.gz`], format: 'scisummnet', parts: 'full', chunkChars: 4000, w: 0.6, note: 'ACL papers, cut into ~4,000-character pieces.' },
    { files: [`${C}cs-scitldr-abstracts/train.jsonl.gz`], format: 'jsonl-sentences', field: 'source', w: 0.4 },
  ],
  news: [
    { files: [`${C}news-bbc/docs.jsonl.gz`], format: 'jsonl-text', where: { field: 'category', notIn: ['business'] }, w: 0.6, note: 'BBC politics, sport, entertainment, tech: its business stories are finance text, which would make the news/finance labels disagree with the text.' },
    { files: [`${C}news-abc-australia/rural.txt.gz`, `${C}news-abc-australia/science.txt.gz`], format: 'lines', docs: 'blank-line', w: 0.4, note: 'one sentence per line.' },
  ],
  finance: [
    { files: [`${C}news-reuters21578-apte/docs.jsonl.gz`], format: 'jsonl-text', w: 0.75, note: 'upper-case headline, hard-wrapped body.' },
    { files: [`${C}news-wsj-ptb-sample/docs.jsonl.gz`], format: 'jsonl-text', w: 0.15 },
    { files: [`${C}finance-seeking-alpha-summaries/seeking_alpha_articles_new.csv.gz`], format: 'csv', columns: ['summary'], w: 0.1 },
  ],
  medical: [
    { files: [`${C}medical-patient-leaflets/docs.jsonl.gz`], format: 'jsonl-text', normalize: ['strip-tags'], w: 1, note: 'ABPI leaflets, SGML stripped: headings and short lines.' },
  ],
  forum: [
    { files: [`${C}forum-20newsgroups/docs.jsonl.gz`], format: 'jsonl-text', normalize: ['strip-email-headers'], w: 1, note: 'Usenet posts, headers and quoted lines removed.' },
  ],
  fiction: [
    { files: [`${C}fiction-gutenberg/docs.jsonl.gz`], format: 'jsonl-text', chunkChars: 4000, w: 1, note: 'Gutenberg books, hard-wrapped, cut into ~4,000-character pieces.' },
  ],
  reviews: [
    { files: [`${C}reviews-movie-polarity2/docs.jsonl.gz`], format: 'jsonl-text', normalize: ['detokenize', 'truecase'], w: 1, note: 'lower-cased, tokenised, one sentence per line: detokenised, truecased.' },
  ],
  speech: [
    { files: [`${C}speech-us-presidential/docs.jsonl.gz`], format: 'jsonl-text', chunkChars: 4000, w: 1, note: 'inaugural + State of the Union speeches, cut into ~4,000-character pieces.' },
  ],
  wiki: [
    { files: [`${C}wiki-wikitext2/wiki.test.tokens.gz`], format: 'wikitext', normalize: ['strip-unk', 'detokenize'], chunkChars: 4000, w: 1, note: 'wikitext-2 test split (the task is the valid split).' },
  ],
  web: [
    { files: [`${C}web-webtext/docs.jsonl.gz`], format: 'jsonl-text', chunkChars: 2000, w: 1, note: 'overheard quotes, film script, personal ads, wine reviews: one item per line.' },
  ],
};

// Topic within a source (suite-check): BBC sport or tech against BBC's other stories, Usenet
// groups on the same topic, and cs abstracts.
const bbc = (categories, note) => ({ files: [`${C}news-bbc/docs.jsonl.gz`], format: 'jsonl-text', where: { field: 'category', in: categories }, w: 1, note });
const usenet = (groups, note) => ({ ...SRC.forum[0], where: { field: 'newsgroup', in: groups }, note });
SRC.sport = [bbc(['sport'], 'BBC sport stories.')];
SRC.tech = [bbc(['tech'], 'BBC technology stories.')];
SRC['news-other'] = [bbc(['politics', 'entertainment'], 'BBC politics and entertainment: the same source and format as the in-domain stories.')];
SRC['forum-sport'] = [usenet(['rec.sport.baseball', 'rec.sport.hockey'], 'Usenet baseball and hockey groups, headers and quoted lines removed.')];
SRC['forum-tech'] = [usenet(['comp.graphics', 'comp.os.ms-windows.misc', 'comp.sys.ibm.pc.hardware', 'comp.sys.mac.hardware', 'comp.windows.x', 'sci.electronics'], 'Usenet computing and electronics groups, headers and quoted lines removed.')];
SRC['forum-med'] = [usenet(['sci.med'], 'Usenet sci.med posts, headers and quoted lines removed.')];
SRC['forum-other'] = [usenet(['alt.atheism', 'comp.graphics', 'misc.forsale', 'rec.autos', 'rec.sport.hockey', 'sci.crypt', 'sci.space', 'soc.religion.christian', 'talk.politics.guns', 'talk.politics.misc'], 'Ten other Usenet groups, headers and quoted lines removed.')];
SRC['news-bbc'] = [{ ...SRC.news[0], w: 1 }];
SRC['forum-sci'] = [usenet(['sci.med', 'sci.space', 'sci.electronics', 'sci.crypt'], 'Usenet science groups, headers and quoted lines removed.')];

// Scientific prose, for a task that spans fields: the bio and cs sources, half and half.
SRC.science = [...SRC.bio, ...SRC.cs].map((s) => ({ ...s, w: s.w / 2 }));

const METHODS = [
  { name: 'contrast', title: 'tadpole (default)' },
  // The default, then `tadpole inspect` + `fit --avoid` with the labels playing
  // the user (src/eval/kept-groups.ts): the user's word, so no leave-one-domain-out candidate.
  { name: 'contrast', title: 'default + inspect + --avoid (labels play the user)', avoidKeptGroups: { groups: 6, outOfDomain: 0.75, sentences: 200 } },
  { name: 'random' },
  { name: 'classifier', title: 'classifier (no self-training)', options: { rounds: 0 } },
  { name: 'dsir' },
  { name: 'distance' },
  { name: 'moore-lewis' },
  { name: 'tadpole', title: 'ensemble moore-lewis+distance (old default)', options: { detector: 'ensemble' } },
  { name: 'tadpole', title: 'ensemble classifier+dsir+distance', options: { detector: 'ensemble', components: 'classifier,dsir,distance' } },
  { name: 'tadpole', title: 'task-knn (fit --task only, before completion)', options: { detector: 'task-knn' } },
];

/** A source set with the given byte share, an optional held-out split. */
function sources(label, share, split) {
  return SRC[label].map(({ w, ...s }) => ({ label, share: +(share * w).toFixed(4), ...s, ...(split ? { split: { every: split, part: 'rest' } } : {}) }));
}

function spec(name, description, inDomain, task, mix, extra = {}) {
  // splits: other sources cut from the task's own file take the "rest" part too (a spec may name a file as both task and source only so).
  const { splits = {}, ...rest } = extra;
  const srcs = Object.entries(mix).flatMap(([label, share]) => sources(label, share, splits[label] ?? (label === inDomain ? task.splitOf : undefined)));
  const { splitOf, ...taskSpec } = task;
  return {
    name: `suite-${name}`,
    description,
    sources: srcs,
    mixBytes: 1500000,
    inDomain,
    task: taskSpec,
    maxTaskSentences: 3000,
    methods: METHODS,
    keep: 0.2,
    segment: 15,
    seed: 42,
    generalSample: 20000,
    ...rest,
  };
}

/** Task = every `every`-th document of the in-domain source (the mix takes the rest). */
function heldOutTask(label, every) {
  const s = SRC[label][0];
  const { w, note, ...fs } = s;
  return { ...fs, split: { every, part: 'held-out' }, splitOf: every };
}

/** Brown corpus samples of these genre codes, POS tags stripped and detokenised. */
function brownTask(genres) {
  return { files: [`${C}mixed-brown-corpus/docs.jsonl.gz`], format: 'jsonl-text', field: 'tagged_text', where: { field: 'genre_code', in: genres }, normalize: ['strip-pos-tags', 'detokenize'], dedupe: true };
}

const suite = [
  spec('bio-chemprot', 'Bio task (ChemProt) against medical leaflets (near-domain), cs, news, finance, forum.', 'bio',
    { files: [`${C}task-chemprot/train.jsonl.gz`, `${C}task-chemprot/dev.jsonl.gz`], format: 'jsonl-text', normalize: ['strip-markers'], dedupe: true },
    { bio: 0.3, medical: 0.2, cs: 0.15, news: 0.15, finance: 0.1, forum: 0.1 }),
  spec('cs-aclarc', 'CS task (ACL-ARC citation sentences) against bio (scientific, near-domain), wiki, news, forum.', 'cs',
    { files: [`${C}task-acl-arc-citation-intent/train.jsonl.gz`], format: 'jsonl-text', normalize: ['detokenize'], dedupe: true },
    { cs: 0.25, bio: 0.3, wiki: 0.15, news: 0.15, forum: 0.15 }),
  spec('cs-scierc', 'CS task (SciERC relation sentences; its abstracts are not in the mix) against bio, medical, wiki, news.', 'cs',
    { files: [`${C}task-scierc-relation/train.jsonl.gz`], format: 'jsonl-text', normalize: ['strip-markers', 'detokenize'], dedupe: true },
    { cs: 0.3, bio: 0.25, medical: 0.15, wiki: 0.15, news: 0.15 }),
  spec('news-agnews', 'News task (AG News test: title + description) against finance newswire (near-domain), speeches, wiki, forum.', 'news',
    { files: [`${C}task-ag-news/test.csv.gz`], format: 'csv', columns: ['title', 'description'], dedupe: true },
    { news: 0.3, finance: 0.25, speech: 0.15, wiki: 0.15, forum: 0.15 }),
  spec('finance-phrasebank', 'Finance task (Financial PhraseBank) against BBC/ABC news (near-domain), forum, wiki, reviews.', 'finance',
    { files: [`${C}task-financial-phrasebank/Sentences_50Agree.txt.gz`], format: 'lines', stripAfterLast: '@', encoding: 'latin1', dedupe: true },
    { finance: 0.3, news: 0.3, forum: 0.15, wiki: 0.15, reviews: 0.1 }),
  spec('reviews-mr', 'Reviews task (MR sentence polarity) against fiction, forum, web (wine reviews), news.', 'reviews',
    { files: [`${C}task-mr-sentence-polarity/text_train.txt.gz`], format: 'lines', normalize: ['detokenize', 'truecase'], dedupe: true },
    { reviews: 0.3, fiction: 0.2, forum: 0.2, web: 0.1, news: 0.2 }),
  spec('medical-leaflets', 'Medical-consumer task (held-out leaflets) against bio abstracts (near-domain), forum, news, reviews.', 'medical',
    heldOutTask('medical', 5),
    { medical: 0.3, bio: 0.3, forum: 0.15, news: 0.15, reviews: 0.1 }),
  spec('fiction-gutenberg', 'Fiction task (held-out Gutenberg books, hard-wrapped) against speeches, reviews, wiki, forum, news.', 'fiction',
    heldOutTask('fiction', 4),
    { fiction: 0.3, speech: 0.2, reviews: 0.15, wiki: 0.15, forum: 0.1, news: 0.1 }),
  spec('forum-20ng', 'Forum task (held-out Usenet posts) against reviews, web, news, speeches, cs.', 'forum',
    heldOutTask('forum', 10),
    { forum: 0.3, reviews: 0.2, web: 0.1, news: 0.2, speech: 0.1, cs: 0.1 }),
  spec('speech-presidential', 'Speech task (held-out presidential speeches) against news and finance (near-domain), wiki, fiction.', 'speech',
    heldOutTask('speech', 5),
    { speech: 0.3, news: 0.25, finance: 0.15, wiki: 0.15, fiction: 0.15 }),
  spec('wiki-wikitext', 'Wiki task (wikitext-2 valid articles) against news, speeches, fiction, cs (the mix holds the test articles).', 'wiki',
    { files: [`${C}wiki-wikitext2/wiki.valid.tokens.gz`], format: 'wikitext', normalize: ['strip-unk', 'detokenize'] },
    { wiki: 0.25, news: 0.25, speech: 0.15, fiction: 0.15, cs: 0.1, forum: 0.1 }),
  // Transfer mixes: the task comes from another dataset, era or register than
  // the mix's in-domain text, as in held-out mixes built from text that is not in ../shared.
  spec('news-brown', 'Transfer: 1961 American press reportage (Brown corpus genre a) as the task, 2004-05 BBC and ABC news in the mix, against political speeches (near-domain), wiki, fiction, forum, reviews.', 'news',
    brownTask(['a']),
    { news: 0.3, speech: 0.15, wiki: 0.15, fiction: 0.1, forum: 0.15, reviews: 0.15 }),
  spec('fiction-brown', 'Transfer: 1961 American fiction (Brown corpus genres k-r) as the task, hard-wrapped Gutenberg books in the mix, against movie reviews (near-domain: plots retold), speeches, wiki, news, forum.', 'fiction',
    brownTask(['k', 'l', 'm', 'n', 'p', 'r']),
    { fiction: 0.3, reviews: 0.2, speech: 0.1, wiki: 0.15, news: 0.1, forum: 0.15 }),
  spec('bio-rct', 'Transfer: RCT abstracts (EBM-NLP PICO, detokenised) as the task, OHSUMED, PubMedQA and Hallmarks abstracts in the mix, against patient leaflets (near-domain), cs, news, forum, wiki.', 'bio',
    { files: [`${C}bio-scibert-ner-abstracts/docs.jsonl.gz`], format: 'jsonl-sentences', where: { field: 'dataset', in: ['EBM-NLP-PICO'] }, normalize: ['detokenize'], dedupe: true },
    { bio: 0.3, medical: 0.15, cs: 0.15, news: 0.15, forum: 0.1, wiki: 0.15 }),
  // Brown's "learned" genre j, only its natural sciences, medicine and mathematics (J01-J21 in
  // its CONTENTS): the rest of j is social science, law and humanities, which the science label
  // would not cover (with all of j, speeches were 34% of the default's kept text).
  spec('science-brown', 'Transfer: 1961 American scientific prose (Brown corpus genre j, natural sciences, medicine, mathematics: J01-J21) as the task, recent bio abstracts and CS papers and abstracts in the mix, against wiki (near-domain: its science articles), news, fiction, forum, speeches.', 'science',
    { ...brownTask(['j']), where: { field: 'id', in: Array.from({ length: 21 }, (_, i) => `cj${String(i + 1).padStart(2, '0')}`) } },
    { science: 0.3, news: 0.2, fiction: 0.15, forum: 0.15, speech: 0.1, wiki: 0.1 }),
];
// Beyond the suite: mixes on which no method measured keeps clearly more
// in-domain text than random, kept runnable (`tadpole eval corpora/suite-hard/*.json`) but not used to
// choose the default: a mix that no candidate ranks above chance cannot tell candidates apart,
// and would favour whichever is closest to random.
const hard = [
  spec('reviews-brown', 'Transfer beyond reach: 1961 American press reviews of books, plays, music and dance (Brown corpus genre c) as the task, movie reviews of the late 1990s in the mix, against BBC/ABC news (near-domain: its entertainment stories), fiction, wiki, forum, speeches.', 'reviews',
    brownTask(['c']),
    { reviews: 0.3, news: 0.2, fiction: 0.15, wiki: 0.15, forum: 0.1, speech: 0.1 }),
];
// A check suite: mixes never used to choose anything, run only to see where the
// chosen default fails on kinds of mix the suite lacks: a topic within one source (BBC sport
// or tech against BBC's other stories and Usenet groups on the same topic), citation
// sentences from medicine and CS, a task left tokenised against clean in-domain text, a
// lower-cased task, and the sport mix at 10% in-domain.
const agnews = (label) => ({ files: [`${C}task-ag-news/test.csv.gz`], format: 'csv', columns: ['title', 'description'], where: { field: 'label', in: [label] }, dedupe: true });
const check = [
  spec('topic-sport', 'Topic within a source: AG News sports items as the task, BBC sport stories in the mix, against BBC politics and entertainment (same source), Usenet baseball and hockey (same topic), speeches, wiki, reviews.', 'sport',
    agnews('2'),
    { sport: 0.3, 'news-other': 0.25, 'forum-sport': 0.15, speech: 0.1, wiki: 0.1, reviews: 0.1 }),
  spec('topic-tech', 'Topic within a source: AG News science/technology items as the task, BBC technology stories in the mix, against BBC politics and entertainment (same source), Usenet computing groups and cs abstracts (same topic), wiki, fiction.', 'tech',
    agnews('4'),
    { tech: 0.3, 'news-other': 0.25, 'forum-tech': 0.15, cs: 0.1, wiki: 0.1, fiction: 0.1 }),
  spec('sci-cite', 'Citation sentences from medicine and CS papers (SciCite) as the task, bio abstracts and CS papers in the mix, against patient leaflets, Usenet science groups, BBC/ABC news (ABC science stories among them), wiki, speeches.', 'science',
    { files: [`${C}task-sci-cite/train.jsonl.gz`], format: 'jsonl-text', dedupe: true },
    { science: 0.3, medical: 0.15, 'forum-sci': 0.15, news: 0.15, wiki: 0.15, speech: 0.1 }),
  spec('bio-tokenised-task', 'A task left tokenised ("( IL-2 ) ,"): BC5CDR, JNLPBA and NCBI-disease sentences as given, clean bio abstracts in the mix, against patient leaflets, cs, news, forum, wiki.', 'bio',
    { files: [`${C}bio-scibert-ner-abstracts/docs.jsonl.gz`], format: 'jsonl-sentences', where: { field: 'dataset', in: ['BC5CDR', 'JNLPBA', 'NCBI-disease'] }, dedupe: true },
    { bio: 0.3, medical: 0.2, cs: 0.15, news: 0.15, forum: 0.1, wiki: 0.1 }),
  spec('reviews-lowercase-task', 'A lower-cased, tokenised task (MR snippets as distributed) against truecased movie reviews in the mix, fiction, forum, web, news.', 'reviews',
    { files: [`${C}task-mr-sentence-polarity/text_train.txt.gz`], format: 'lines', dedupe: true },
    { reviews: 0.3, fiction: 0.2, forum: 0.2, web: 0.1, news: 0.2 }),
  spec('forum-med', 'Topic within a genre: held-out sci.med posts as the task, the other sci.med posts in the mix, against ten other Usenet groups (same genre), patient leaflets and bio abstracts (same topic), news.', 'forum-med',
    heldOutTask('forum-med', 4),
    { 'forum-med': 0.3, 'forum-other': 0.25, medical: 0.15, bio: 0.15, news: 0.15 }, { splits: { 'forum-other': 4 } }),
  spec('news-titles', 'A task of headlines only (AG News titles, world, sports and sci/tech) against BBC stories in the mix, finance newswire (near-domain), speeches, wiki, forum.', 'news-bbc',
    { files: [`${C}task-ag-news/test.csv.gz`], format: 'csv', columns: ['title'], where: { field: 'label', in: ['1', '2', '4'] }, dedupe: true },
    { 'news-bbc': 0.3, finance: 0.25, speech: 0.15, wiki: 0.15, forum: 0.15 }),
  spec('cs-titles', 'A task of paper titles only (SciTLDR dev and test titles) against CS papers and abstracts in the mix (the SciTLDR train abstracts among them), bio abstracts (near-domain), wiki, news, forum.', 'cs',
    { files: [`${C}cs-scitldr-abstracts/dev.jsonl.gz`, `${C}cs-scitldr-abstracts/test.jsonl.gz`], format: 'jsonl-text', field: 'title', dedupe: true },
    { cs: 0.25, bio: 0.3, wiki: 0.15, news: 0.15, forum: 0.15 }),
  spec('sport-titles', 'topic-sport with a task of headlines only (AG News sports titles).', 'sport',
    { ...agnews('2'), columns: ['title'] },
    { sport: 0.3, 'news-other': 0.25, 'forum-sport': 0.15, speech: 0.1, wiki: 0.1, reviews: 0.1 }),
  // Keeps 10%, as PREV=0.1 does in the research harness: keeping 20% of a mix that is 10%
  // in-domain caps even a perfect selector near 50%.
  spec('topic-sport-10', 'topic-sport at 10% in-domain, 10% kept.', 'sport',
    agnews('2'),
    { sport: 0.1, 'news-other': 0.35, 'forum-sport': 0.15, speech: 0.15, wiki: 0.15, reviews: 0.1 }, { keep: 0.1 }),
];
// A fresh suite: five mixes built after every choice so far, from pairings of
// ../shared no other suite uses, to see whether the default and its options hold where nothing
// was tuned: another dataset of the same domain as the task (WSJ against Reuters, Seeking
// Alpha against Reuters and WSJ, PubMedQA against other MEDLINE abstracts, paper TLDRs against
// papers and abstracts) and a topic in another genre (1961 religious prose against Usenet
// religion groups, with the other groups and speeches among the distractors).
SRC['finance-wires'] = [SRC.finance[0], { ...SRC.finance[2], w: 0.25 }];
SRC['finance-press'] = [{ ...SRC.finance[0], w: 0.8 }, { ...SRC.finance[1], w: 0.2 }];
SRC['bio-abstracts'] = [{ ...SRC.bio[0], w: 0.6 }, { ...SRC.bio[2], w: 0.4 }];
SRC['forum-religion'] = [usenet(['soc.religion.christian', 'alt.atheism', 'talk.religion.misc'], 'Usenet religion groups, headers and quoted lines removed.')];
SRC['forum-secular'] = [usenet(['comp.graphics', 'misc.forsale', 'rec.autos', 'rec.motorcycles', 'sci.space', 'sci.electronics', 'talk.politics.guns', 'talk.politics.mideast', 'talk.politics.misc'], 'Nine Usenet groups on other topics, headers and quoted lines removed.')];
// Other MEDLINE abstracts against the topic in two other genres (leaflets, sci.med posts): the
// mix of bio-pubmedqa, and of the probe suite's question task, whose only difference is the task.
const BIO_ABSTRACTS_MIX = { 'bio-abstracts': 0.3, medical: 0.2, 'forum-med': 0.15, cs: 0.1, news: 0.15, wiki: 0.1 };
const fresh = [
  spec('finance-wsj', 'Fresh, transfer within a domain: 1989 WSJ stories as the task, Reuters 1987 wires and Seeking Alpha summaries in the mix, against BBC/ABC news (near-domain), speeches, wiki, forum.', 'finance-wires',
    { files: [`${C}news-wsj-ptb-sample/docs.jsonl.gz`], format: 'jsonl-text', dedupe: true },
    { 'finance-wires': 0.3, news: 0.25, speech: 0.15, wiki: 0.15, forum: 0.15 }),
  spec('finance-alpha', 'Fresh, transfer within a domain: 2023 Seeking Alpha bullet summaries as the task, Reuters 1987 wires and 1989 WSJ stories in the mix, against BBC/ABC news (near-domain), speeches, wiki, forum.', 'finance-press',
    { files: [`${C}finance-seeking-alpha-summaries/seeking_alpha_articles_new.csv.gz`], format: 'csv', columns: ['summary'], dedupe: true },
    { 'finance-press': 0.3, news: 0.25, speech: 0.15, wiki: 0.15, forum: 0.15 }),
  spec('bio-pubmedqa', 'Fresh, transfer within a domain: PubMedQA abstracts as the task, OHSUMED and Hallmarks abstracts in the mix, against patient leaflets and Usenet sci.med posts (near-domain: the same topic), cs, news, wiki.', 'bio-abstracts',
    { files: [`${C}bio-pubmedqa/ori_pqal.json.gz`], format: 'pubmedqa', dedupe: true },
    BIO_ABSTRACTS_MIX),
  spec('cs-tldr', 'Fresh: one-sentence paper summaries (SciTLDR dev and test TLDRs) as the task, CS papers and abstracts in the mix, against bio abstracts (near-domain), wiki, news, forum.', 'cs',
    { files: [`${C}cs-scitldr-abstracts/dev.jsonl.gz`, `${C}cs-scitldr-abstracts/test.jsonl.gz`], format: 'jsonl-sentences', field: 'target', dedupe: true },
    { cs: 0.3, bio: 0.3, wiki: 0.15, news: 0.15, forum: 0.1 }),
  spec('religion-brown', 'Fresh, a topic in another genre: 1961 religious prose (Brown corpus genre d) as the task, Usenet religion groups in the mix, against nine other Usenet groups (same genre), speeches (near-domain: they invoke God), Gutenberg books (Milton, Blake among them), wiki, news.', 'forum-religion',
    brownTask(['d']),
    { 'forum-religion': 0.3, 'forum-secular': 0.25, speech: 0.15, fiction: 0.1, wiki: 0.1, news: 0.1 }),
];

// A probe suite: kinds of mix that failures on held-out mixes point at, built after
// every choice. A task in another genre than its domain's corpus text (PubMedQA's questions
// against abstracts, with sci.med posts that ask questions too: a discriminative fit can key on
// the questions' form), and four more topics within a genre like forum-med (held-out posts of
// one Usenet group; the other groups, with sci.med in place of the task's, and text of the
// same topic in other genres).
const FORUM_OTHER = SRC['forum-other'][0].where.in;
function forumProbe(group, label, near, about) {
  SRC[label] = [usenet([group], `Usenet ${group} posts, headers and quoted lines removed.`)];
  const others = [...FORUM_OTHER.filter((g) => g !== group), ...(FORUM_OTHER.includes(group) ? ['sci.med'] : [])];
  SRC[`${label}-others`] = [usenet(others, `${others.length} other Usenet groups, headers and quoted lines removed.`)];
  return spec(label, `Probe, a topic within a genre: held-out ${group} posts as the task, the group's other posts in the mix, against ${others.length} other Usenet groups (same genre), ${about}.`, label,
    heldOutTask(label, 4),
    { [label]: 0.3, [`${label}-others`]: 0.25, ...near }, { splits: { [`${label}-others`]: 4 } });
}
const probe = [
  spec('bio-questions', 'Probe, a task in another genre: PubMedQA questions as the task, OHSUMED and Hallmarks abstracts in the mix, against patient leaflets (headed by questions) and Usenet sci.med posts (near-domain: the same topic, and they ask), cs, news, wiki.', 'bio-abstracts',
    { files: [`${C}bio-pubmedqa/ori_pqal.json.gz`], format: 'pubmedqa', field: 'QUESTION', dedupe: true },
    BIO_ABSTRACTS_MIX),
  forumProbe('sci.space', 'forum-space', { wiki: 0.15, news: 0.15, cs: 0.15 }, 'wiki, ABC science and BBC news, cs papers'),
  forumProbe('talk.politics.guns', 'forum-guns', { speech: 0.15, news: 0.15, wiki: 0.15 }, 'speeches, BBC politics and ABC news, wiki'),
  forumProbe('rec.autos', 'forum-autos', { reviews: 0.15, news: 0.15, web: 0.15 }, 'movie reviews, news, web text (ads, reviews)'),
  forumProbe('sci.crypt', 'forum-crypt', { cs: 0.15, news: 0.15, wiki: 0.15 }, 'cs papers, news, wiki'),
];

// A format trap: the wiki mix again, but its wiki text keeps wikitext-2's
// tokenisation and <unk> placeholders, as a raw dump would, while the task is clean text. A
// classifier learns "<unk>" as the surest sign of the corpus and sinks its in-domain text.
const wiki = suite.find((s) => s.name === 'suite-wiki-wikitext');
suite.push({
  ...wiki,
  name: 'suite-wiki-raw',
  description: 'Format trap: the wiki mix, its wiki text left as wikitext-2 has it (tokenised, <unk> placeholders), the task clean (wikitext-2 valid, detokenised).',
  sources: wiki.sources.map(({ normalize, ...s }) => (s.label === 'wiki' ? { ...s, note: 'wikitext-2 test split, NOT normalised: " @-@ ", " , ", "<unk>".' } : { ...s, normalize })),
});

// corpora/suite-avoid: the check mixes where the default keeps the task's topic in
// another genre, with and without `fit --avoid`. The source it wrongly keeps is split: the mix
// reads three documents of four, and 200 sentences of the fourth are the text to avoid.
const AVOIDED = [['topic-sport', 'forum-sport'], ['sport-titles', 'forum-sport'], ['topic-sport-10', 'forum-sport'], ['forum-med', 'forum-other'], ['news-titles', 'forum']];
const avoidSuite = AVOIDED.map(([name, label]) => {
  const base = check.find((s) => s.name === `suite-${name}`);
  const sources = base.sources.map((s) => (s.label === label && !s.split ? { ...s, split: { every: 4, part: 'rest' } } : s));
  const { label: _label, share: _share, note: _note, ...files } = sources.find((s) => s.label === label);
  const avoid = { ...files, split: { every: files.split.every, part: 'held-out' }, maxSentences: 200 };
  return {
    ...base,
    description: `${base.description} With and without 200 sentences of the ${label} source to avoid (documents not in the mix).`,
    sources,
    methods: [{ name: 'contrast', title: 'tadpole (default)' }, { name: 'contrast', title: 'tadpole (default) with --avoid', avoid }, { name: 'random' }],
  };
});

// corpora/suite-raw: two suite tasks as their datasets ship them, the labels
// kept: PhraseBank's "sentence .@neutral" lines and AG News's CSV rows read as plain lines
// ("3","title","description"). A label on every task sentence, which no corpus sentence has,
// separates the task alone (src/select/artefacts.ts).
const RAW_TASKS = [
  ['finance-phrasebank', 'PhraseBank as shipped: each sentence ends with "@" and its sentiment label.', (t) => { const { stripAfterLast: _s, ...rest } = t; return rest; }],
  ['news-agnews', 'AG News test.csv read as plain lines: each row starts with its class number, the fields quoted.', (t) => ({ files: t.files, format: 'lines', dedupe: true })],
];
const rawSuite = RAW_TASKS.map(([name, about, task]) => {
  const base = suite.find((s) => s.name === `suite-${name}`);
  return {
    ...base,
    name: `suite-${name}-raw`,
    description: `${base.description} The task raw: ${about}`,
    task: task(base.task),
    methods: [{ name: 'contrast', title: 'tadpole (default)' }, { name: 'contrast', title: 'default, task artefacts kept (--option artefacts=keep)', options: { artefacts: 'keep' } }, { name: 'classifier' }, { name: 'dsir' }, { name: 'random' }],
  };
});

// corpora/suite-scarce: the domain as a web crawl holds it, 0.5-3% of the sentences of a
// 50-60 MB corpus of every other source (near and far distractors alike); keep = the domain's
// true share of the mix's sentences, so 100% is possible, and the eval cuts at 0.5x and 2x too.
// The background is the same crawl for every mix, less the in-domain source and anything of
// its label; shares are of bytes before the in-domain source is added.
const CRAWL = { forum: 0.3, cs: 0.24, bio: 0.12, finance: 0.08, reviews: 0.08, fiction: 0.07, news: 0.05, medical: 0.03, speech: 0.02, wiki: 0.006, web: 0.006 };
const USENET_GROUPS = ['alt.atheism', 'comp.graphics', 'comp.os.ms-windows.misc', 'comp.sys.ibm.pc.hardware', 'comp.sys.mac.hardware', 'comp.windows.x', 'misc.forsale', 'rec.autos', 'rec.motorcycles', 'rec.sport.baseball', 'rec.sport.hockey', 'sci.crypt', 'sci.electronics', 'sci.med', 'sci.space', 'soc.religion.christian', 'talk.politics.guns', 'talk.politics.mideast', 'talk.politics.misc', 'talk.religion.misc'];
SRC['forum-not-med'] = [usenet(USENET_GROUPS.filter((g) => g !== 'sci.med'), 'Usenet: the 19 groups other than sci.med, headers and quoted lines removed.')];
SRC['news-no-business'] = [{ ...bbc(['politics', 'sport', 'entertainment'], 'BBC politics, sport and entertainment stories.'), w: 0.6 }, { ...SRC.news[1], files: [`${C}news-abc-australia/science.txt.gz`], w: 0.4 }];
SRC['news-not-bbc-topic'] = [{ ...bbc(['politics', 'entertainment', 'business'], 'BBC politics, entertainment and business stories.'), w: 0.55 }, { ...SRC.news[1], w: 0.45 }];
const SCARCE_METHODS = [
  { name: 'contrast', title: 'tadpole (default)' },
  { name: 'random' },
  { name: 'classifier', title: 'classifier (no self-training)', options: { rounds: 0 } },
  { name: 'dsir' },
  { name: 'distance' },
  { name: 'moore-lewis' },
  { name: 'tadpole', title: 'tadpole (paper: isolation forest)' },
];
/** A scarce mix: `inShare` of the bytes from the in-domain source, the crawl (less `drop`, with `swap` standing in for a label) for the rest. */
function scarce(name, description, inDomain, inShare, task, { drop = [], swap = {}, splits = {} } = {}) {
  const crawl = Object.entries(CRAWL).filter(([label]) => label !== inDomain && !drop.includes(label)).map(([label, w]) => [swap[label] ?? label, w]);
  const sum = crawl.reduce((a, [, w]) => a + w, 0);
  const mix = { [inDomain]: inShare, ...Object.fromEntries(crawl.map(([label, w]) => [label, +((w / sum) * (1 - inShare)).toFixed(4)])) };
  return { ...spec(`scarce-${name}`, description, inDomain, task, mix, { splits }), mixBytes: 60000000, keep: 'share', methods: SCARCE_METHODS };
}
const scarceSuite = [
  scarce('bio-chemprot', 'Scarce: ChemProt as the task, bio abstracts 1% of a 60 MB crawl of forum posts (sci.med among them), CS papers, finance and news wires, reviews, fiction, patient leaflets (near-domain), speeches, wiki, web text.', 'bio', 0.01,
    { files: [`${C}task-chemprot/train.jsonl.gz`, `${C}task-chemprot/dev.jsonl.gz`], format: 'jsonl-text', normalize: ['strip-markers'], dedupe: true }),
  scarce('cs-aclarc', 'Scarce: ACL-ARC citation sentences as the task, CS papers and abstracts 1.5% of a crawl of forum posts (comp.* among them), bio abstracts (near-domain), wires, reviews, fiction, leaflets, speeches, wiki, web text.', 'cs', 0.015,
    { files: [`${C}task-acl-arc-citation-intent/train.jsonl.gz`], format: 'jsonl-text', normalize: ['detokenize'], dedupe: true }),
  // The crawl's news without business stories: ABC's rural stories and BBC's business and tech
  // stories report company results ("Elders Rural Bank profit up 10pc"), which this task asks for.
  scarce('finance-phrasebank', 'Scarce: Financial PhraseBank as the task, Reuters/WSJ/Seeking Alpha 1% of a crawl with BBC politics, sport and entertainment and ABC science news (near-domain), forum posts (misc.forsale among them), CS, bio, reviews, fiction, speeches.', 'finance', 0.01,
    { files: [`${C}task-financial-phrasebank/Sentences_50Agree.txt.gz`], format: 'lines', stripAfterLast: '@', encoding: 'latin1', dedupe: true }, { swap: { news: 'news-no-business' } }),
  scarce('reviews-mr', 'Scarce: MR sentences as the task, movie reviews 1% of a crawl with fiction and web text (wine reviews: near-domain), forum posts, CS, bio, wires, news, speeches.', 'reviews', 0.01,
    { files: [`${C}task-mr-sentence-polarity/text_train.txt.gz`], format: 'lines', normalize: ['detokenize', 'truecase'], dedupe: true }),
  scarce('medical-leaflets', 'Scarce: held-out patient leaflets as the task, the other leaflets 0.7% of a crawl with bio abstracts and Usenet sci.med posts (near-domain), CS, wires, reviews, fiction, news, speeches.', 'medical', 0.007,
    heldOutTask('medical', 5)),
  scarce('forum-med', 'Scarce, a topic within a genre: held-out sci.med posts as the task, the other sci.med posts 1% of a crawl whose largest part is the 19 other Usenet groups (same genre), with bio abstracts and leaflets (same topic), CS, wires, reviews, fiction.', 'forum-med', 0.01,
    heldOutTask('forum-med', 4), { swap: { forum: 'forum-not-med' }, splits: { 'forum-not-med': 4 } }),
  scarce('speech-presidential', 'Scarce: held-out presidential speeches as the task, the other speeches 1% of a crawl with BBC/ABC news and Usenet politics groups (near-domain), finance wires, forum posts, CS, bio, reviews, fiction.', 'speech', 0.01,
    heldOutTask('speech', 5)),
  scarce('bio-rct', 'Scarce, transfer: RCT abstracts (EBM-NLP PICO, detokenised) as the task, OHSUMED, PubMedQA and Hallmarks abstracts 1% of a crawl with patient leaflets and Usenet sci.med posts (near-domain), CS papers, wires, reviews, fiction, news.', 'bio', 0.01,
    { files: [`${C}bio-scibert-ner-abstracts/docs.jsonl.gz`], format: 'jsonl-sentences', where: { field: 'dataset', in: ['EBM-NLP-PICO'] }, normalize: ['detokenize'], dedupe: true }),
  scarce('fiction-brown', 'Scarce, transfer: 1961 American fiction (Brown genres k-r) as the task, hard-wrapped Gutenberg books 1.5% of a crawl with movie reviews (near-domain: plots retold), speeches, forum, CS, bio, wires, news.', 'fiction', 0.015,
    brownTask(['k', 'l', 'm', 'n', 'p', 'r'])),
];
// Three scarce mixes whose labels the text does not bear out, kept apart (`suite-scarce-ambiguous`)
// and reported, never chosen on: the crawl's other sources hold the task's topic as news too
// (Reuters and WSJ stories on computer makers, Usenet computing and sport groups), at several
// times the in-domain share, so a selector that keeps them does what the task says.
// news-agnews: AG's sports items ask for game reports, and the crawl's Usenet hockey and baseball
// posts report games ("News reports in Toronto say that the Rangers are insisting ...") and its
// wiki holds pitchers' records: 44-51% of the default's kept text, at 36% of the crawl.
const scarceAmbiguous = [
  // AG News less its business items: a quarter of AG News is business news, which the crawl's
  // finance wires are too, so with them the task would ask for the wires as much as for BBC/ABC.
  // The crawl's finance wires are left out too: Reuters and the WSJ carry world and political
  // news ("Canada prime minister says a major trade deal emerging"), which this task asks for.
  scarce('news-agnews', 'Scarce: AG News world, sports and sci/tech items as the task, BBC (no business) and ABC news 1% of a crawl with political speeches and Usenet politics groups (near-domain), other forum posts, CS, bio, reviews, fiction, leaflets, wiki, web text; no newswire.', 'news', 0.01,
    { ...agnews('1'), where: { field: 'label', in: ['1', '2', '4'] } }, { drop: ['finance'] }),
  scarce('topic-sport', 'Scarce, a topic within a source: AG News sports items as the task, BBC sport stories 0.6% of a crawl with BBC politics, entertainment and business and ABC news (same source), Usenet baseball and hockey posts (same topic, inside the forum part), CS, bio, wires, reviews.', 'sport', 0.006,
    agnews('2'), { swap: { news: 'news-not-bbc-topic' } }),
  scarce('topic-tech', 'Scarce, a topic within a source: AG News sci/tech items as the task, BBC technology stories 0.8% of a crawl with BBC\'s other stories and ABC news (same source), Usenet computing groups (same topic, inside the forum part) and CS papers, bio, wires, reviews.', 'tech', 0.008,
    agnews('4'), { swap: { news: 'news-not-bbc-topic' } }),
];

for (const [dir, specs] of [['corpora/suite', suite], ['corpora/suite-raw', rawSuite], ['corpora/suite-hard', hard], ['corpora/suite-check', check], ['corpora/suite-avoid', avoidSuite], ['corpora/suite-fresh', fresh], ['corpora/suite-probe', probe], ['corpora/suite-scarce', scarceSuite], ['corpora/suite-scarce-ambiguous', scarceAmbiguous]]) {
  mkdirSync(dir, { recursive: true });
  for (const s of specs) writeFileSync(`${dir}/${s.name.replace(/^suite-/, '')}.json`, JSON.stringify(s, null, 2) + '\n');
  console.log(`wrote ${specs.length} specs to ${dir}/`);
}
