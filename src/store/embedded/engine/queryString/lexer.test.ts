import { Kind, Lexer, LexicalError, addEscapes } from './lexer';

/** Every token of a text, as [kind, image] pairs (EOF left out). */
function tokens(text: string): [Kind, string][] {
  const lexer = new Lexer(text);
  const out: [Kind, string][] = [];
  for (let i = 0; ; i++) {
    const token = lexer.token(i);
    if (token.kind === Kind.EOF) return out;
    out.push([token.kind, token.image]);
  }
}

function lexicalError(text: string): string {
  try {
    tokens(text);
  } catch (err) {
    if (err instanceof LexicalError) return err.message;
    throw err;
  }
  throw new Error(`no lexical error in ${text}`);
}

describe('classic query syntax lexer', () => {
  it('reads operators, words and terms, the longest token winning and the first defined among equals', () => {
    expect(tokens('a AND b && c OR d || e NOT f ! g')).toEqual([
      [Kind.TERM, 'a'], [Kind.AND, 'AND'], [Kind.TERM, 'b'], [Kind.AND, '&&'], [Kind.TERM, 'c'], [Kind.OR, 'OR'], [Kind.TERM, 'd'], [Kind.OR, '||'],
      [Kind.TERM, 'e'], [Kind.NOT, 'NOT'], [Kind.TERM, 'f'], [Kind.BAREOPER, '! '], [Kind.TERM, 'g'],
    ]);
    expect(tokens('ANDROID &&b ORx')).toEqual([[Kind.TERM, 'ANDROID'], [Kind.TERM, '&&b'], [Kind.TERM, 'ORx']]);
    expect(tokens('+a -b !c + d')).toEqual([[Kind.PLUS, '+'], [Kind.TERM, 'a'], [Kind.MINUS, '-'], [Kind.TERM, 'b'], [Kind.NOT, '!'], [Kind.TERM, 'c'], [Kind.BAREOPER, '+ '], [Kind.TERM, 'd']]);
  });

  it('keeps - and + inside terms, and escapes anywhere', () => {
    expect(tokens('x-ray a+b c\\:d \\-e f\\ g')).toEqual([[Kind.TERM, 'x-ray'], [Kind.TERM, 'a+b'], [Kind.TERM, 'c\\:d'], [Kind.TERM, '\\-e'], [Kind.TERM, 'f\\ g']]);
  });

  it('tells prefixes, wildcards, fuzzy slops, regular expressions and quotes apart', () => {
    expect(tokens('foo* fo*o *oo ? * ** foo~ foo~2 foo~0.5 /a.c/ /a\\/b/ "x \\" y"')).toEqual([
      [Kind.PREFIXTERM, 'foo*'], [Kind.WILDTERM, 'fo*o'], [Kind.WILDTERM, '*oo'], [Kind.WILDTERM, '?'], [Kind.STAR, '*'], [Kind.WILDTERM, '**'],
      [Kind.TERM, 'foo'], [Kind.FUZZY_SLOP, '~'], [Kind.TERM, 'foo'], [Kind.FUZZY_SLOP, '~2'], [Kind.TERM, 'foo'], [Kind.FUZZY_SLOP, '~0.5'],
      [Kind.REGEXPTERM, '/a.c/'], [Kind.REGEXPTERM, '/a\\/b/'], [Kind.QUOTED, '"x \\" y"'],
    ]);
    expect(tokens('field:(a)')).toEqual([[Kind.TERM, 'field'], [Kind.COLON, ':'], [Kind.LPAREN, '('], [Kind.TERM, 'a'], [Kind.RPAREN, ')']]);
  });

  it('reads a boost as a number, and ranges in their own state', () => {
    expect(tokens('a^2.5 b')).toEqual([[Kind.TERM, 'a'], [Kind.CARAT, '^'], [Kind.NUMBER, '2.5'], [Kind.TERM, 'b']]);
    expect(tokens('[a TO "b c"} {* TO TOP]')).toEqual([
      [Kind.RANGEIN_START, '['], [Kind.RANGE_GOOP, 'a'], [Kind.RANGE_TO, 'TO'], [Kind.RANGE_QUOTED, '"b c"'], [Kind.RANGEEX_END, '}'],
      [Kind.RANGEEX_START, '{'], [Kind.RANGE_GOOP, '*'], [Kind.RANGE_TO, 'TO'], [Kind.RANGE_GOOP, 'TOP'], [Kind.RANGEIN_END, ']'],
    ]);
    // the longest way: a quote after a backslash may be content
    expect(tokens('["a\\"b" TO c]')[1]).toEqual([Kind.RANGE_QUOTED, '"a\\"b"']);
  });

  it('skips whitespace, the ideographic space included, but not in a boost', () => {
    expect(tokens(' a\u3000\tb\n')).toEqual([[Kind.TERM, 'a'], [Kind.TERM, 'b']]);
    expect(lexicalError('a^ 2')).toBe('Lexical error at line 1, column 3.  Encountered: " " (32), after : ""');
  });

  it('reports lexical errors as TokenMgrError does: the character, or <EOF> one column past the end', () => {
    expect(lexicalError('foo^abc')).toBe('Lexical error at line 1, column 5.  Encountered: "a" (97), after : ""');
    expect(lexicalError('alpha^x')).toBe('Lexical error at line 1, column 8.  Encountered: <EOF> after : ""');
    expect(lexicalError('a ] b')).toBe('Lexical error at line 1, column 3.  Encountered: "]" (93), after : ""');
    expect(lexicalError('"abc')).toBe('Lexical error at line 1, column 5.  Encountered: <EOF> after : "\\"abc"');
    expect(lexicalError('a/b')).toBe('Lexical error at line 1, column 4.  Encountered: <EOF> after : "/b"');
    expect(lexicalError('a\\')).toBe('Lexical error at line 1, column 3.  Encountered: <EOF> after : ""');
    expect(lexicalError('"ab\n')).toBe('Lexical error at line 2, column 0.  Encountered: <EOF> after : "\\"ab\\n"');
  });

  it('makes tokens only when asked for: an error further on is not met early', () => {
    const lexer = new Lexer('a ]');
    expect(lexer.token(0).kind).toBe(Kind.TERM);
    expect(() => lexer.token(1)).toThrow(LexicalError);
  });

  it('escapes messages as JavaCC does', () => {
    expect(addEscapes('a"b\\\n\u00e9')).toBe('a\\"b\\\\\\n\\u00e9');
  });
});
