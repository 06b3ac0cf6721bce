/**
 * The Porter stemmer as Lucene's PorterStemmer runs it (Porter 1980, "Release 3" with its two bug
 * fixes), for the `english` analyzer's PorterStemFilter: a word of three chars or more loses its
 * suffixes in six steps (plurals and -ed/-ing, y to i, double suffixes, -ic/-ful/-ness, -ant/-ence...,
 * a final -e and double l). Any char other than a, e, i, o, u (and y after a vowel) is a consonant,
 * upper-case letters and digits included, as in Lucene. Written by hand: the npm stemmers implement
 * other variants (Snowball's "porter2", or Porter with other fixes), whose stems differ.
 */

class Stemmer {
  b: string[];
  k: number;
  j = 0;
  readonly k0 = 0;

  constructor(word: string) {
    this.b = word.split('');
    this.k = this.b.length - 1;
  }

  /** Whether b[i] is a consonant. */
  cons(i: number): boolean {
    switch (this.b[i]) {
      case 'a':
      case 'e':
      case 'i':
      case 'o':
      case 'u':
        return false;
      case 'y':
        return i === this.k0 ? true : !this.cons(i - 1);
      default:
        return true;
    }
  }

  /** The number of consonant sequences between k0 and j (the m of [C](VC)^m[V]). */
  m(): number {
    let n = 0;
    let i = this.k0;
    for (;;) {
      if (i > this.j) return n;
      if (!this.cons(i)) break;
      i++;
    }
    i++;
    for (;;) {
      for (;;) {
        if (i > this.j) return n;
        if (this.cons(i)) break;
        i++;
      }
      i++;
      n++;
      for (;;) {
        if (i > this.j) return n;
        if (!this.cons(i)) break;
        i++;
      }
      i++;
    }
  }

  vowelInStem(): boolean {
    for (let i = this.k0; i <= this.j; i++) if (!this.cons(i)) return true;
    return false;
  }

  doubleConsonant(j: number): boolean {
    if (j < this.k0 + 1) return false;
    if (this.b[j] !== this.b[j - 1]) return false;
    return this.cons(j);
  }

  /** Consonant-vowel-consonant ending at i, the last one not w, x or y. */
  cvc(i: number): boolean {
    if (i < this.k0 + 2 || !this.cons(i) || this.cons(i - 1) || !this.cons(i - 2)) return false;
    const ch = this.b[i];
    return !(ch === 'w' || ch === 'x' || ch === 'y');
  }

  ends(s: string): boolean {
    const l = s.length;
    const o = this.k - l + 1;
    if (o < this.k0) return false;
    for (let i = 0; i < l; i++) if (this.b[o + i] !== s[i]) return false;
    this.j = this.k - l;
    return true;
  }

  setTo(s: string): void {
    const o = this.j + 1;
    for (let i = 0; i < s.length; i++) this.b[o + i] = s[i];
    this.k = this.j + s.length;
  }

  r(s: string): void {
    if (this.m() > 0) this.setTo(s);
  }

  step1(): void {
    const b = this.b;
    if (b[this.k] === 's') {
      if (this.ends('sses')) this.k -= 2;
      else if (this.ends('ies')) this.setTo('i');
      else if (b[this.k - 1] !== 's') this.k--;
    }
    if (this.ends('eed')) {
      if (this.m() > 0) this.k--;
    } else if ((this.ends('ed') || this.ends('ing')) && this.vowelInStem()) {
      this.k = this.j;
      if (this.ends('at')) this.setTo('ate');
      else if (this.ends('bl')) this.setTo('ble');
      else if (this.ends('iz')) this.setTo('ize');
      else if (this.doubleConsonant(this.k)) {
        const ch = b[this.k--];
        if (ch === 'l' || ch === 's' || ch === 'z') this.k++;
      } else if (this.m() === 1 && this.cvc(this.k)) this.setTo('e');
    }
  }

  step2(): void {
    if (this.ends('y') && this.vowelInStem()) this.b[this.k] = 'i';
  }

  /** Tries the (suffix, replacement) pairs in order: the first suffix that ends the word is replaced when m() > 0. */
  replaceFirst(pairs: readonly (readonly [string, string])[]): void {
    for (const [suffix, replacement] of pairs) {
      if (this.ends(suffix)) {
        this.r(replacement);
        return;
      }
    }
  }

  step3(): void {
    if (this.k === this.k0) return;
    const pairs = STEP3[this.b[this.k - 1]];
    if (pairs !== undefined) this.replaceFirst(pairs);
  }

  step4(): void {
    const pairs = STEP4[this.b[this.k]];
    if (pairs !== undefined) this.replaceFirst(pairs);
  }

  step5(): void {
    if (this.k === this.k0) return;
    const suffixes = STEP5[this.b[this.k - 1]];
    if (suffixes === undefined) return;
    let found = false;
    for (const suffix of suffixes) {
      if (suffix === 'ion') {
        if (this.ends('ion') && this.j >= 0 && (this.b[this.j] === 's' || this.b[this.j] === 't')) {
          found = true;
          break;
        }
        continue;
      }
      if (this.ends(suffix)) {
        found = true;
        break;
      }
    }
    if (found && this.m() > 1) this.k = this.j;
  }

  step6(): void {
    this.j = this.k;
    if (this.b[this.k] === 'e') {
      const a = this.m();
      if (a > 1 || (a === 1 && !this.cvc(this.k - 1))) this.k--;
    }
    if (this.b[this.k] === 'l' && this.doubleConsonant(this.k) && this.m() > 1) this.k--;
  }

  stem(): string {
    if (this.k > this.k0 + 1) {
      this.step1();
      this.step2();
      this.step3();
      this.step4();
      this.step5();
      this.step6();
    }
    return this.b.slice(0, this.k + 1).join('');
  }
}

const STEP3: Record<string, readonly (readonly [string, string])[]> = {
  a: [['ational', 'ate'], ['tional', 'tion']],
  c: [['enci', 'ence'], ['anci', 'ance']],
  e: [['izer', 'ize']],
  l: [['bli', 'ble'], ['alli', 'al'], ['entli', 'ent'], ['eli', 'e'], ['ousli', 'ous']],
  o: [['ization', 'ize'], ['ation', 'ate'], ['ator', 'ate']],
  s: [['alism', 'al'], ['iveness', 'ive'], ['fulness', 'ful'], ['ousness', 'ous']],
  t: [['aliti', 'al'], ['iviti', 'ive'], ['biliti', 'ble']],
  g: [['logi', 'log']],
};

const STEP4: Record<string, readonly (readonly [string, string])[]> = {
  e: [['icate', 'ic'], ['ative', ''], ['alize', 'al']],
  i: [['iciti', 'ic']],
  l: [['ical', 'ic'], ['ful', '']],
  s: [['ness', '']],
};

/** Step 5's suffixes by the word's last but one char, tried in order ("ion" only after s or t). */
const STEP5: Record<string, readonly string[]> = {
  a: ['al'],
  c: ['ance', 'ence'],
  e: ['er'],
  i: ['ic'],
  l: ['able', 'ible'],
  n: ['ant', 'ement', 'ment', 'ent'],
  o: ['ion', 'ou'],
  s: ['ism'],
  t: ['ate', 'iti'],
  u: ['ous'],
  v: ['ive'],
  z: ['ize'],
};

/** The stem of a (lower-cased) word, as Lucene's PorterStemFilter makes it. */
export function porterStem(word: string): string {
  if (word.length < 3) return word;
  return new Stemmer(word).stem();
}
