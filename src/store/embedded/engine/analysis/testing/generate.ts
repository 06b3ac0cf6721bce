/**
 * Test support: seeded random texts for the analyzers' differential tests, mixing every kind of
 * text the tokenizers treat differently: Latin (plain, accented, upper case), digits with
 * separators, apostrophes, URLs and e-mail addresses, punctuation and spaces, Han, Hiragana,
 * Katakana (full and half width), Hangul, Thai, Arabic, Hebrew, emoji (with skin tones, ZWJ
 * sequences, flags, keycaps, tags), combining marks and format characters. Characters are picked
 * among those assigned before Unicode 9 (what Lucene 8's grammar and Java 17 both know).
 */

/** A small linear congruential generator: numbers in [0, 1) from a seed. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const PIECES: readonly string[] = [
  // words
  'hello', 'World', 'ÉCOLE', 'café', 'naïve', 'Straße', 'İstanbul', 'ΣΊΣΥΦΟΣ', 'москва', 'Dž', 'ﬁne',
  'running', 'caresses', 'ponies', 'relational', 'generalization', 'hopeful', 'goodness', 'agreed', 'sky', 'the', 'And', 'is', 'www', 's', 't',
  "don't", "John's", 'JOHN’S', 'dogs＇s', "rock'n'roll", "'quoted'", 'l’été', 'foo_bar', '__init__', 'a_1',
  // numbers
  '1,000.5', '3.14', '2024-01-01', '1:30', '10,', '.5', '1.2.3', 'v2', 'x86_64', '٣٤٥', '१२३',
  // dotted, urls, mails
  'U.S.A.', 'example.com', 'https://www.example.com/a?b=c#d', 'user@example.org', 'e.g.', 'a.b', 'a:b', 'a;b', 'a,b', '"quoted"', 'שָׁלוֹם', 'ג"ג', "ב'",
  // CJK
  '東京都', '日本語', '中文字', '𠀀𠀁', 'ひらがな', 'を', 'カタカナ', 'ｶﾀｶﾅ', 'ｶﾞｷﾞ', 'ﾊﾟﾋﾟ', 'ー', 'ｰ', '한국어', '서울', '가', 'Ｆｕｌｌ', 'ＡＢＣ１２３', '〆', '々', '〇', 'ゝ', 'ゟ',
  // south-east asian, other scripts
  'ภาษาไทย', 'ສະບາຍດີ', 'ខ្មែរ', 'မြန်မာ', 'عربي', 'السلام', 'हिन्दी', 'ქართული', 'Ελληνικά',
  // emoji
  '👍', '👍🏽', '🏽', '👨‍👩‍👧', '👩‍💻', '🇫🇷', '🇫🇷🇩🇪', '🇺', '#️⃣', '1️⃣', '*⃣', '❤️', '❤', '☺', '©', '®️', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', '😀😀', '⌚', '™', '🀄',
  // marks, format characters
  'e\u0301', '\u0301', 'a\u00ADb', 'a\u200Bb', 'a\u200Db', '\u200D', '\uFE0F', 'x\u20E3', 'ab\uFE0Fc',
  // separators, punctuation
  ' ', '  ', '\t', '\n', '\r\n', '.', ',', ';', ':', "'", '’', '-', '—', '/', '(', ')', '!', '?', '"', '&', '@', '#', '*', '_', '¿', '。', '、', '・', '\u3000', '\u00A0', '\u2028', '\u001F', '\u0000',
];

/** A random text of up to `pieces` pieces, joined with or without spaces. */
export function randomText(rand: () => number, pieces = 12): string {
  const n = 1 + Math.floor(rand() * pieces);
  let out = '';
  for (let i = 0; i < n; i++) {
    out += PIECES[Math.floor(rand() * PIECES.length)];
    if (rand() < 0.4) out += ' ';
  }
  return out;
}

/** Long runs: words and CJK longer than max_token_length, supplementary characters across its end. */
export function longTexts(): string[] {
  return [
    'a'.repeat(600),
    'a'.repeat(254) + '𝐀' + 'b',
    'a'.repeat(253) + '𝐀' + 'b',
    '𝐀'.repeat(300),
    'x' + '𝐀'.repeat(300),
    '1'.repeat(300) + ',000',
    'ภ'.repeat(520),
    'カ'.repeat(400),
    '한'.repeat(300),
    '東'.repeat(300),
    'ab'.repeat(127) + "'s",
    ('word ').repeat(100),
    'a' + '\u0301'.repeat(300),
    '👍' + '\u200D👍'.repeat(100),
    'élan'.repeat(80),
    'ﾊﾞ'.repeat(200),
  ];
}
