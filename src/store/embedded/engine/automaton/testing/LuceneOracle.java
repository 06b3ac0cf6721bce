import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.WildcardQuery;
import org.apache.lucene.util.automaton.Automata;
import org.apache.lucene.util.automaton.Automaton;
import org.apache.lucene.util.automaton.CharacterRunAutomaton;
import org.apache.lucene.util.automaton.Operations;
import org.apache.lucene.util.automaton.RegExp;
import org.apache.lucene.util.automaton.TooComplexToDeterminizeException;

/**
 * Test oracle for the automaton library (see lucene.test.ts): which terms Lucene's automata accept.
 *
 * Input (stdin): the number of terms, then one term per line, then one pattern per line as
 * "kind TAB flags TAB caseInsensitive(0/1) TAB pattern"; kind R is RegExp(pattern, flags,
 * ASCII_CASE_INSENSITIVE or 0).toAutomaton(), kind W is WildcardQuery.toAutomaton (case-insensitive:
 * as Elasticsearch's AutomatonQueries.toCaseInsensitiveWildcardAutomaton). Terms and patterns are
 * UTF-16 code units in hex, four digits each (so lone surrogates and line breaks travel safely).
 *
 * Output: per pattern, "OK TAB" and one 0/1 per term, or "ERR TAB exception class TAB message".
 */
public final class LuceneOracle {
  private static final int MAX_STATES = 100000;

  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(System.out, false, "UTF-8");
    int count = Integer.parseInt(in.readLine().trim());
    List<String> terms = new ArrayList<>();
    for (int i = 0; i < count; i++) terms.add(unhex(in.readLine()));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      if (line.isEmpty()) continue;
      String[] parts = line.split("\t", -1);
      try {
        CharacterRunAutomaton run = new CharacterRunAutomaton(automaton(parts), MAX_STATES);
        StringBuilder bits = new StringBuilder("OK\t");
        for (String term : terms) bits.append(run.run(term) ? '1' : '0');
        out.println(bits);
      } catch (TooComplexToDeterminizeException e) {
        out.println("ERR\tTooComplex\t" + clean(e.getMessage()));
      } catch (RuntimeException e) {
        out.println("ERR\t" + e.getClass().getSimpleName() + "\t" + clean(e.getMessage()));
      }
    }
    out.flush();
  }

  private static Automaton automaton(String[] parts) {
    String pattern = unhex(parts[3]);
    boolean caseInsensitive = parts[2].equals("1");
    if (parts[0].equals("R")) {
      int flags = Integer.parseInt(parts[1]);
      return new RegExp(pattern, flags, caseInsensitive ? RegExp.ASCII_CASE_INSENSITIVE : 0).toAutomaton(MAX_STATES);
    }
    Term term = new Term("field", pattern);
    return caseInsensitive ? caseInsensitiveWildcard(pattern) : WildcardQuery.toAutomaton(term);
  }

  /** Elasticsearch 8 AutomatonQueries.toCaseInsensitiveWildcardAutomaton, rewritten. */
  private static Automaton caseInsensitiveWildcard(String text) {
    List<Automaton> automata = new ArrayList<>();
    for (int i = 0; i < text.length(); ) {
      int c = text.codePointAt(i);
      i += Character.charCount(c);
      if (c == '*') automata.add(Automata.makeAnyString());
      else if (c == '?') automata.add(Automata.makeAnyChar());
      else if (c == '\\' && i < text.length()) {
        int escaped = text.codePointAt(i);
        i += Character.charCount(escaped);
        automata.add(Automata.makeChar(escaped));
      } else {
        Automaton one = Automata.makeChar(c);
        if (c <= 128) {
          int other = Character.isLowerCase(c) ? Character.toUpperCase(c) : Character.toLowerCase(c);
          if (other != c) one = Operations.union(one, Automata.makeChar(other));
        }
        automata.add(one);
      }
    }
    return Operations.concatenate(automata);
  }

  private static String unhex(String hex) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i + 4 <= hex.length(); i += 4) s.append((char) Integer.parseInt(hex.substring(i, i + 4), 16));
    return s.toString();
  }

  private static String clean(String message) {
    return String.valueOf(message).replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
  }
}
