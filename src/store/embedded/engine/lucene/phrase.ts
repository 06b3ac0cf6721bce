/**
 * Phrase frequencies, as Lucene 9's PhraseScorer sums them (float) over the matches a matcher finds:
 *
 * - ExactPhraseMatcher (slop 0): every position p where each phrase term i occurs at p + offset_i
 *   is one match of weight 1 (overlapping matches count: "a a" occurs twice in "a a a").
 * - SloppyPhraseMatcher (slop > 0): a port of Lucene's algorithm, which walks the terms' positions
 *   with a priority queue, always advancing the least one, and reports a match of weight
 *   1 / (1 + matchLength) whenever the span it holds fits in the slop. It does not enumerate every
 *   valid combination (Lucene documents that "a b c"~4 and "c b a"~4 may score differently on
 *   "a b c b a"); porting it keeps those quirks. Repeated terms in the phrase ("a b a") are handled by
 *   Lucene's repetition groups (never two phrase positions on the same document position), also when
 *   a position holds several terms (MultiPhraseQuery: "new ne*" where the expansions of "ne" hold
 *   "new"), with Lucene's "multi-term repeats" grouping (connected terms across positions).
 */
import { Positions } from '../fieldIndex';

const f = Math.fround;

/** Number of exact occurrences of the phrase (0 when it does not occur). Positions are ascending. */
export function exactPhraseFreq(positions: readonly Positions[], offsets: readonly number[]): number {
  let lead = 0;
  for (let i = 1; i < positions.length; i++) if (positions[i].length < positions[lead].length) lead = i;
  let freq = 0;
  for (const position of positions[lead]) {
    const start = position - offsets[lead];
    let all = true;
    for (let i = 0; i < positions.length && all; i++) if (i !== lead && !contains(positions[i], start + offsets[i])) all = false;
    if (all) freq++;
  }
  return freq;
}

function contains(sorted: Positions, value: number): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && sorted[lo] === value;
}

class PhrasePositions {
  position = 0;
  private count = 0;
  private index = 0;
  rptGroup = -1;
  rptInd = 0;
  positions: Positions = [];

  constructor(
    readonly offset: number,
    readonly ord: number,
    /** The terms of this phrase position (one for PhraseQuery, any number for MultiPhraseQuery). */
    readonly terms: readonly string[],
  ) {}

  firstPosition(): void {
    this.count = this.positions.length;
    this.index = 0;
    this.nextPosition();
  }

  nextPosition(): boolean {
    if (this.count-- > 0) {
      this.position = this.positions[this.index++] - this.offset;
      return true;
    }
    return false;
  }
}

function lessThan(a: PhrasePositions, b: PhrasePositions): boolean {
  if (a.position !== b.position) return a.position < b.position;
  if (a.offset !== b.offset) return a.offset < b.offset;
  return a.ord < b.ord;
}

/** PhraseQueue: the least phrase position first. A linear scan: phrases are short. */
class PhraseQueue {
  private readonly items: PhrasePositions[] = [];

  clear(): void {
    this.items.length = 0;
  }

  add(pp: PhrasePositions): void {
    this.items.push(pp);
  }

  private minIndex(): number {
    let min = 0;
    for (let i = 1; i < this.items.length; i++) if (lessThan(this.items[i], this.items[min])) min = i;
    return min;
  }

  top(): PhrasePositions | undefined {
    return this.items.length === 0 ? undefined : this.items[this.minIndex()];
  }

  pop(): PhrasePositions | undefined {
    if (this.items.length === 0) return undefined;
    const i = this.minIndex();
    const pp = this.items[i];
    this.items[i] = this.items[this.items.length - 1];
    this.items.pop();
    return pp;
  }

  get size(): number {
    return this.items.length;
  }
}

const INT_MAX = 2147483647;
const INT_MIN = -2147483648;

/** One SloppyPhraseMatcher for one phrase query (repetition groups are computed once, as in Lucene). */
export class SloppyPhraseMatcher {
  private readonly pps: PhrasePositions[];
  private readonly pq = new PhraseQueue();
  private end = 0;
  private checkedRpts = false;
  private hasRpts = false;
  private hasMultiTermRpts = false;
  private rptGroups: PhrasePositions[][] = [];
  private positioned = false;
  private matchLength = INT_MAX;
  private captureLead = false;
  private leadOrd = -1;
  private leadPosition = -1;

  /**
   * @param terms the term of each phrase position, or its terms (MultiPhraseQuery: the positions
   *   given to `freq` are then the union of theirs)
   */
  constructor(
    terms: readonly (string | readonly string[])[],
    offsets: readonly number[],
    private readonly slop: number,
  ) {
    this.pps = terms.map((term, i) => new PhrasePositions(offsets[i], i, typeof term === 'string' ? [term] : term));
  }

  /** Sloppy frequency of the phrase in a document, given each phrase term's positions (0: no match). */
  freq(positions: readonly Positions[]): number {
    for (let i = 0; i < this.pps.length; i++) this.pps[i].positions = positions[i] as Positions;
    this.reset();
    let freq = 0;
    while (this.nextMatch()) freq = f(freq + f(1 / f(1 + this.matchLength)));
    return freq;
  }

  /**
   * The first and last document position of each match, in the order the matcher finds them (what
   * SloppyPhraseMatcher.startPosition/endPosition report to the Matches API, which the unified
   * highlighter reads): the phrase position that led the match where it was when the match was
   * found, the others where they are.
   */
  spans(positions: readonly Positions[]): [number, number][] {
    for (let i = 0; i < this.pps.length; i++) this.pps[i].positions = positions[i] as Positions;
    this.reset();
    const out: [number, number][] = [];
    this.captureLead = true;
    try {
      while (this.nextMatch()) {
        let start = this.leadPosition;
        let end = this.leadPosition;
        for (const pp of this.pps) {
          if (pp.ord === this.leadOrd) continue;
          start = Math.min(start, pp.position + pp.offset);
          end = Math.max(end, pp.position + pp.offset);
        }
        out.push([start, end]);
      }
    } finally {
      this.captureLead = false;
    }
    return out;
  }

  /** SloppyPhraseMatcher.captureLead: where the phrase position leading the current match was. */
  private capture(pp: PhrasePositions): void {
    if (!this.captureLead) return;
    this.leadOrd = pp.ord;
    this.leadPosition = pp.position + pp.offset;
  }

  private reset(): void {
    this.positioned = this.initPhrasePositions();
    this.matchLength = INT_MAX;
  }

  private nextMatch(): boolean {
    if (!this.positioned) return false;
    let pp = this.pq.pop() as PhrasePositions;
    this.capture(pp);
    this.matchLength = this.end - pp.position;
    let next = (this.pq.top() as PhrasePositions).position;
    while (this.advancePP(pp)) {
      if (this.hasRpts && !this.advanceRpts(pp)) break; // exhausted
      if (pp.position > next) {
        // done minimizing the current match length
        this.pq.add(pp);
        if (this.matchLength <= this.slop) return true;
        pp = this.pq.pop() as PhrasePositions;
        next = (this.pq.top() as PhrasePositions).position;
        this.matchLength = this.end - pp.position;
        this.capture(pp);
      } else {
        const matchLength2 = this.end - pp.position;
        if (matchLength2 < this.matchLength) {
          this.matchLength = matchLength2;
          this.capture(pp);
        }
      }
    }
    this.positioned = false;
    return this.matchLength <= this.slop;
  }

  private advancePP(pp: PhrasePositions): boolean {
    if (!pp.nextPosition()) return false;
    if (pp.position > this.end) this.end = pp.position;
    return true;
  }

  /** pp was just advanced; if it now collides with a repeat of its term, advance the lesser of the two. */
  private advanceRpts(start: PhrasePositions): boolean {
    if (start.rptGroup < 0) return true;
    const rg = this.rptGroups[start.rptGroup];
    const bits = new Set<number>(); // repeaters to re-queue once collisions are resolved
    const k0 = start.rptInd;
    let pp = start;
    let k: number;
    while ((k = this.collide(pp)) >= 0) {
      pp = lesser(pp, rg[k]);
      if (!this.advancePP(pp)) return false;
      if (k !== k0) bits.add(k);
    }
    const stack: PhrasePositions[] = [];
    while (bits.size > 0 && this.pq.size > 0) {
      const pp2 = this.pq.pop() as PhrasePositions;
      stack.push(pp2);
      if (pp2.rptGroup >= 0 && bits.has(pp2.rptInd)) bits.delete(pp2.rptInd);
    }
    for (let i = stack.length - 1; i >= 0; i--) this.pq.add(stack[i]);
    return true;
  }

  private collide(pp: PhrasePositions): number {
    const tpPos = pp.position + pp.offset;
    for (const pp2 of this.rptGroups[pp.rptGroup]) if (pp2 !== pp && pp2.position + pp2.offset === tpPos) return pp2.rptInd;
    return -1;
  }

  private initPhrasePositions(): boolean {
    this.end = INT_MIN;
    if (!this.checkedRpts) return this.initFirstTime();
    if (!this.hasRpts) {
      this.initSimple();
      return true;
    }
    return this.initComplex();
  }

  private initSimple(): void {
    this.pq.clear();
    for (const pp of this.pps) {
      pp.firstPosition();
      if (pp.position > this.end) this.end = pp.position;
      this.pq.add(pp);
    }
  }

  private initComplex(): boolean {
    for (const pp of this.pps) pp.firstPosition();
    if (!this.advanceRepeatGroups()) return false;
    this.fillQueue();
    return true;
  }

  private fillQueue(): void {
    this.pq.clear();
    for (const pp of this.pps) {
      if (pp.position > this.end) this.end = pp.position;
      this.pq.add(pp);
    }
  }

  /**
   * Place the repeats so that none collides to start with (advanceRepeatGroups): without multi-term
   * repeats each repeat one occurrence further than the previous one of its group; with them, the
   * lesser of two colliding positions is advanced until no collision is left.
   */
  private advanceRepeatGroups(): boolean {
    for (const rg of this.rptGroups) {
      if (this.hasMultiTermRpts) {
        let incr: number;
        for (let i = 0; i < rg.length; i += incr) {
          incr = 1;
          const pp = rg[i];
          let k: number;
          while ((k = this.collide(pp)) >= 0) {
            const pp2 = lesser(pp, rg[k]);
            if (!this.advancePP(pp2)) return false;
            if (pp2.rptInd < i) {
              incr = 0;
              break;
            }
          }
        }
      } else {
        for (let j = 1; j < rg.length; j++) {
          for (let k = 0; k < j; k++) if (!rg[j].nextPosition()) return false;
        }
      }
    }
    return true;
  }

  private initFirstTime(): boolean {
    this.checkedRpts = true;
    for (const pp of this.pps) pp.firstPosition();
    const rptTerms = this.repeatingTerms();
    this.hasRpts = rptTerms.size > 0;
    if (this.hasRpts) {
      const groups = this.gatherRptGroups(rptTerms);
      for (const group of groups) {
        group.sort((a, b) => a.offset - b.offset);
        group.forEach((pp, i) => (pp.rptInd = i));
      }
      this.rptGroups = groups;
      if (!this.advanceRepeatGroups()) return false;
    }
    this.fillQueue();
    return true;
  }

  /** Terms found at more than one phrase position, numbered in order of their second sighting. */
  private repeatingTerms(): Map<string, number> {
    const ords = new Map<string, number>();
    const counts = new Map<string, number>();
    for (const pp of this.pps) {
      for (const t of pp.terms) {
        const count = (counts.get(t) ?? 0) + 1;
        counts.set(t, count);
        if (count === 2) ords.set(t, ords.size);
      }
    }
    return ords;
  }

  /**
   * The repetition groups (gatherRptGroups): without multi-term repeats, the phrase positions of a
   * term that sit on the same document position in the first document; with them, the phrase
   * positions connected through shared repeating terms (unionTermGroups, termGroups).
   */
  private gatherRptGroups(rptTerms: Map<string, number>): PhrasePositions[][] {
    const rpp = this.pps.filter((pp) => pp.terms.some((t) => rptTerms.has(t)));
    this.hasMultiTermRpts = rpp.some((pp) => pp.terms.length > 1);
    const groups: PhrasePositions[][] = [];
    if (!this.hasMultiTermRpts) {
      for (let i = 0; i < rpp.length; i++) {
        const pp = rpp[i];
        if (pp.rptGroup >= 0) continue;
        const tpPos = pp.position + pp.offset;
        for (let j = i + 1; j < rpp.length; j++) {
          const pp2 = rpp[j];
          if (pp2.rptGroup >= 0 || pp2.offset === pp.offset || pp2.position + pp2.offset !== tpPos) continue;
          if (pp.rptGroup < 0) {
            pp.rptGroup = groups.length;
            groups.push([pp]);
          }
          pp2.rptGroup = pp.rptGroup;
          groups[pp.rptGroup].push(pp2);
        }
      }
      return groups;
    }
    // the repeating terms of each phrase position, merged until the sets are disjoint
    const sets = rpp.map((pp) => new Set(pp.terms.filter((t) => rptTerms.has(t))));
    for (let i = 0; i < sets.length - 1; ) {
      let merged = false;
      for (let j = i + 1; j < sets.length; ) {
        if ([...sets[j]].some((t) => sets[i].has(t))) {
          for (const t of sets[j]) sets[i].add(t);
          sets.splice(j, 1);
          merged = true;
        } else {
          j++;
        }
      }
      if (!merged) i++;
    }
    const groupOf = new Map<string, number>();
    sets.forEach((set, g) => set.forEach((t) => groupOf.set(t, g)));
    const members = sets.map(() => new Set<PhrasePositions>());
    for (const pp of rpp) {
      for (const t of pp.terms) {
        const g = groupOf.get(t);
        if (g === undefined) continue;
        members[g].add(pp);
        pp.rptGroup = g;
      }
    }
    for (const set of members) groups.push([...set]);
    return groups;
  }
}

function lesser(pp: PhrasePositions, pp2: PhrasePositions): PhrasePositions {
  return pp.position < pp2.position || (pp.position === pp2.position && pp.offset < pp2.offset) ? pp : pp2;
}
