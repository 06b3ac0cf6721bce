import { compileRegexp, compileWildcard } from '../automaton';
import { UNLIMITED, runToEnd } from '../budget/budget';
import { MAX_BYTES, MAX_ENTRIES, atOnce, cacheSize, cachedAutomaton } from './patternCache';

describe('patternCache', () => {
  let compiled = 0;
  const wildcard = (pattern: string) =>
    runToEnd(
      cachedAutomaton(
        `wildcard:${pattern}`,
        () =>
          atOnce(() => {
            compiled++;
            return compileWildcard(pattern);
          }),
        UNLIMITED,
      ),
    );

  it('keeps every pattern of a query at the default clause count: sent again, none is compiled', () => {
    const patterns = Array.from({ length: 4096 }, (_, i) => `*a*a*a*${i}`);
    compiled = 0;
    for (const pattern of patterns) wildcard(pattern);
    expect(compiled).toBe(4096);
    for (const pattern of patterns) expect(wildcard(pattern).run(`aaa${pattern.slice(7)}`)).toBe(true);
    expect(compiled).toBe(4096);
    expect(cacheSize().entries).toBeLessThanOrEqual(MAX_ENTRIES);
  });

  it('holds at most MAX_ENTRIES automata and MAX_BYTES of them, least recently used out first', () => {
    compiled = 0;
    for (let i = 0; i < MAX_ENTRIES + 100; i++) wildcard(`x*${i}`);
    expect(cacheSize().entries).toBe(MAX_ENTRIES);
    expect(cacheSize().bytes).toBeLessThanOrEqual(MAX_BYTES);
    compiled = 0;
    wildcard(`x*${MAX_ENTRIES + 99}`); // recent: kept
    expect(compiled).toBe(0);
    wildcard('x*0'); // the oldest: gone
    expect(compiled).toBe(1);
  });

  it('counts the bytes of large automata: a few hundred of them stay within MAX_BYTES', () => {
    // (.*a.{9}) determinizes to 1,024 states, each with its ASCII table: about 560 KB
    const big = () => compileRegexp('(.*a.{9})');
    expect(big().bytes).toBeGreaterThan(500_000);
    let made = 0;
    const get = (i: number) =>
      runToEnd(
        cachedAutomaton(
          `regexp:big${i}`,
          () =>
            atOnce(() => {
              made++;
              return big();
            }),
          UNLIMITED,
        ),
      );
    for (let i = 0; i < 200; i++) get(i);
    expect(made).toBe(200);
    expect(cacheSize().bytes).toBeLessThanOrEqual(MAX_BYTES);
    expect(cacheSize().bytes).toBeGreaterThan(MAX_BYTES / 2);
    get(199); // the last: kept
    expect(made).toBe(200);
    get(0); // the first: gone, its bytes given to the later ones
    expect(made).toBe(201);
  });

  it('keeps one automaton, counted once, when two searches compile the same pattern at once', () => {
    let made = 0;
    const pausing = () =>
      function* () {
        yield; // the search's slice ends in the middle of its compile
        made++;
        return compileWildcard('race*');
      };
    const first = cachedAutomaton('wildcard:race*', pausing(), UNLIMITED);
    expect(first.next().done).toBe(false);
    const before = cacheSize();
    const second = runToEnd(cachedAutomaton('wildcard:race*', pausing(), UNLIMITED));
    const afterSecond = cacheSize();
    const end = first.next();
    expect(end.done).toBe(true);
    expect(end.value).toBe(second);
    expect(made).toBe(2);
    expect(cacheSize()).toEqual(afterSecond);
    expect(afterSecond.bytes - before.bytes).toBeLessThanOrEqual(second.bytes);
  });
});
