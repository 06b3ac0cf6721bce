/** koncordeCostProblem: what Koncorde would spend compiling a filter, bounded before it does. */
import { koncordeCostProblem, MAX_COMPOUND_PARTS, MAX_CONDITIONS, MAX_NESTING, MAX_SUBFILTERS } from './koncordeCost';

const eq = (field: string, value: unknown = 1) => ({ equals: { [field]: value } });
const andOfOrs = (n: number, width = 2) => ({ and: Array.from({ length: n }, (_, i) => ({ or: Array.from({ length: width }, (_, j) => eq(`f${i}`, j)) })) });

describe('koncordeCostProblem', () => {
  it('lets ordinary filters through', () => {
    for (const filter of [
      {},
      eq('code', 'FR'),
      { and: Array.from({ length: 60 }, (_, i) => eq(`f${i}`)) },
      { in: { code: Array.from({ length: 99 }, (_, i) => `c${i}`) } },
      { bool: { must: [eq('a')], must_not: [eq('b')], should: [eq('c'), eq('d')] } },
      andOfOrs(MAX_COMPOUND_PARTS),
      { and: [{ in: { a: Array.from({ length: 16 }, (_, i) => `a${i}`) } }, { in: { b: Array.from({ length: 16 }, (_, i) => `b${i}`) } }] },
    ]) {
      expect(koncordeCostProblem(filter)).toBeUndefined();
    }
  });

  it('refuses operators nested deeper than MAX_NESTING, bool counting as two levels', () => {
    let deep: Record<string, unknown> = eq('a');
    for (let i = 0; i < MAX_NESTING; i++) deep = { not: deep };
    expect(koncordeCostProblem(deep)).toBeUndefined();
    expect(koncordeCostProblem({ not: deep })).toContain(`nest ${MAX_NESTING + 1} deep`);
    let bools: Record<string, unknown> = eq('a');
    for (let i = 0; i < MAX_NESTING / 2 + 1; i++) bools = { bool: { must: [bools] } };
    expect(koncordeCostProblem(bools)).toContain('deep');
  });

  it('refuses more conditions than Kuzzle allows, counted as written', () => {
    expect(koncordeCostProblem({ or: Array.from({ length: MAX_CONDITIONS + 1 }, (_, i) => eq(`f${i}`)) })).toContain(`${MAX_CONDITIONS + 1} conditions`);
  });

  it("refuses a truth table over MAX_COMPOUND_PARTS parts (Koncorde's canonical form)", () => {
    expect(koncordeCostProblem(andOfOrs(MAX_COMPOUND_PARTS + 1))).toContain(`2^${MAX_COMPOUND_PARTS + 1} rows`);
    // an and/or of simple conditions is one part, however long
    expect(koncordeCostProblem({ or: [{ and: Array.from({ length: 50 }, (_, i) => eq(`f${i}`)) }, eq('x')] })).toBeUndefined();
  });

  it('refuses a filter that multiplies out to more than MAX_SUBFILTERS conjunctions', () => {
    expect(koncordeCostProblem(andOfOrs(2, 17))).toContain(`more than ${MAX_SUBFILTERS} conjunctions`); // 289
    expect(koncordeCostProblem(andOfOrs(2, 16))).toBeUndefined();
    // a negated and is an or of negations (De Morgan), multiplied out the same way
    expect(koncordeCostProblem({ and: Array.from({ length: 3 }, (_, i) => ({ not: { and: Array.from({ length: 7 }, (_, j) => eq(`f${i}`, j)) } })) })).toContain('conjunctions');
  });

  it('checks the query of a select the same way (Koncorde compiles it on its own)', () => {
    expect(koncordeCostProblem({ select: { field: 'list', index: 0, query: andOfOrs(MAX_COMPOUND_PARTS + 1) } })).toContain('rows');
  });

  it('leaves malformed filters to Koncorde, which says why', () => {
    expect(koncordeCostProblem({ nope: 1 })).toBeUndefined();
    expect(koncordeCostProblem({ and: 'x' })).toBeUndefined();
  });
});
