import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.cjk.CJKAnalyzer;
import org.apache.lucene.analysis.core.KeywordAnalyzer;
import org.apache.lucene.analysis.core.SimpleAnalyzer;
import org.apache.lucene.analysis.core.StopAnalyzer;
import org.apache.lucene.analysis.core.WhitespaceAnalyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.analysis.tokenattributes.TypeAttribute;

/**
 * Test oracle: reads lines "<analyzer> <text as hex UTF-16 code units>" and prints, per line, the
 * tokens Lucene's analyzer makes of the text, separated by spaces, each
 * "<term hex>,<start>,<end>,<position increment>,<type>". Analyzers: `tokenizer` (StandardTokenizer
 * alone), `standard` (StandardAnalyzer without stop words, as Elasticsearch's), `simple`,
 * `whitespace`, `stop`, `keyword`, `english`, `cjk` (their Lucene analyzers with their default stop sets;
 * `stop` with the English ones, as Elasticsearch's).
 */
public class AnalysisOracle {
  static Analyzer analyzer(String name) {
    switch (name) {
      case "tokenizer":
        return new Analyzer() {
          @Override
          protected TokenStreamComponents createComponents(String field) {
            Tokenizer source = new StandardTokenizer();
            return new TokenStreamComponents(source);
          }
        };
      case "standard": return new StandardAnalyzer(CharArraySet.EMPTY_SET);
      case "simple": return new SimpleAnalyzer();
      case "whitespace": return new WhitespaceAnalyzer();
      case "stop": return new StopAnalyzer(EnglishAnalyzer.ENGLISH_STOP_WORDS_SET);
      case "keyword": return new KeywordAnalyzer();
      case "english": return new EnglishAnalyzer();
      case "cjk": return new CJKAnalyzer();
      default: throw new IllegalArgumentException(name);
    }
  }

  static String hex(CharSequence s) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < s.length(); i++) out.append(String.format("%04x", (int) s.charAt(i)));
    return out.toString();
  }

  static String unhex(String s) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i + 4 <= s.length(); i += 4) out.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
    return out.toString();
  }

  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    StringBuilder out = new StringBuilder();
    java.util.Map<String, Analyzer> analyzers = new java.util.HashMap<>();
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isEmpty()) continue;
      int space = line.indexOf(' ');
      String name = space < 0 ? line : line.substring(0, space);
      String text = space < 0 ? "" : unhex(line.substring(space + 1));
      Analyzer analyzer = analyzers.computeIfAbsent(name, AnalysisOracle::analyzer);
      StringBuilder tokens = new StringBuilder("T");
      try (TokenStream ts = analyzer.tokenStream("f", text)) {
        CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
        OffsetAttribute offset = ts.addAttribute(OffsetAttribute.class);
        PositionIncrementAttribute inc = ts.addAttribute(PositionIncrementAttribute.class);
        TypeAttribute type = ts.addAttribute(TypeAttribute.class);
        ts.reset();
        while (ts.incrementToken()) {
          tokens.append(' ').append(hex(term)).append(',').append(offset.startOffset()).append(',').append(offset.endOffset())
              .append(',').append(inc.getPositionIncrement()).append(',').append(type.type());
        }
        ts.end();
      }
      out.append(tokens).append('\n');
    }
    System.out.print(out);
  }
}
