package docsvc.testservices;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.TokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.email.UAX29URLEmailTokenizer;
import org.apache.lucene.analysis.pattern.PatternCaptureGroupTokenFilter;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.index.analysis.AbstractTokenFilterFactory;
import org.elasticsearch.index.analysis.AbstractTokenizerFactory;
import org.elasticsearch.index.analysis.TokenFilterFactory;
import org.elasticsearch.index.analysis.TokenizerFactory;
import org.elasticsearch.indices.analysis.AnalysisModule.AnalysisProvider;
import org.elasticsearch.plugins.AnalysisPlugin;
import org.elasticsearch.plugins.Plugin;

/**
 * The Elasticsearch integ-test distribution on Maven Central ships without the analysis-common module, and
 * that module is not published on its own. The security plugin creates its `.security` index with an
 * `email` analyzer built from `uax_url_email`, `pattern_capture` and `unique`, so without them no API key,
 * native user or role can be stored. This module registers exactly those three components, as thin
 * wrappers over the Lucene classes the distribution already carries. It is test infrastructure only.
 */
public final class DocsvcAnalysisPlugin extends Plugin implements AnalysisPlugin {

  @Override
  public Map<String, AnalysisProvider<TokenizerFactory>> getTokenizers() {
    return Map.of("uax_url_email", (indexSettings, env, name, settings) ->
        new AbstractTokenizerFactory(indexSettings, settings, name) {
          private final int maxTokenLength = settings.getAsInt("max_token_length", 255);

          @Override
          public Tokenizer create() {
            UAX29URLEmailTokenizer tokenizer = new UAX29URLEmailTokenizer();
            tokenizer.setMaxTokenLength(maxTokenLength);
            return tokenizer;
          }
        });
  }

  @Override
  public Map<String, AnalysisProvider<TokenFilterFactory>> getTokenFilters() {
    return Map.of(
        // Like the original, pattern_capture is only built from an index's analysis settings.
        "pattern_capture",
        AnalysisPlugin.requiresAnalysisSettings((indexSettings, env, name, settings) -> patternCapture(name, settings)),
        "unique", (indexSettings, env, name, settings) -> unique(name, settings));
  }

  private static TokenFilterFactory patternCapture(String name, Settings settings) {
    List<String> regexes = settings.getAsList("patterns");
    if (regexes.isEmpty()) {
      throw new IllegalArgumentException("pattern_capture filter [" + name + "] needs [patterns]");
    }
    List<Pattern> compiled = new ArrayList<>();
    for (String regex : regexes) {
      compiled.add(Pattern.compile(regex));
    }
    Pattern[] patterns = compiled.toArray(new Pattern[0]);
    boolean preserveOriginal = settings.getAsBoolean("preserve_original", true);
    return new AbstractTokenFilterFactory(name, settings) {
      @Override
      public TokenStream create(TokenStream input) {
        return new PatternCaptureGroupTokenFilter(input, preserveOriginal, patterns);
      }
    };
  }

  private static TokenFilterFactory unique(String name, Settings settings) {
    return new AbstractTokenFilterFactory(name, settings) {
      @Override
      public TokenStream create(TokenStream input) {
        return new UniqueTermFilter(input);
      }
    };
  }

  /** Drops every term already seen earlier in the same token stream. */
  private static final class UniqueTermFilter extends TokenFilter {
    private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
    private final CharArraySet seen = new CharArraySet(16, false);

    UniqueTermFilter(TokenStream input) {
      super(input);
    }

    @Override
    public boolean incrementToken() throws IOException {
      while (input.incrementToken()) {
        char[] copy = new char[term.length()];
        System.arraycopy(term.buffer(), 0, copy, 0, term.length());
        if (seen.add(copy)) {
          return true;
        }
      }
      return false;
    }

    @Override
    public void reset() throws IOException {
      super.reset();
      seen.clear();
    }
  }
}
