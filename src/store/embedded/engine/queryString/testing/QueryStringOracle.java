import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.queryparser.classic.MultiFieldQueryParser;
import org.apache.lucene.queryparser.classic.ParseException;
import org.apache.lucene.queryparser.classic.QueryParser;
import org.apache.lucene.queryparser.simple.SimpleQueryParser;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.similarity.LegacyBM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * Test oracle for the query string syntaxes (see queryStringOracle.ts): indexes documents with
 * Lucene (text fields through the standard analyzer without stop words, one segment,
 * LegacyBM25Similarity as Elasticsearch 8 scores), parses query strings with Lucene's own parsers
 * and searches. The classic parsers get one change of Elasticsearch's: a purely negative boolean
 * query also matches every other document (fixNegativeQueryIfNeeded, below).
 *
 * Input (stdin): the number of documents, then one per line: id, then its fields as name=value
 * pairs, TAB-separated. Then one query per line, TAB-separated:
 *   C  operator(OR/AND)  fields  query   classic QueryParser (one field) or MultiFieldQueryParser
 *   S  operator          fields  flags  query   SimpleQueryParser
 * fields are name^boost separated by commas. Strings (values, queries) are UTF-16 code units in
 * hex, four digits each.
 *
 * Output: per query, "OK TAB total TAB" and every hit as id:score (best first, ties in index
 * order) separated by spaces, or "ERR TAB exception class TAB message".
 */
public final class QueryStringOracle {
  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(System.out, false, "UTF-8");
    StandardAnalyzer analyzer = new StandardAnalyzer(CharArraySet.EMPTY_SET);
    ByteBuffersDirectory dir = new ByteBuffersDirectory();
    IndexWriterConfig config = new IndexWriterConfig(analyzer);
    config.setSimilarity(new LegacyBM25Similarity());
    IndexWriter writer = new IndexWriter(dir, config);
    int count = Integer.parseInt(in.readLine().trim());
    for (int i = 0; i < count; i++) {
      String[] parts = in.readLine().split("\t", -1);
      Document doc = new Document();
      doc.add(new StringField("_id", parts[0], Field.Store.YES));
      for (int p = 1; p < parts.length; p++) {
        int eq = parts[p].indexOf('=');
        doc.add(new TextField(parts[p].substring(0, eq), unhex(parts[p].substring(eq + 1)), Field.Store.NO));
      }
      writer.addDocument(doc);
    }
    writer.forceMerge(1);
    writer.close();
    DirectoryReader reader = DirectoryReader.open(dir);
    IndexSearcher searcher = new IndexSearcher(reader);
    searcher.setSimilarity(new LegacyBM25Similarity());
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      if (line.isEmpty()) continue;
      String[] parts = line.split("\t", -1);
      try {
        Query query = parse(parts, analyzer);
        TopDocs top = searcher.search(query, Math.max(1, reader.maxDoc()));
        StringBuilder hits = new StringBuilder("OK\t" + top.totalHits.value + "\t");
        for (ScoreDoc hit : top.scoreDocs) {
          hits.append(searcher.doc(hit.doc).get("_id")).append(':').append(hit.score).append(' ');
        }
        out.println(hits.toString().trim());
      } catch (Exception | Error e) {
        out.println("ERR\t" + e.getClass().getSimpleName() + "\t" + String.valueOf(e.getMessage()).replace('\t', ' ').replace('\n', ' ').replace('\r', ' '));
      }
    }
    out.flush();
  }

  private static Query parse(String[] parts, StandardAnalyzer analyzer) throws Exception {
    boolean and = parts[1].equals("AND");
    Map<String, Float> weights = new LinkedHashMap<>();
    for (String field : parts[2].split(",")) {
      int caret = field.indexOf('^');
      weights.put(caret < 0 ? field : field.substring(0, caret), caret < 0 ? 1f : Float.parseFloat(field.substring(caret + 1)));
    }
    if (parts[0].equals("S")) {
      SimpleQueryParser parser = new SimpleQueryParser(analyzer, weights, Integer.parseInt(parts[3]));
      parser.setDefaultOperator(and ? BooleanClause.Occur.MUST : BooleanClause.Occur.SHOULD);
      return parser.parse(unhex(parts[4]));
    }
    QueryParser parser;
    if (weights.size() == 1) {
      parser = new QueryParser(weights.keySet().iterator().next(), analyzer) {
        @Override
        protected Query getBooleanQuery(List<BooleanClause> clauses) throws ParseException {
          return fixNegativeQueryIfNeeded(super.getBooleanQuery(clauses));
        }
      };
    } else {
      // without boosts when they are all 1: with boosts, MultiFieldQueryParser drops the slop of phrases
      boolean boosted = weights.values().stream().anyMatch(b -> b != 1f);
      parser = new MultiFieldQueryParser(weights.keySet().toArray(new String[0]), analyzer, boosted ? weights : null) {
        @Override
        protected Query getBooleanQuery(List<BooleanClause> clauses) throws ParseException {
          return fixNegativeQueryIfNeeded(super.getBooleanQuery(clauses));
        }
      };
    }
    parser.setAllowLeadingWildcard(true);
    parser.setDefaultOperator(and ? QueryParser.Operator.AND : QueryParser.Operator.OR);
    return parser.parse(unhex(parts[3]));
  }

  /**
   * Elasticsearch's Queries.fixNegativeQueryIfNeeded, which its QueryStringQueryParser applies to
   * every boolean query: only prohibited clauses also match every other document (plain Lucene
   * matches nothing).
   */
  static Query fixNegativeQueryIfNeeded(Query q) {
    if (!(q instanceof BooleanQuery)) return q;
    BooleanQuery bq = (BooleanQuery) q;
    if (bq.clauses().isEmpty()) return q;
    for (BooleanClause clause : bq.clauses()) if (!clause.isProhibited()) return q;
    BooleanQuery.Builder builder = new BooleanQuery.Builder();
    for (BooleanClause clause : bq.clauses()) builder.add(clause);
    builder.add(new MatchAllDocsQuery(), BooleanClause.Occur.FILTER);
    return builder.build();
  }

  private static String unhex(String hex) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i + 4 <= hex.length(); i += 4) s.append((char) Integer.parseInt(hex.substring(i, i + 4), 16));
    return s.toString();
  }
}
