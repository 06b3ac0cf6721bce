import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.AnalyzerWrapper;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.core.KeywordAnalyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.DisjunctionMaxQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TermRangeQuery;
import org.apache.lucene.search.WildcardQuery;
import org.apache.lucene.search.uhighlight.CustomSeparatorBreakIterator;
import org.apache.lucene.search.uhighlight.DefaultPassageFormatter;
import org.apache.lucene.search.uhighlight.Passage;
import org.apache.lucene.search.uhighlight.PassageFormatter;
import org.apache.lucene.search.uhighlight.UnifiedHighlighter;
import org.apache.lucene.util.BytesRef;

/**
 * Test oracle (not shipped): answers, with the real Lucene 8.7 unified highlighter and the JDK's
 * BreakIterator, the requests of highlightOracle.ts, one per line, strings as hex UTF-16 code units:
 *
 *   B <text>                 the JDK's sentence and word boundaries, and the sentence iterator's
 *                            following(i) and preceding(i) for every offset
 *   E <text>                 Lucene's SimpleHTMLEncoder
 *   H <field> <S|K> <sentence|word|whole> <maxPassages> <weightMatches 0|1> <anyField 0|1>
 *     <n> <value>... <query>  the passages of UnifiedHighlighter.highlightWithoutSearcher over the
 *                            values joined with U+0000, the standard analyzer (no stop words,
 *                            position_increment_gap 100) or the keyword analyzer
 *
 * Queries in prefix notation: T field term | P field slop n term... | B msm n (M|S|F|N query)... |
 * X field prefix | W field pattern | D tie n query... | C query | A | I field n term... |
 * G field lower|- upper|- includeLower includeUpper.
 */
public class HighlightOracle {
  private static String[] tokens;
  private static int at;

  private static String next() {
    return tokens[at++];
  }

  private static String text() {
    String hex = next();
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i + 4 <= hex.length(); i += 4) sb.append((char) Integer.parseInt(hex.substring(i, i + 4), 16));
    return sb.toString();
  }

  private static String hex(String s) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < s.length(); i++) sb.append(String.format("%04x", (int) s.charAt(i)));
    return sb.toString();
  }

  private static Query query() {
    String kind = next();
    switch (kind) {
      case "T": {
        String field = text();
        return new TermQuery(new Term(field, text()));
      }
      case "P": {
        String field = text();
        int slop = Integer.parseInt(next());
        int n = Integer.parseInt(next());
        PhraseQuery.Builder b = new PhraseQuery.Builder();
        for (int i = 0; i < n; i++) b.add(new Term(field, text()), i);
        b.setSlop(slop);
        return b.build();
      }
      case "B": {
        int msm = Integer.parseInt(next());
        int n = Integer.parseInt(next());
        BooleanQuery.Builder b = new BooleanQuery.Builder();
        b.setMinimumNumberShouldMatch(msm);
        for (int i = 0; i < n; i++) {
          String occur = next();
          BooleanClause.Occur o = occur.equals("M") ? BooleanClause.Occur.MUST : occur.equals("S") ? BooleanClause.Occur.SHOULD : occur.equals("F") ? BooleanClause.Occur.FILTER : BooleanClause.Occur.MUST_NOT;
          b.add(query(), o);
        }
        return b.build();
      }
      case "X": {
        String field = text();
        return new PrefixQuery(new Term(field, text()));
      }
      case "W": {
        String field = text();
        return new WildcardQuery(new Term(field, text()));
      }
      case "D": {
        float tie = Float.parseFloat(next());
        int n = Integer.parseInt(next());
        List<Query> disjuncts = new ArrayList<>();
        for (int i = 0; i < n; i++) disjuncts.add(query());
        return new DisjunctionMaxQuery(disjuncts, tie);
      }
      case "C":
        return new ConstantScoreQuery(query());
      case "A":
        return new MatchAllDocsQuery();
      case "I": {
        String field = text();
        int n = Integer.parseInt(next());
        List<BytesRef> terms = new ArrayList<>();
        for (int i = 0; i < n; i++) terms.add(new BytesRef(text()));
        return new TermInSetQuery(field, terms);
      }
      case "G": {
        String field = text();
        String lower = next();
        String upper = next();
        boolean il = next().equals("1");
        boolean iu = next().equals("1");
        return TermRangeQuery.newStringRange(field, lower.equals("-") ? null : unhex(lower), upper.equals("-") ? null : unhex(upper), il, iu);
      }
      default:
        throw new IllegalArgumentException("unknown query " + kind);
    }
  }

  private static String unhex(String hex) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i + 4 <= hex.length(); i += 4) sb.append((char) Integer.parseInt(hex.substring(i, i + 4), 16));
    return sb.toString();
  }

  /** Every passage, each with its matches and its text as DefaultPassageFormatter writes a passage alone. */
  private static final class PassagesOut extends PassageFormatter {
    @Override
    public Object format(Passage[] passages, String content) {
      StringBuilder out = new StringBuilder();
      out.append(passages.length);
      DefaultPassageFormatter one = new DefaultPassageFormatter("<b>", "</b>", "", false);
      for (Passage p : passages) {
        out.append('\n').append(p.getStartOffset()).append(' ').append(p.getEndOffset()).append(' ').append(Float.floatToIntBits(p.getScore())).append(' ').append(p.getNumMatches());
        for (int i = 0; i < p.getNumMatches(); i++) {
          out.append(' ').append(p.getMatchStarts()[i]).append(' ').append(p.getMatchEnds()[i]).append(' ').append(hex(p.getMatchTerms()[i].utf8ToString())).append(' ').append(p.getMatchTermFreqsInDoc()[i]);
        }
        out.append(' ').append(hex(one.format(new Passage[] { p }, content)));
      }
      return out.toString();
    }
  }

  private static String highlight() throws Exception {
    String field = text();
    String analysis = next();
    String mode = next();
    int maxPassages = Integer.parseInt(next());
    boolean weight = next().equals("1");
    boolean anyField = next().equals("1");
    int n = Integer.parseInt(next());
    StringBuilder content = new StringBuilder();
    for (int i = 0; i < n; i++) {
      if (i > 0) content.append('\u0000');
      content.append(text());
    }
    Query q = query();
    Analyzer base = analysis.equals("S") ? new StandardAnalyzer(CharArraySet.EMPTY_SET) : new KeywordAnalyzer();
    Analyzer analyzer = new AnalyzerWrapper(Analyzer.PER_FIELD_REUSE_STRATEGY) {
      @Override
      protected Analyzer getWrappedAnalyzer(String f) {
        return base;
      }

      @Override
      public int getPositionIncrementGap(String f) {
        return analysis.equals("S") ? 100 : 0;
      }
    };
    UnifiedHighlighter uh = new UnifiedHighlighter(null, analyzer) {
      @Override
      protected Set<HighlightFlag> getFlags(String f) {
        Set<HighlightFlag> flags = super.getFlags(f);
        if (weight) flags.add(HighlightFlag.WEIGHT_MATCHES);
        else flags.remove(HighlightFlag.WEIGHT_MATCHES);
        return flags;
      }

      @Override
      protected Predicate<String> getFieldMatcher(String f) {
        return anyField ? (name -> true) : (name -> name.equals(f));
      }

      @Override
      protected BreakIterator getBreakIterator(String f) {
        if (mode.equals("word")) return BreakIterator.getWordInstance(Locale.ROOT);
        if (mode.equals("whole")) return new CustomSeparatorBreakIterator('\u0000');
        return BreakIterator.getSentenceInstance(Locale.ROOT);
      }
    };
    uh.setFormatter(new PassagesOut());
    uh.setMaxNoHighlightPassages(0);
    uh.setMaxLength(Integer.MAX_VALUE - 1);
    Object out = uh.highlightWithoutSearcher(field, q, content.toString(), maxPassages);
    return out == null ? "0" : out.toString();
  }

  private static String breaks() {
    String text = text();
    StringBuilder out = new StringBuilder();
    for (BreakIterator bi : new BreakIterator[] { BreakIterator.getSentenceInstance(Locale.ROOT), BreakIterator.getWordInstance(Locale.ROOT) }) {
      bi.setText(text);
      StringBuilder line = new StringBuilder();
      for (int b = bi.first(); b != BreakIterator.DONE; b = bi.next()) line.append(line.length() == 0 ? "" : ",").append(b);
      out.append(line).append('\n');
    }
    BreakIterator s = BreakIterator.getSentenceInstance(Locale.ROOT);
    s.setText(text);
    StringBuilder following = new StringBuilder();
    StringBuilder preceding = new StringBuilder();
    for (int i = 0; i <= text.length(); i++) {
      following.append(i == 0 ? "" : ",").append(s.following(i));
      preceding.append(i == 0 ? "" : ",").append(s.preceding(i));
    }
    return out.append(following).append('\n').append(preceding).toString();
  }

  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(System.out, false, "UTF-8");
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isEmpty()) continue;
      tokens = line.split("\t", -1);
      at = 0;
      String command = next();
      try {
        String answer;
        if (command.equals("B")) answer = breaks();
        else if (command.equals("E")) answer = hex(new org.apache.lucene.search.highlight.SimpleHTMLEncoder().encodeText(text()));
        else answer = highlight();
        out.println("OK");
        out.println(answer);
      } catch (Exception e) {
        out.println("ERR");
        out.println(e.getClass().getSimpleName() + ": " + e.getMessage());
      }
      out.println("END");
    }
    out.flush();
  }
}
