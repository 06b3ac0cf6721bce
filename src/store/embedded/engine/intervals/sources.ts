/**
 * Lucene 9's IntervalsSources (org.apache.lucene.queries.intervals) as Elasticsearch's intervals
 * query builds them, with the rewrites their factories make (Intervals.or / ordered / unordered /
 * phrase / maxgaps / containing / ... and Disjunctions.pullUp): a disjunction is flattened and
 * deduplicated, repeated sub-sources of ordered and unordered become one repeating source, and a
 * disjunction under a source sensitive to inner gaps (phrase, max_gaps, containing, contained_by,
 * not_containing, not_contained_by) is pulled up into one source per disjunct, its one-position
 * disjuncts kept together. These rewrites change what matches, so they are ported as they are;
 * iterators.ts runs the result on each document.
 *
 * Terms carry their field (Intervals.fixField, Elasticsearch's `use_field`, pushed down to them).
 */
import { FieldIndex } from '../fieldIndex';
import { LazyAutomaton } from '../query/patternCache';
import {
  BlockIterator,
  DifferenceIterator,
  DifferenceKind,
  DisjunctionIterator,
  DuplicateIterator,
  ExtendedIterator,
  FilterKind,
  FilteringIterator,
  IntervalIterator,
  MaxGapsIterator,
  NoIntervals,
  OffsetIterator,
  OrderedIterator,
  TermIterator,
  UnorderedIterator,
} from './iterators';

const MAX_INT = 2147483647;

/** What a source needs of the index to make its iterator. */
export interface IntervalsContext {
  field(name: string): FieldIndex | undefined;
  /** The term ids a multi-term source expands to in its field (found before: intervalQuery.ts). */
  expansion(source: MultiTermSource): readonly number[];
  /** IndexSearcher.getMaxClauseCount, for Disjunctions.pullUp. */
  readonly maxClauseCount: number;
}

export abstract class IntervalsSource {
  /** Identity (Lucene's equals): equal keys, equal sources. */
  abstract readonly key: string;
  abstract minExtent(): number;
  /** IntervalsSource.pullUpDisjunctions. */
  pullUpDisjunctions(): IntervalsSource[] {
    return [this];
  }
  /** Lucene's toString, for explanations. */
  abstract toString(): string;
  /** The source's iterator over the index (null when Lucene has none: a term not in the index...). */
  abstract iterator(ctx: IntervalsContext): IntervalIterator | null;
  /** Its term and multi-term sources. */
  abstract leaves(out: (TermSource | MultiTermSource)[]): void;
}

export class TermSource extends IntervalsSource {
  readonly key: string;
  constructor(
    readonly field: string,
    readonly term: string,
  ) {
    super();
    this.key = `t${JSON.stringify([field, term])}`;
  }
  minExtent(): number {
    return 1;
  }
  toString(): string {
    return this.term;
  }
  iterator(ctx: IntervalsContext): IntervalIterator | null {
    const field = ctx.field(this.field);
    const t = field === undefined ? -1 : field.termId(this.term);
    return t < 0 ? null : new TermIterator(this.field, t);
  }
  leaves(out: (TermSource | MultiTermSource)[]): void {
    out.push(this);
  }
}

/** MultiTermIntervalsSource: the terms an automaton accepts (prefix, wildcard, fuzzy), at most maxExpansions. */
export class MultiTermSource extends IntervalsSource {
  readonly key: string;
  constructor(
    readonly field: string,
    /** Identity of the automaton (kind and parameters). */
    readonly automatonKey: string,
    /** What Lucene prints: `prefix*`, the wildcard pattern, `term~edits`... */
    readonly pattern: string,
    readonly maxExpansions: number,
    /** The automaton of the accepted terms, compiled within the search's budget. */
    readonly automaton: LazyAutomaton,
  ) {
    super();
    this.key = `m${JSON.stringify([field, automatonKey, maxExpansions])}`;
  }
  minExtent(): number {
    return 1;
  }
  toString(): string {
    return `MultiTerm(${this.pattern})`;
  }
  iterator(ctx: IntervalsContext): IntervalIterator | null {
    const ids = ctx.expansion(this);
    if (ids.length === 0) return null;
    return new DisjunctionIterator(ids.map((t) => new TermIterator(this.field, t)));
  }
  leaves(out: (TermSource | MultiTermSource)[]): void {
    out.push(this);
  }
}

/** Elasticsearch's IntervalBuilder.NO_INTERVALS (no token): an iterator on no document. */
export class NoIntervalsSource extends IntervalsSource {
  readonly key = 'no_match';
  minExtent(): number {
    return 0;
  }
  override pullUpDisjunctions(): IntervalsSource[] {
    return [];
  }
  toString(): string {
    return 'no_match';
  }
  iterator(): IntervalIterator {
    return new NoIntervals();
  }
  leaves(): void {}
}

const list = (sources: readonly IntervalsSource[]) => sources.map((s) => s.key).join(',');

export class DisjunctionSource extends IntervalsSource {
  readonly key: string;
  private constructor(
    readonly subSources: readonly IntervalsSource[],
    private readonly pullUp: boolean,
  ) {
    super();
    this.key = `or(${[...subSources.map((s) => s.key)].sort().join(',')})`;
  }
  /** DisjunctionIntervalsSource.create: flattened (nested disjunctions pulled up), deduplicated. */
  static create(subSources: readonly IntervalsSource[], pullUp = true): IntervalsSource {
    const simplified = new Map<string, IntervalsSource>();
    for (const source of subSources) {
      const parts = source instanceof DisjunctionSource ? source.pullUpDisjunctions() : [source];
      for (const part of parts) if (!simplified.has(part.key)) simplified.set(part.key, part);
    }
    const subs = [...simplified.values()];
    if (subs.length === 1) return subs[0];
    return new DisjunctionSource(subs, pullUp);
  }
  minExtent(): number {
    let min = MAX_INT;
    for (const s of this.subSources) min = Math.min(min, s.minExtent());
    return min;
  }
  override pullUpDisjunctions(): IntervalsSource[] {
    return this.pullUp ? [...this.subSources] : [this];
  }
  toString(): string {
    return `or(${this.subSources.map(String).sort().join(',')})`;
  }
  iterator(ctx: IntervalsContext): IntervalIterator | null {
    const subs: IntervalIterator[] = [];
    for (const s of this.subSources) {
      const it = s.iterator(ctx);
      if (it !== null) subs.push(it);
    }
    return subs.length === 0 ? null : new DisjunctionIterator(subs);
  }
  leaves(out: (TermSource | MultiTermSource)[]): void {
    for (const s of this.subSources) s.leaves(out);
  }
}

/** Intervals.or. */
export const or = (sources: readonly IntervalsSource[]): IntervalsSource => DisjunctionSource.create(sources, true);

/** Disjunctions.splitDisjunctions: the disjuncts, those of one position kept together in one disjunction. */
function splitDisjunctions(source: IntervalsSource): IntervalsSource[] {
  const singletons: IntervalsSource[] = [];
  const nonSingletons: IntervalsSource[] = [];
  for (const disj of source.pullUpDisjunctions()) (disj.minExtent() === 1 ? singletons : nonSingletons).push(disj);
  const split: IntervalsSource[] = [];
  if (singletons.length > 0) split.push(or(singletons));
  split.push(...nonSingletons);
  return split;
}

/** Disjunctions.pullUp over several sources: FUNC(a, OR(b, "c d")) is [FUNC(a, b), FUNC(a, "c d")]. */
export function pullUpAll(sources: readonly IntervalsSource[], make: (sources: IntervalsSource[]) => IntervalsSource, maxClauseCount: number): IntervalsSource[] {
  let rewritten: IntervalsSource[][] = [[]];
  for (const source of sources) {
    const disjuncts = splitDisjunctions(source);
    if (disjuncts.length === 1) {
      for (const l of rewritten) l.push(disjuncts[0]);
    } else {
      if (rewritten.length * disjuncts.length > maxClauseCount) throw new IntervalsError('Too many disjunctions to expand');
      const toAdd: IntervalsSource[][] = [];
      for (const disj of disjuncts) for (const subList of rewritten) toAdd.push([...subList, disj]);
      rewritten = toAdd;
    }
  }
  return rewritten.map(make);
}

/** Disjunctions.pullUp of one source. */
export function pullUpOne(source: IntervalsSource, make: (source: IntervalsSource) => IntervalsSource): IntervalsSource[] {
  return splitDisjunctions(source).map(make);
}

/** A rewrite Lucene refuses (IllegalArgumentException / IllegalStateException): a 400 here. */
export class IntervalsError extends Error {}

export class RepeatingSource extends IntervalsSource {
  readonly key: string;
  name: string | null = null;
  private constructor(
    readonly inner: IntervalsSource,
    readonly childCount: number,
  ) {
    super();
    this.key = `rep(${inner.key},${childCount})`;
  }
  static build(inner: IntervalsSource, childCount: number): IntervalsSource {
    return childCount === 1 ? inner : new RepeatingSource(inner, childCount);
  }
  minExtent(): number {
    return this.inner.minExtent();
  }
  toString(): string {
    const s = String(this.inner);
    const out = Array.from({ length: this.childCount }, () => s).join(',');
    return this.name === null ? out : `${this.name}(${out})`;
  }
  iterator(ctx: IntervalsContext): IntervalIterator | null {
    const it = this.inner.iterator(ctx);
    return it === null ? null : new DuplicateIterator(it, this.childCount);
  }
  leaves(out: (TermSource | MultiTermSource)[]): void {
    this.inner.leaves(out);
  }
}

type Combiner = 'ordered' | 'unordered' | 'block';

/** OrderedIntervalsSource, UnorderedIntervalsSource and BlockIntervalsSource (phrase). */
export class CombinedSource extends IntervalsSource {
  readonly key: string;
  constructor(
    readonly kind: Combiner,
    readonly subSources: readonly IntervalsSource[],
    private readonly maxClauseCount: number,
  ) {
    super();
    this.key = `${kind}(${list(subSources)})`;
  }
  minExtent(): number {
    let sum = 0;
    for (const s of this.subSources) sum += s.minExtent();
    return sum;
  }
  override pullUpDisjunctions(): IntervalsSource[] {
    if (this.kind === 'block') return [this]; // already pulled up in build()
    return pullUpAll(this.subSources, (ss) => new CombinedSource(this.kind, ss, this.maxClauseCount), this.maxClauseCount);
  }
  toString(): string {
    return `${this.kind === 'block' ? 'BLOCK' : this.kind.toUpperCase()}(${this.subSources.map(String).join(',')})`;
  }
  iterator(ctx: IntervalsContext): IntervalIterator | null {
    const subs: IntervalIterator[] = [];
    for (const s of this.subSources) {
      const it = s.iterator(ctx);
      if (it === null) return null;
      subs.push(it);
    }
    return this.kind === 'ordered' ? new OrderedIterator(subs) : this.kind === 'unordered' ? new UnorderedIterator(subs) : new BlockIterator(subs);
  }
  leaves(out: (TermSource | MultiTermSource)[]): void {
    for (const s of this.subSources) s.leaves(out);
  }
}

/** OrderedIntervalsSource.build: nested ordered sources flattened, runs of equal sources made repeating sources. */
export function ordered(sources: readonly IntervalsSource[], maxClauseCount: number): IntervalsSource {
  if (sources.length === 1) return sources[0];
  const flat = sources.flatMap((s) => (s instanceof CombinedSource && s.kind === 'ordered' ? s.subSources : [s]));
  const deduplicated: IntervalsSource[] = [];
  let current: IntervalsSource[] = [];
  for (const source of flat) {
    if (current.length === 0 || current[0].key === source.key) {
      current.push(source);
    } else {
      deduplicated.push(RepeatingSource.build(current[0], current.length));
      current = [source];
    }
  }
  deduplicated.push(RepeatingSource.build(current[0], current.length));
  if (deduplicated.length === 1 && deduplicated[0] instanceof RepeatingSource) deduplicated[0].name = 'ORDERED';
  if (deduplicated.length === 1) return deduplicated[0];
  return new CombinedSource('ordered', deduplicated, maxClauseCount);
}

/** UnorderedIntervalsSource.build: nested unordered sources flattened, equal sources counted into repeating sources. */
export function unordered(sources: readonly IntervalsSource[], maxClauseCount: number): IntervalsSource {
  if (sources.length === 1) return sources[0];
  const flat = sources.flatMap((s) => (s instanceof CombinedSource && s.kind === 'unordered' ? s.subSources : [s]));
  const counts = new Map<string, { source: IntervalsSource; count: number }>();
  for (const source of flat) {
    const entry = counts.get(source.key);
    if (entry === undefined) counts.set(source.key, { source, count: 1 });
    else entry.count++;
  }
  const deduplicated = [...counts.values()].map(({ source, count }) => RepeatingSource.build(source, count));
  if (deduplicated.length === 1 && deduplicated[0] instanceof RepeatingSource) deduplicated[0].name = 'UNORDERED';
  if (deduplicated.length === 1) return deduplicated[0];
  return new CombinedSource('unordered', deduplicated, maxClauseCount);
}

/** BlockIntervalsSource.build (Intervals.phrase): disjunctions pulled up, nested blocks flattened. */
export function phrase(sources: readonly IntervalsSource[], maxClauseCount: number): IntervalsSource {
  if (sources.length === 1) return sources[0];
  return or(
    pullUpAll(
      sources,
      (ss) => new CombinedSource('block', ss.flatMap((s) => (s instanceof CombinedSource && s.kind === 'block' ? s.subSources : [s])), maxClauseCount),
      maxClauseCount,
    ),
  );
}

/** FilteredIntervalsSource.MaxGaps. */
class MaxGapsSource extends IntervalsSource {
  readonly key: string;
  constructor(
    readonly inner: IntervalsSource,
    readonly maxGaps: number,
  ) {
    super();
    this.key = `maxgaps(${inner.key},${maxGaps})`;
  }
  minExtent(): number {
    return this.inner.minExtent();
  }
  toString(): string {
    return `MAXGAPS/${this.maxGaps}(${String(this.inner)})`;
  }
  iterator(ctx: IntervalsContext): IntervalIterator | null {
    const it = this.inner.iterator(ctx);
    return it === null ? null : new MaxGapsIterator(it, this.maxGaps);
  }
  leaves(out: (TermSource | MultiTermSource)[]): void {
    this.inner.leaves(out);
  }
}

/** Intervals.maxgaps: FilteredIntervalsSource.maxGaps over each pulled-up disjunct. */
export function maxGaps(inner: IntervalsSource, gaps: number): IntervalsSource {
  return or(inner.pullUpDisjunctions().map((s) => new MaxGapsSource(s, gaps)));
}

export class ExtendedSource extends IntervalsSource {
  readonly key: string;
  constructor(
    readonly inner: IntervalsSource,
    readonly before: number,
    readonly after: number,
  ) {
    super();
    this.key = `extend(${inner.key},${before},${after})`;
  }
  minExtent(): number {
    const minExtent = this.before + this.inner.minExtent() + this.after;
    return minExtent < 0 || minExtent > MAX_INT ? MAX_INT : minExtent;
  }
  override pullUpDisjunctions(): IntervalsSource[] {
    const inner = this.inner.pullUpDisjunctions();
    if (inner.length === 0) return [this];
    const out = new Map<string, IntervalsSource>();
    for (const s of inner) {
      const e = new ExtendedSource(s, this.before, this.after);
      out.set(e.key, e);
    }
    return [...out.values()];
  }
  toString(): string {
    return `EXTEND(${String(this.inner)},${this.before},${this.after})`;
  }
  iterator(ctx: IntervalsContext): IntervalIterator | null {
    const it = this.inner.iterator(ctx);
    return it === null ? null : new ExtendedIterator(it, this.before, this.after);
  }
  leaves(out: (TermSource | MultiTermSource)[]): void {
    this.inner.leaves(out);
  }
}

/** OffsetIntervalsSource: the position before (PRECEDING) or after (FOLLOWING) each interval. */
class OffsetSource extends IntervalsSource {
  readonly key: string;
  constructor(
    readonly inner: IntervalsSource,
    readonly before: boolean,
  ) {
    super();
    this.key = `offset(${inner.key},${before})`;
  }
  minExtent(): number {
    return 1;
  }
  toString(): string {
    return `${this.before ? 'PRECEDING' : 'FOLLOWING'}(${String(this.inner)})`;
  }
  iterator(ctx: IntervalsContext): IntervalIterator | null {
    const it = this.inner.iterator(ctx);
    return it === null ? null : new OffsetIterator(it, this.before);
  }
  leaves(out: (TermSource | MultiTermSource)[]): void {
    this.inner.leaves(out);
  }
}

const FILTER_NAMES: Record<FilterKind, string> = { containing: 'CONTAINING', containedBy: 'CONTAINED_BY', overlapping: 'OVERLAPPING' };

/** ContainingIntervalsSource, ContainedByIntervalsSource, OverlappingIntervalsSource. */
class FilteringSource extends IntervalsSource {
  readonly key: string;
  constructor(
    readonly kind: FilterKind,
    readonly a: IntervalsSource,
    readonly b: IntervalsSource,
    private readonly maxClauseCount: number,
  ) {
    super();
    this.key = `${kind}(${a.key},${b.key})`;
  }
  minExtent(): number {
    return this.a.minExtent();
  }
  override pullUpDisjunctions(): IntervalsSource[] {
    const { a, b, kind, maxClauseCount } = this;
    switch (kind) {
      case 'containing':
        return pullUpOne(a, (s) => new FilteringSource(kind, s, b, maxClauseCount));
      case 'containedBy':
        return pullUpOne(b, (s) => new FilteringSource(kind, a, s, maxClauseCount));
      case 'overlapping':
        return pullUpAll([a, b], (ss) => new FilteringSource(kind, ss[0], ss[1], maxClauseCount), maxClauseCount);
    }
  }
  toString(): string {
    return `${FILTER_NAMES[this.kind]}(${String(this.a)},${String(this.b)})`;
  }
  iterator(ctx: IntervalsContext): IntervalIterator | null {
    const a = this.a.iterator(ctx);
    if (a === null) return null;
    const b = this.b.iterator(ctx);
    return b === null ? null : new FilteringIterator(a, b, this.kind);
  }
  leaves(out: (TermSource | MultiTermSource)[]): void {
    this.a.leaves(out);
    this.b.leaves(out);
  }
}

const DIFFERENCE_NAMES: Record<DifferenceKind, string> = { notContaining: 'NOT_CONTAINING', notContainedBy: 'NOT_CONTAINED_BY', nonOverlapping: 'NON_OVERLAPPING' };

/** DifferenceIntervalsSource: NotContaining, NotContainedBy, NonOverlapping. */
class DifferenceSource extends IntervalsSource {
  readonly key: string;
  constructor(
    readonly kind: DifferenceKind,
    readonly minuend: IntervalsSource,
    readonly subtrahend: IntervalsSource,
  ) {
    super();
    this.key = `${kind}(${minuend.key},${subtrahend.key})`;
  }
  minExtent(): number {
    return this.minuend.minExtent();
  }
  toString(): string {
    return `${DIFFERENCE_NAMES[this.kind]}(${String(this.minuend)},${String(this.subtrahend)})`;
  }
  iterator(ctx: IntervalsContext): IntervalIterator | null {
    const a = this.minuend.iterator(ctx);
    if (a === null) return null;
    const b = this.subtrahend.iterator(ctx);
    return b === null ? a : new DifferenceIterator(a, b, this.kind);
  }
  leaves(out: (TermSource | MultiTermSource)[]): void {
    this.minuend.leaves(out);
    this.subtrahend.leaves(out);
  }
}

/** The filters of Elasticsearch's intervals `filter`, as Intervals builds them. */
export function containing(big: IntervalsSource, small: IntervalsSource, maxClauseCount: number): IntervalsSource {
  return or(pullUpOne(big, (s) => new FilteringSource('containing', s, small, maxClauseCount)));
}
export function containedBy(small: IntervalsSource, big: IntervalsSource, maxClauseCount: number): IntervalsSource {
  return or(pullUpOne(big, (s) => new FilteringSource('containedBy', small, s, maxClauseCount)));
}
export function overlapping(source: IntervalsSource, reference: IntervalsSource, maxClauseCount: number): IntervalsSource {
  return new FilteringSource('overlapping', source, reference, maxClauseCount);
}
export function notContaining(minuend: IntervalsSource, subtrahend: IntervalsSource): IntervalsSource {
  return or(pullUpOne(minuend, (s) => new DifferenceSource('notContaining', s, subtrahend)));
}
export function notContainedBy(minuend: IntervalsSource, subtrahend: IntervalsSource): IntervalsSource {
  return or(pullUpOne(subtrahend, (s) => new DifferenceSource('notContainedBy', minuend, s)));
}
export function nonOverlapping(minuend: IntervalsSource, subtrahend: IntervalsSource): IntervalsSource {
  return new DifferenceSource('nonOverlapping', minuend, subtrahend);
}
export function before(source: IntervalsSource, reference: IntervalsSource, maxClauseCount: number): IntervalsSource {
  return containedBy(source, new ExtendedSource(new OffsetSource(reference, true), MAX_INT, 0), maxClauseCount);
}
export function after(source: IntervalsSource, reference: IntervalsSource, maxClauseCount: number): IntervalsSource {
  return containedBy(source, new ExtendedSource(new OffsetSource(reference, false), 0, MAX_INT), maxClauseCount);
}

/**
 * Elasticsearch's IntervalBuilder.combineSources: one source alone; several ordered with no gap a
 * phrase; else ordered or unordered, within max_gaps when it is not -1.
 */
export function combineSources(sources: readonly IntervalsSource[], gaps: number, isOrdered: boolean, maxClauseCount: number): IntervalsSource {
  if (sources.length === 0) return new NoIntervalsSource();
  if (sources.length === 1) return sources[0];
  if (gaps === 0 && isOrdered) return phrase(sources, maxClauseCount);
  const inner = isOrdered ? ordered(sources, maxClauseCount) : unordered(sources, maxClauseCount);
  return gaps === -1 ? inner : maxGaps(inner, gaps);
}
