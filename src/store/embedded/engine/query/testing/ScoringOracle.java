import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.cjk.CJKAnalyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexReaderContext;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermState;
import org.apache.lucene.index.TermStates;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.DisjunctionMaxQuery;
import org.apache.lucene.search.FuzzyQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.MultiPhraseQuery;
import org.apache.lucene.search.FuzzyQuery;
import org.apache.lucene.search.MultiTermQuery;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopScoreDocCollector;
import org.apache.lucene.search.join.QueryBitSetProducer;
import org.apache.lucene.search.join.ScoreMode;
import org.apache.lucene.search.join.ToParentBlockJoinQuery;
import org.apache.lucene.search.similarity.LegacyBM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.QueryBuilder;
import org.apache.lucene.util.StringHelper;

/**
 * Test oracle for the full-text queries of the engine (see scoringOracle.ts): indexes documents with
 * Lucene (text fields through the standard analyzer without stop words, or Elasticsearch's `english`
 * (EnglishAnalyzer) or `cjk` (CJKAnalyzer), keyword fields as untokenized terms without norms, one
 * segment, LegacyBM25Similarity as Elasticsearch 8 scores) and runs queries built the way
 * Elasticsearch builds them, given as S-expressions:
 *
 *   (term F T)                     TermQuery
 *   (prefix F T)                   PrefixQuery (constant-score rewrite)
 *   (fuzzy F T EDITS)              FuzzyQuery (prefix length 0, 50 expansions, transpositions; its
 *                                  default rewrite, top terms with blended frequencies)
 *   (fuzzy F T EDITS PREFIX MAXEXP TRANSPOSITIONS REWRITE)  the same with its parameters (TRANSPOSITIONS
 *                                  1 or 0; REWRITE "default", or an Elasticsearch rewrite name as
 *                                  QueryParsers.parseRewriteMethod reads it)
 *   (bool MSM (should Q) (must Q) (filter Q) (mustnot Q) ...)
 *   (boost B Q)
 *   (boostbyquery NB POSITIVE NEGATIVE)  FunctionScoreQuery.boostByQuery (lucene-queries), as
 *                                  Elasticsearch's boosting query builds it
 *   (dismax TIE Q ...)
 *   (phraseprefix F SLOP MAXEXP T ...)   Elasticsearch's MultiPhrasePrefixQuery.rewrite: a
 *                                  MultiPhraseQuery whose last position holds the first MAXEXP terms
 *                                  of the dictionary starting with the last T (getPrefixTerms)
 *   (blend TIE T (F B) ...)        Elasticsearch's BlendedTermQuery.dismaxBlendedQuery over the fields
 *   (intervals F SOURCE)           IntervalQuery over an IntervalsSource (intervalsSource below)
 *   (bm25f N F W ... T ...)        BM25FQuery (lucene-sandbox) over N fields with their weights, with
 *                                  LegacyBM25's boost (2.2): Lucene 9's CombinedFieldQuery when two
 *                                  (field, term) pairs or more are in the index
 *   (match F OP TEXT)              QueryBuilder.createBooleanQuery with the field's analyzer (OP: or,
 *                                  and), as MatchQueryParser (a QueryBuilder) builds `match`
 *   (matchphrase F SLOP TEXT)      QueryBuilder.createPhraseQuery likewise (`match_phrase`: the
 *                                  positions as the analyzer leaves them, stop words' gaps kept)
 *   (nested MODE Q)                ToParentBlockJoinQuery (lucene-join) of Q over the child documents,
 *                                  parents being the "D" documents, MODE one of avg, max, min, sum, none
 *                                  (as Elasticsearch's NestedQueryBuilder builds `nested`)
 *   (nestedin LEVEL MODE Q)        the same with the documents of LEVEL (1: "N", 2: "G") as parents
 *                                  (a `nested` query inside another: the enclosing scope's documents)
 *
 * Strings (F, T) are UTF-16 code units in hex, four digits each; numbers are decimal.
 *
 * Input (stdin): lines "D id (F K V)*" (K: T text, E english text, C cjk text, K keyword; id, F, V in
 * hex), each after its child documents, if any: lines "N id (F K V)*" (a block, as Elasticsearch indexes
 * a document's nested objects), each after its own children, if any, "G id (F K V)*" lines (objects of
 * a nested field inside the first), then "Q expr" lines.
 * Output: per query, "OK TAB total TAB id:score,..." (every match, best first, then in index order),
 * or "ERR TAB class TAB message".
 */
public final class ScoringOracle {
  private static final class Parser {
    private final String text;
    private int at = 0;

    Parser(String text) {
      this.text = text;
    }

    String token() {
      while (text.charAt(at) == ' ') at++;
      int start = at;
      if (text.charAt(at) == '(' || text.charAt(at) == ')') return text.substring(start, ++at);
      while (at < text.length() && " ()".indexOf(text.charAt(at)) < 0) at++;
      return text.substring(start, at);
    }

    boolean closing() {
      while (text.charAt(at) == ' ') at++;
      if (text.charAt(at) != ')') return false;
      at++;
      return true;
    }
  }

  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(System.out, false, "UTF-8");
    BooleanQuery.setMaxClauseCount(1 << 20);
    ByteBuffersDirectory dir = new ByteBuffersDirectory();
    List<String> ids = new ArrayList<>();
    List<String> queries = new ArrayList<>();
    List<String[]> docs = new ArrayList<>();
    Map<String, Analyzer> analyzers = new HashMap<>();
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      if (line.startsWith("D ") || line.startsWith("N ") || line.startsWith("G ")) {
        String[] parts = line.substring(2).split(" ");
        if (!line.startsWith("D ")) parts[0] = line.charAt(0) + parts[0];
        docs.add(parts);
        for (int i = 1; i + 2 < parts.length; i += 3) {
          if (parts[i + 1].equals("E")) analyzers.putIfAbsent(unhex(parts[i]), new EnglishAnalyzer());
          if (parts[i + 1].equals("C")) analyzers.putIfAbsent(unhex(parts[i]), new CJKAnalyzer());
        }
      } else if (line.startsWith("Q ")) {
        queries.add(line.substring(2));
      }
    }
    ANALYZER = new PerFieldAnalyzerWrapper(new StandardAnalyzer(CharArraySet.EMPTY_SET), analyzers);
    IndexWriterConfig config = new IndexWriterConfig(ANALYZER);
    config.setSimilarity(new LegacyBM25Similarity());
    IndexWriter writer = new IndexWriter(dir, config);
    List<Document> block = new ArrayList<>();
    for (String[] parts : docs) {
      boolean child = parts[0].startsWith("N") || parts[0].startsWith("G");
      ids.add(child ? "" : parts[0]);
      Document doc = new Document();
      for (int i = 1; i + 2 < parts.length; i += 3) {
        String field = unhex(parts[i]);
        String value = unhex(parts[i + 2]);
        doc.add(parts[i + 1].equals("K") ? new StringField(field, value, Field.Store.NO) : new TextField(field, value, Field.Store.NO));
      }
      if (!child) doc.add(new StringField(PARENT_FIELD, "1", Field.Store.NO));
      else doc.add(new StringField(LEVEL_FIELD, parts[0].startsWith("N") ? "1" : "2", Field.Store.NO));
      block.add(doc);
      if (!child) {
        writer.addDocuments(block);
        block = new ArrayList<>();
      }
    }
    writer.forceMerge(1);
    writer.close();
    IndexReader reader = DirectoryReader.open(dir);
    IndexSearcher searcher = new IndexSearcher(reader);
    searcher.setSimilarity(new LegacyBM25Similarity());
    for (String expr : queries) {
      try {
        Query query = parse(new Parser(expr), searcher);
        TopScoreDocCollector collector = TopScoreDocCollector.create(Math.max(1, reader.maxDoc()), Integer.MAX_VALUE);
        searcher.search(query, collector);
        TopDocs top = collector.topDocs();
        StringBuilder line = new StringBuilder("OK\t").append(top.totalHits.value).append('\t');
        for (int i = 0; i < top.scoreDocs.length; i++) {
          ScoreDoc hit = top.scoreDocs[i];
          if (i > 0) line.append(',');
          line.append(ids.get(hit.doc)).append(':').append(Float.toString(hit.score));
        }
        out.println(line);
      } catch (RuntimeException e) {
        out.println("ERR\t" + e.getClass().getSimpleName() + "\t" + String.valueOf(e.getMessage()).replace('\n', ' '));
      }
    }
    out.flush();
  }

  /** The field that marks parent ("D") documents (Elasticsearch's non-nested filter). */
  private static final String PARENT_FIELD = "__parent";
  /** The field that marks child ("N", 1) and grandchild ("G", 2) documents (a nested field's type filter). */
  private static final String LEVEL_FIELD = "__level";

  /** Each field's analyzer (the standard one without stop words unless a document gave it E or C). */
  private static Analyzer ANALYZER;

  private static Query parse(Parser p, IndexSearcher searcher) throws Exception {
    if (!p.token().equals("(")) throw new IllegalArgumentException("( expected");
    String kind = p.token();
    switch (kind) {
      case "term": {
        Query q = new TermQuery(new Term(unhex(p.token()), unhex(p.token())));
        p.closing();
        return q;
      }
      case "prefix": {
        Query q = new PrefixQuery(new Term(unhex(p.token()), unhex(p.token())));
        p.closing();
        return q;
      }
      case "fuzzy":
        return fuzzy(p);
      case "boost": {
        float boost = Float.parseFloat(p.token());
        Query q = new BoostQuery(parse(p, searcher), boost);
        p.closing();
        return q;
      }
      case "dismax": {
        float tie = Float.parseFloat(p.token());
        List<Query> disjuncts = new ArrayList<>();
        while (!p.closing()) disjuncts.add(parse(p, searcher));
        return new DisjunctionMaxQuery(disjuncts, tie);
      }
      case "bool": {
        BooleanQuery.Builder builder = new BooleanQuery.Builder();
        builder.setMinimumNumberShouldMatch(Integer.parseInt(p.token()));
        while (!p.closing()) {
          p.token(); // (
          String occur = p.token();
          Query q = parse(p, searcher);
          p.closing();
          builder.add(q, occur.equals("must") ? BooleanClause.Occur.MUST : occur.equals("filter") ? BooleanClause.Occur.FILTER : occur.equals("mustnot") ? BooleanClause.Occur.MUST_NOT : BooleanClause.Occur.SHOULD);
        }
        return builder.build();
      }
      case "boostbyquery": {
        // Elasticsearch's boosting query (BoostingQueryBuilder.doToQuery)
        float negativeBoost = Float.parseFloat(p.token());
        Query positive = parse(p, searcher);
        Query negative = parse(p, searcher);
        p.closing();
        return org.apache.lucene.queries.function.FunctionScoreQuery.boostByQuery(positive, negative, negativeBoost);
      }
      case "bm25f": {
        // Lucene 8.7's BM25FQuery (lucene-sandbox), the CombinedFieldQuery of Lucene 9 before
        // LUCENE-10039, with BM25Similarity; the boost of 1 + k1 makes it Elasticsearch's LegacyBM25
        int fields = Integer.parseInt(p.token());
        org.apache.lucene.search.BM25FQuery.Builder builder = new org.apache.lucene.search.BM25FQuery.Builder();
        for (int i = 0; i < fields; i++) {
          String field = unhex(p.token());
          builder.addField(field, Float.parseFloat(p.token()));
        }
        while (!p.closing()) builder.addTerm(new BytesRef(unhex(p.token())));
        return new BoostQuery(builder.build(), 2.2f);
      }
      case "intervals": {
        // Lucene's IntervalQuery (lucene-queries) over a source built as Elasticsearch builds it
        String field = unhex(p.token());
        org.apache.lucene.queries.intervals.IntervalsSource source = intervalsSource(p);
        p.closing();
        return new org.apache.lucene.queries.intervals.IntervalQuery(field, source);
      }
      case "phraseprefix":
        return phrasePrefix(p, searcher.getIndexReader());
      case "match": {
        String field = unhex(p.token());
        BooleanClause.Occur occur = p.token().equals("and") ? BooleanClause.Occur.MUST : BooleanClause.Occur.SHOULD;
        Query q = new QueryBuilder(ANALYZER).createBooleanQuery(field, unhex(p.token()), occur);
        p.closing();
        return q == null ? new MatchNoDocsQuery("no tokens") : q;
      }
      case "matchphrase": {
        String field = unhex(p.token());
        int slop = Integer.parseInt(p.token());
        Query q = new QueryBuilder(ANALYZER).createPhraseQuery(field, unhex(p.token()), slop);
        p.closing();
        return q == null ? new MatchNoDocsQuery("no tokens") : q;
      }
      case "nested":
      case "nestedin": {
        Query parents = kind.equals("nested") ? new TermQuery(new Term(PARENT_FIELD, "1")) : new TermQuery(new Term(LEVEL_FIELD, p.token()));
        String mode = p.token();
        Query child = parse(p, searcher);
        p.closing();
        ScoreMode scoreMode = mode.equals("avg") ? ScoreMode.Avg : mode.equals("max") ? ScoreMode.Max : mode.equals("min") ? ScoreMode.Min : mode.equals("sum") ? ScoreMode.Total : ScoreMode.None;
        return new ToParentBlockJoinQuery(child, new QueryBitSetProducer(parents), scoreMode);
      }
      case "blend":
        return blend(p, searcher.getIndexReader());
      default:
        throw new IllegalArgumentException("unknown query " + kind);
    }
  }

  /** An IntervalsSource: (iterm T), (iprefix P), (iwildcard P), (ifuzzy T EDITS PREFIX TRANSPOSITIONS), (inone), (ior S ...), (iordered S ...), (iunordered S ...), (iphrase S ...), (imaxgaps N S), (iextend S BEFORE AFTER), and the filters (icontaining A B) ... */
  private static org.apache.lucene.queries.intervals.IntervalsSource intervalsSource(Parser p) {
    if (!p.token().equals("(")) throw new IllegalArgumentException("( expected");
    String kind = p.token();
    switch (kind) {
      case "iterm": {
        org.apache.lucene.queries.intervals.IntervalsSource s = org.apache.lucene.queries.intervals.Intervals.term(unhex(p.token()));
        p.closing();
        return s;
      }
      case "iprefix": {
        org.apache.lucene.queries.intervals.IntervalsSource s = org.apache.lucene.queries.intervals.Intervals.prefix(new BytesRef(unhex(p.token())), 4096);
        p.closing();
        return s;
      }
      case "iwildcard": {
        org.apache.lucene.queries.intervals.IntervalsSource s = org.apache.lucene.queries.intervals.Intervals.wildcard(new BytesRef(unhex(p.token())), 4096);
        p.closing();
        return s;
      }
      case "ifuzzy": {
        String term = unhex(p.token());
        int edits = Integer.parseInt(p.token());
        int prefix = Integer.parseInt(p.token());
        boolean transpositions = p.token().equals("1");
        p.closing();
        FuzzyQuery fq = new FuzzyQuery(new Term("", term), edits, prefix, 4096, transpositions);
        return org.apache.lucene.queries.intervals.Intervals.multiterm(fq.getAutomata(), 4096, term);
      }
      case "iextend": {
        org.apache.lucene.queries.intervals.IntervalsSource s = intervalsSource(p);
        int before = Integer.parseInt(p.token());
        int after = Integer.parseInt(p.token());
        p.closing();
        return org.apache.lucene.queries.intervals.Intervals.extend(s, before, after);
      }
      case "imaxgaps": {
        int gaps = Integer.parseInt(p.token());
        org.apache.lucene.queries.intervals.IntervalsSource s = intervalsSource(p);
        p.closing();
        return org.apache.lucene.queries.intervals.Intervals.maxgaps(gaps, s);
      }
      default:
        break;
    }
    List<org.apache.lucene.queries.intervals.IntervalsSource> subs = new ArrayList<>();
    while (!p.closing()) subs.add(intervalsSource(p));
    org.apache.lucene.queries.intervals.IntervalsSource[] a = subs.toArray(new org.apache.lucene.queries.intervals.IntervalsSource[0]);
    switch (kind) {
      case "ior": return org.apache.lucene.queries.intervals.Intervals.or(a);
      case "iordered": return org.apache.lucene.queries.intervals.Intervals.ordered(a);
      case "iunordered": return org.apache.lucene.queries.intervals.Intervals.unordered(a);
      case "iphrase": return org.apache.lucene.queries.intervals.Intervals.phrase(a);
      case "icontaining": return org.apache.lucene.queries.intervals.Intervals.containing(a[0], a[1]);
      case "icontainedby": return org.apache.lucene.queries.intervals.Intervals.containedBy(a[0], a[1]);
      case "inotcontaining": return org.apache.lucene.queries.intervals.Intervals.notContaining(a[0], a[1]);
      case "inotcontainedby": return org.apache.lucene.queries.intervals.Intervals.notContainedBy(a[0], a[1]);
      case "ioverlapping": return org.apache.lucene.queries.intervals.Intervals.overlapping(a[0], a[1]);
      case "inonoverlapping": return org.apache.lucene.queries.intervals.Intervals.nonOverlapping(a[0], a[1]);
      case "ibefore": return org.apache.lucene.queries.intervals.Intervals.before(a[0], a[1]);
      case "iafter": return org.apache.lucene.queries.intervals.Intervals.after(a[0], a[1]);
      case "inone": return org.apache.lucene.queries.intervals.Intervals.or();
      default: throw new IllegalArgumentException("unknown intervals source " + kind);
    }
  }

  /** MultiPhrasePrefixQuery.rewrite (org.elasticsearch.common.lucene.search), one term per position. */
  private static Query phrasePrefix(Parser p, IndexReader reader) throws Exception {
    String field = unhex(p.token());
    int slop = Integer.parseInt(p.token());
    int maxExpansions = Integer.parseInt(p.token());
    List<String> terms = new ArrayList<>();
    while (!p.closing()) terms.add(unhex(p.token()));
    MultiPhraseQuery.Builder query = new MultiPhraseQuery.Builder();
    query.setSlop(slop);
    for (int i = 0; i < terms.size() - 1; i++) query.add(new Term[] {new Term(field, terms.get(i))}, i);
    BytesRef prefix = new BytesRef(terms.get(terms.size() - 1));
    Set<Term> expanded = new HashSet<>();
    for (LeafReaderContext leaf : reader.leaves()) {
      Terms indexed = leaf.reader().terms(field);
      if (indexed == null) continue;
      TermsEnum termsEnum = indexed.iterator();
      if (termsEnum.seekCeil(prefix) == TermsEnum.SeekStatus.END) continue;
      for (BytesRef term = termsEnum.term(); term != null; term = termsEnum.next()) {
        if (!StringHelper.startsWith(term, prefix)) break;
        expanded.add(new Term(field, BytesRef.deepCopyOf(term)));
        if (expanded.size() >= maxExpansions) break;
      }
    }
    if (expanded.isEmpty()) return new MatchNoDocsQuery("No terms supplied for MultiPhrasePrefixQuery");
    query.add(expanded.toArray(new Term[0]), terms.size() - 1);
    return query.build();
  }

  /** FuzzyQuery as StringFieldType.fuzzyQuery builds it, with the rewrite QueryParsers.parseRewriteMethod reads. */
  private static Query fuzzy(Parser p) {
    Term term = new Term(unhex(p.token()), unhex(p.token()));
    int edits = Integer.parseInt(p.token());
    if (p.closing()) return new FuzzyQuery(term, edits);
    int prefix = Integer.parseInt(p.token());
    int maxExpansions = Integer.parseInt(p.token());
    boolean transpositions = p.token().equals("1");
    String rewrite = p.token();
    p.closing();
    FuzzyQuery query = new FuzzyQuery(term, edits, prefix, maxExpansions, transpositions);
    int size = rewrite.replaceAll("[^0-9]", "").isEmpty() ? 0 : Integer.parseInt(rewrite.replaceAll("[^0-9]", ""));
    if (rewrite.equals("constant_score")) query.setRewriteMethod(MultiTermQuery.CONSTANT_SCORE_REWRITE);
    else if (rewrite.equals("scoring_boolean")) query.setRewriteMethod(MultiTermQuery.SCORING_BOOLEAN_REWRITE);
    else if (rewrite.equals("constant_score_boolean")) query.setRewriteMethod(MultiTermQuery.CONSTANT_SCORE_BOOLEAN_REWRITE);
    else if (rewrite.startsWith("top_terms_blended_freqs_")) query.setRewriteMethod(new MultiTermQuery.TopTermsBlendedFreqScoringRewrite(size));
    else if (rewrite.startsWith("top_terms_boost_")) query.setRewriteMethod(new MultiTermQuery.TopTermsBoostOnlyBooleanQueryRewrite(size));
    else if (rewrite.startsWith("top_terms_")) query.setRewriteMethod(new MultiTermQuery.TopTermsScoringBooleanQueryRewrite(size));
    return query;
  }

  /** BlendedTermQuery.dismaxBlendedQuery (org.elasticsearch.lucene.queries): blend() then its top-level query. */
  private static Query blend(Parser p, IndexReader reader) throws Exception {
    float tie = Float.parseFloat(p.token());
    String text = unhex(p.token());
    List<Term> terms = new ArrayList<>();
    List<Float> boosts = new ArrayList<>();
    while (!p.closing()) {
      p.token(); // (
      terms.add(new Term(unhex(p.token()), text));
      boosts.add(Float.parseFloat(p.token()));
      p.closing();
    }
    IndexReaderContext top = reader.getContext();
    TermStates[] contexts = new TermStates[terms.size()];
    for (int i = 0; i < contexts.length; i++) contexts[i] = TermStates.build(top, terms.get(i), true);
    int maxDoc = reader.maxDoc();
    if (contexts.length > 1) {
      int max = 0;
      long minSumTTF = Long.MAX_VALUE;
      for (int i = 0; i < contexts.length; i++) {
        max = Math.max(contexts[i].docFreq(), max);
        if (contexts[i].totalTermFreq() > 0) minSumTTF = Math.min(minSumTTF, reader.getSumTotalTermFreq(terms.get(i).field()));
      }
      if (maxDoc > minSumTTF) maxDoc = (int) minSumTTF;
      if (max > 0) {
        Integer[] order = new Integer[contexts.length];
        for (int i = 0; i < order.length; i++) order[i] = i;
        final TermStates[] c = contexts;
        java.util.Arrays.sort(order, (a, b) -> Integer.compare(c[b].docFreq(), c[a].docFreq())); // stable
        int prev = contexts[order[0]].docFreq();
        int actualDf = Math.min(maxDoc, max);
        for (int i : order) {
          if (contexts[i].docFreq() == 0) break;
          int current = contexts[i].docFreq();
          if (prev > current) actualDf++;
          int docCount = reader.getDocCount(terms.get(i).field());
          int newDocFreq = Math.min(Math.min(actualDf, docCount), maxDoc);
          contexts[i] = adjust(top, contexts[i], newDocFreq, Math.max(contexts[i].totalTermFreq(), newDocFreq));
          prev = current;
        }
      }
    }
    List<Query> queries = new ArrayList<>();
    for (int i = 0; i < contexts.length; i++) {
      Query q = new TermQuery(terms.get(i), contexts[i]);
      if (boosts.get(i) != 1f) q = new BoostQuery(q, boosts.get(i));
      queries.add(q);
    }
    return new DisjunctionMaxQuery(queries, tie);
  }

  private static TermStates adjust(IndexReaderContext top, TermStates ctx, int docFreq, long totalTermFreq) throws Exception {
    TermStates adjusted = new TermStates(top);
    List<LeafReaderContext> leaves = top.leaves();
    for (int i = 0; i < leaves.size(); i++) {
      TermState state = ctx.get(leaves.get(i));
      if (state == null) continue;
      adjusted.register(state, i, docFreq, totalTermFreq);
      docFreq = 0;
      totalTermFreq = 0;
    }
    return adjusted;
  }

  private static String unhex(String hex) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i + 4 <= hex.length(); i += 4) out.append((char) Integer.parseInt(hex.substring(i, i + 4), 16));
    return out.toString();
  }
}
