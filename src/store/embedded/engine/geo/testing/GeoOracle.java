import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.LatLonPoint;
import org.apache.lucene.geo.GeoEncodingUtils;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.SloppyMath;

/**
 * Test oracle for the engine's geo pieces (see geo.lucene.test.ts): Lucene's LatLonPoint distance and
 * box queries over indexed points, SloppyMath.haversinMeters and GeoEncodingUtils' quantization.
 *
 * Input (stdin): "P lat lon" lines (document i has the i-th point; "P" alone: no point), then
 * "DIST lat lon radius", "BOX minLat maxLat minLon maxLon", "HAV lat1 lon1 lat2 lon2", "ENC lat lon".
 * Output, one line per request: the matching document numbers (ascending, comma-separated), or the
 * distance / the decoded latitude and longitude as raw IEEE bits in hex.
 */
public final class GeoOracle {
  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(System.out, false, "UTF-8");
    ByteBuffersDirectory dir = new ByteBuffersDirectory();
    IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig());
    List<String> requests = new ArrayList<>();
    int docs = 0;
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      if (line.startsWith("P")) {
        Document doc = new Document();
        String[] parts = line.split(" ");
        if (parts.length == 3) doc.add(new LatLonPoint("p", Double.parseDouble(parts[1]), Double.parseDouble(parts[2])));
        writer.addDocument(doc);
        docs++;
      } else if (!line.isEmpty()) {
        requests.add(line);
      }
    }
    writer.forceMerge(1);
    writer.close();
    IndexSearcher searcher = new IndexSearcher(DirectoryReader.open(dir));
    for (String request : requests) {
      String[] p = request.split(" ");
      switch (p[0]) {
        case "DIST":
        case "BOX": {
          Query q = p[0].equals("DIST")
              ? LatLonPoint.newDistanceQuery("p", Double.parseDouble(p[1]), Double.parseDouble(p[2]), Double.parseDouble(p[3]))
              : LatLonPoint.newBoxQuery("p", Double.parseDouble(p[1]), Double.parseDouble(p[2]), Double.parseDouble(p[3]), Double.parseDouble(p[4]));
          TopDocs top = searcher.search(q, Math.max(1, docs));
          List<Integer> ids = new ArrayList<>();
          for (ScoreDoc sd : top.scoreDocs) ids.add(sd.doc);
          ids.sort(null);
          StringBuilder sb = new StringBuilder("=");
          for (int i = 0; i < ids.size(); i++) sb.append(i == 0 ? "" : ",").append(ids.get(i));
          out.println(sb);
          break;
        }
        case "HAV":
          out.println(Long.toHexString(Double.doubleToRawLongBits(SloppyMath.haversinMeters(Double.parseDouble(p[1]), Double.parseDouble(p[2]), Double.parseDouble(p[3]), Double.parseDouble(p[4])))));
          break;
        case "ENC": {
          double lat = GeoEncodingUtils.decodeLatitude(GeoEncodingUtils.encodeLatitude(Double.parseDouble(p[1])));
          double lon = GeoEncodingUtils.decodeLongitude(GeoEncodingUtils.encodeLongitude(Double.parseDouble(p[2])));
          out.println(Long.toHexString(Double.doubleToRawLongBits(lat)) + " " + Long.toHexString(Double.doubleToRawLongBits(lon)));
          break;
        }
        default:
          throw new IllegalArgumentException("unknown request " + request);
      }
    }
    out.flush();
  }
}
