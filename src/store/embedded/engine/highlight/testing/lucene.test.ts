/**
 * Differential test of the highlighter against the real thing: Lucene 8.7's UnifiedHighlighter
 * (highlightWithoutSearcher: the text analyzed again into a MemoryIndex, as Elasticsearch highlights a
 * field without offsets) and the JDK's BreakIterator, run by HighlightOracle.java, on a seeded
 * corpus: the same passages (offsets, matches, terms, frequencies, scores, text), both with
 * WEIGHT_MATCHES (Elasticsearch 8's mode when require_field_match is true) and without (its mode
 * otherwise), with the sentence, word and whole-value iterators.
 *
 * Where Elasticsearch's own classes differ from plain Lucene, this test runs Lucene's way, and the
 * difference is pinned by hand-worked tests beside the modules: the passage bounds of
 * `fragment_size` (BoundedBreakIteratorScanner: boundedScanner.test.ts), the fragment trimming and
 * separator removal (CustomPassageFormatter: formatter.test.ts), the summary of `no_match_size`
 * (CustomFieldHighlighter: fieldHighlighter.test.ts). Lucene 8.7 also differs from Lucene 9 (what
 * Elasticsearch 8 runs) in two ways the comparison allows for: it sums passage scores in float
 * (Lucene 9 in double: scores may differ in the last bits), and it rewrites a `terms` query of several
 * terms to a boolean query of its terms, each match counting as its own term in passage scores
 * (Lucene 9's TermInSetQuery is a MultiTermQuery: its matches count as one), so `terms` queries are
 * of one term here (a hand-worked test pins the other case: weightMatches.test.ts).
 */
import { compilePrefix, compileWildcard } from '../../automaton';
import { InvertedIndex } from '../../invertedIndex';
import { evaluate } from '../../lucene/evaluate';
import { LQuery, MATCH_ALL, booleanQuery, constantScore, disMax, termQuery } from '../../lucene/query';
import { rewrite } from '../../lucene/rewrite';
import { IndexMapping } from '../../mapping';
import { UNLIMITED, runToEnd } from '../../budget/budget';
import { termRange, termsAccepted, termsIn } from '../../query/leaves';
import { extractedMatches } from '../extractedTerms';
import { fieldPassages } from '../fieldHighlighter';
import { formatPassages, htmlEncode } from '../formatter';
import { sentenceBoundaries, wordBoundaries } from '../jdkBreaks';
import { JdkSentenceIterator } from '../jdkSentenceIterator';
import { leafTests } from '../leafTests';
import { FieldOptions } from '../options';
import { Passage } from '../passages';
import { FieldText } from '../tokens';
import { weightMatches } from '../weightMatches';
import { OraclePassage, OracleQuery, OracleRequest, highlightOracle } from './highlightOracle';

const oracle = highlightOracle();
const describeIf = 'missing' in oracle ? describe.skip : describe;
if ('missing' in oracle) console.warn(`Lucene highlighter differential test skipped: ${oracle.missing}`);
afterAll(() => {
  if (!('missing' in oracle)) oracle.close();
});

/** A small seeded generator (mulberry32): the same corpus on every run. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)];
  return { next, int, pick };
}

const WORDS = ['quick', 'brown', 'fox', 'jumps', 'over', 'lazy', 'dog', 'France', 'Paris', 'river', 'south', 'Africa', 'north', 'island', 'capital', 'city', 'banana', 'bandana', 'brand', 'bread', 'red', 'sea', 'Sea', 'state', "don't", 'U.S.', '1,000', '42', 'e.g.', 'café', 'naïve', 'Zürich', 'x_y'];
const SEPARATORS = [' ', ' ', ' ', ' ', ', ', '. ', '! ', '? ', '; ', ': ', ' (', ') ', ' "', '" ', ' - ', '.\n', '  '];

function sentence(r: ReturnType<typeof random>): string {
  let out = r.pick(WORDS);
  const n = 2 + r.int(14);
  for (let i = 0; i < n; i++) out += r.pick(SEPARATORS) + r.pick(WORDS);
  return out + r.pick(['.', '!', '?', '', '.']);
}

function text(r: ReturnType<typeof random>): string {
  let out = sentence(r);
  const n = r.int(6);
  for (let i = 0; i < n; i++) out += ' ' + sentence(r);
  return out;
}

/** Lower-cased words of the corpus, as the analyzer makes terms of them. */
const TERMS = ['quick', 'brown', 'fox', 'jumps', 'over', 'lazy', 'dog', 'france', 'paris', 'river', 'south', 'africa', 'north', 'island', 'capital', 'city', 'banana', 'bandana', 'brand', 'bread', 'red', 'sea', 'state', "don't", '1,000', '42', 'café', 'naïve', 'zürich', 'x_y', 'absent'];

function query(r: ReturnType<typeof random>, field: string, depth: number, weight: boolean): OracleQuery {
  const kind = r.int(depth > 1 ? 9 : 13);
  switch (kind) {
    case 0:
    case 1:
    case 2:
      return { t: 'term', field, term: r.pick(TERMS) };
    case 3:
    case 4: {
      const n = 2 + r.int(2);
      return { t: 'phrase', field, terms: Array.from({ length: n }, () => r.pick(TERMS.slice(0, 12))), slop: r.pick([0, 0, 1, 2, 5]) };
    }
    case 5:
      return { t: 'prefix', field, value: r.pick(['b', 'br', 'ba', 'fr', 'sea', 'c', 'x']) };
    case 6:
      return { t: 'wildcard', field, value: r.pick(['b*d', '*an*', 'r?d', 'sea*', '*e']) };
    case 7:
      // a `terms` query of one term (of several, Lucene 9 counts the matches as one term, 8.7 each as its own)
      return { t: 'terms', field, terms: [r.pick(TERMS)] };
    case 8:
      return { t: 'range', field, lower: r.pick([null, 'b', 'fox']), upper: r.pick([null, 'd', 'river']), includeLower: r.next() < 0.5, includeUpper: r.next() < 0.5 };
    case 9:
    case 10: {
      const n = 1 + r.int(4);
      const occurs = ['should', 'should', 'must', 'filter', 'must_not'] as const;
      const clauses = Array.from({ length: n }, () => [r.pick(occurs), query(r, field, depth + 1, weight)] as const);
      const should = clauses.filter(([o]) => o === 'should').length;
      return { t: 'bool', msm: r.int(Math.min(should, 2) + 1), clauses };
    }
    case 11:
      return { t: 'disMax', tie: 0.1, queries: [query(r, field, depth + 1, weight), query(r, field, depth + 1, weight)] };
    default:
      return { t: 'constant', query: query(r, field, depth + 1, weight) };
  }
}

/** The same query for our engine (already analyzed terms, as the oracle's). */
function lucene(q: OracleQuery): LQuery {
  switch (q.t) {
    case 'term':
      return termQuery(q.field, q.term);
    case 'phrase':
      return { type: 'phrase', field: q.field, terms: q.terms, positions: q.terms.map((_, i) => i), slop: q.slop };
    case 'bool':
      return booleanQuery(
        q.clauses.map(([occur, c]) => ({ occur, query: lucene(c) })),
        q.msm,
      );
    case 'prefix':
      return termsAccepted(q.field, `prefix:${JSON.stringify([q.value, false])}`, compilePrefix(q.value));
    case 'wildcard':
      return termsAccepted(q.field, `wildcard:${JSON.stringify([q.value, false])}`, compileWildcard(q.value));
    case 'disMax':
      return disMax(q.queries.map(lucene), q.tie);
    case 'constant':
      return constantScore(lucene(q.query));
    case 'all':
      return MATCH_ALL;
    case 'terms':
      return termsIn(q.field, q.terms);
    case 'range':
      return termRange(q.field, q.lower, q.includeLower, q.upper, q.includeUpper);
  }
}

function options(request: OracleRequest): FieldOptions {
  return {
    preTag: '<b>',
    postTag: '</b>',
    fragmentSize: 0,
    // number_of_fragments 0: every value whole, as many as match (keyword fields: whole values too, but at most maxPassages)
    numberOfFragments: request.mode === 'whole' && request.analysis === 'standard' ? 0 : request.maxPassages,
    noMatchSize: 0,
    requireFieldMatch: !request.anyField,
    scoreOrdered: false,
    encoder: 'default',
    boundaryScanner: request.mode === 'word' ? 'word' : 'sentence',
    maxAnalyzedOffset: null,
    highlightQuery: null,
  };
}

/** Our passages for a request: the document alone in an index (the oracle's MemoryIndex holds only the highlighted field). */
function ours(request: OracleRequest): { content: string; passages: Passage[] } | null {
  const original = lucene(request.query);
  const query = rewrite(original);
  const tests = runToEnd(leafTests(query, UNLIMITED, runToEnd(leafTests(original, UNLIMITED))));
  const mapping = new IndexMapping(request.analysis === 'standard' ? { text: [request.field], dynamic: false } : { keyword: [request.field], dynamic: false });
  const single = new InvertedIndex(false);
  single.addSource('doc', { [request.field]: request.values }, mapping);
  const doc = { matches: (q: LQuery) => (evaluate(q, single, 1, false)?.size ?? 0) > 0, expand: () => null };
  const matchesIn = request.weightMatches
    ? (t: FieldText) => weightMatches(original, query, request.field, t, tests, doc) ?? []
    : (t: FieldText) => extractedMatches(original, t, tests);
  return fieldPassages(request.values, { name: request.field, analysis: request.analysis, options: options(request) }, { id: 'doc', indexMaxAnalyzedOffset: Infinity, matchesIn });
}

const bitsFloat = (bits: number): number => new Float32Array(new Int32Array([bits]).buffer)[0];

/**
 * What is compared of a passage: everything, scores to five decimals (see above); the term each match
 * counts as only as the identity it has in the passage's score (an automaton counts as its query's
 * toString in Lucene, as its key here, which also orders matches of the same offsets differently):
 * each label becomes the offsets of its matches, and matches are sorted.
 */
function comparable(passages: readonly (Passage | OraclePassage)[], content: string | null) {
  return passages.map((p) => {
    const score = 'scoreBits' in p ? bitsFloat(p.scoreBits) : p.score;
    const text = 'text' in p ? p.text : formatPassages([p], content as string, { preTag: '<b>', postTag: '</b>', encoder: 'default', numberOfFragments: 0 })[0].text;
    const groups = new Map<string, string[]>();
    for (const m of p.matches) groups.set(m.term, [...(groups.get(m.term) ?? []), `${m.start}-${m.end}`]);
    const matches = p.matches.map((m) => ({ start: m.start, end: m.end, freq: m.freq, term: (groups.get(m.term) as string[]).join(' ') }));
    matches.sort((a, b) => a.start - b.start || a.end - b.end || a.freq - b.freq || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
    return { start: p.start, end: p.end, score: Math.round(score * 1e5) / 1e5, matches, text };
  });
}

describeIf('the highlighter against Lucene 8.7', () => {
  const run = oracle as Exclude<typeof oracle, { missing: string }>;

  it('finds the JDK sentence and word boundaries on ordinary text', () => {
    const r = random(1);
    const texts = Array.from({ length: 400 }, () => text(r));
    const answers = run.breaks(texts);
    texts.forEach((t, i) => {
      const answer = answers[i];
      if (!answer.ok) throw new Error(answer.error);
      expect([t, Array.from(sentenceBoundaries(t))]).toEqual([t, answer.value.sentences]);
      expect([t, Array.from(wordBoundaries(t))]).toEqual([t, answer.value.words]);
      // the same answers to following(i), preceding(i) asked in turn of one iterator
      const iterator = new JdkSentenceIterator();
      iterator.setText(t);
      const following: number[] = [];
      const preceding: number[] = [];
      for (let offset = 0; offset <= t.length; offset++) {
        following.push(iterator.following(offset));
        preceding.push(iterator.preceding(offset));
      }
      expect([t, following, preceding]).toEqual([t, answer.value.following, answer.value.preceding]);
    });
  });

  it('agrees with the JDK on almost every boundary of adversarial text (the rest: README of the engine, jdkBreaks.ts)', () => {
    const r = random(2);
    const atoms = ['word', 'Word', 'é', 'e\u0301', '東京', 'カタカナ', '12', '3.14', '$5', '#1', '50%', 'a-b', 'a_b', "a'b", 'U.S.', 'e.g.', '(x)', '"q"', '«z»', '—', '...', '.', ',', ';', ':', '!', '?', '。', '\u00ad', '\u200b', '\t', '\n', '\r\n', '  ', ' ', ' ', ' '];
    const texts = Array.from({ length: 1500 }, () => Array.from({ length: 1 + r.int(25) }, () => r.pick(atoms)).join(''));
    const answers = run.breaks(texts);
    let agree = 0;
    texts.forEach((t, i) => {
      const answer = answers[i];
      if (answer.ok && String(answer.value.sentences) === String(Array.from(sentenceBoundaries(t))) && String(answer.value.words) === String(Array.from(wordBoundaries(t)))) agree++;
    });
    expect(agree / texts.length).toBeGreaterThan(0.98);
  });

  it('encodes HTML as SimpleHTMLEncoder', () => {
    const texts = ['a<b> & "c" \'d\' /e', '&amp; é <script>', '', 'plain'];
    run.htmlEncode(texts).forEach((answer, i) => expect(answer).toEqual({ ok: true, value: htmlEncode(texts[i]) }));
  });

  it.each([
    ['with WEIGHT_MATCHES', true],
    ['without (require_field_match: false)', false],
  ])('finds the same passages as the UnifiedHighlighter %s', (_name, weight) => {
    const r = random(weight ? 3 : 4);
    const requests: OracleRequest[] = [];
    for (let i = 0; i < 700; i++) {
      const keyword = r.int(8) === 0;
      const values = Array.from({ length: 1 + (r.int(3) === 0 ? r.int(3) : 0) }, () => (keyword ? r.pick(WORDS) : text(r)));
      // without WEIGHT_MATCHES, terms asked on another field highlight too
      const queryField = !weight && r.int(3) === 0 ? 'other' : 'body';
      let q = query(r, queryField, 0, weight);
      if (keyword) q = r.int(2) === 0 ? { t: 'term', field: queryField, term: values[0] } : q;
      const mode = keyword ? 'whole' : r.pick(['sentence', 'sentence', 'word', 'whole'] as const);
      requests.push({
        field: 'body',
        analysis: keyword ? 'keyword' : 'standard',
        mode,
        maxPassages: mode === 'whole' && !keyword ? 2147483646 : r.pick([1, 2, 3, 5, 10]),
        weightMatches: weight,
        anyField: !weight,
        values,
        query: q,
      });
    }
    const answers = run.highlight(requests);
    let compared = 0;
    requests.forEach((request, i) => {
      const answer = answers[i];
      if (!answer.ok) throw new Error(`${answer.error} for ${JSON.stringify(request)}`);
      const found = ours(request);
      const expected = comparable(answer.value, null);
      const actual = found === null ? [] : comparable(found.passages, found.content);
      expect({ request, passages: actual }).toEqual({ request, passages: expected });
      if (expected.length > 0) compared++;
    });
    // most requests highlight something
    expect(compared).toBeGreaterThan(200);
  });
});
