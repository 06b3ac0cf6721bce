import fc from 'fast-check';
import { MAX_CODE_POINT } from './codePoints';
import { Dfa, EMPTY_DFA } from './dfa';
import { compileRegexp } from './patterns';
import { RunAutomaton } from './runAutomaton';

/** ab then anything: 0 -a-> 1 -b-> 2 (accepts, loops on everything). */
const AB_ANY: Dfa = { accept: [false, false, true], transitions: [[0x61, 0x61, 1], [0x62, 0x62, 2], [0, MAX_CODE_POINT, 2]] };

describe('RunAutomaton', () => {
  test('step, isAccept, acceptsAllFrom', () => {
    const run = new RunAutomaton(AB_ANY, 'prefix', 'ab');
    expect(run.initial).toBe(0);
    expect(run.size).toBe(3);
    expect(run.step(0, 0x61)).toBe(1);
    expect(run.step(0, 0x62)).toBe(-1);
    expect(run.step(-1, 0x61)).toBe(-1);
    expect(run.step(2, 0x10ffff)).toBe(2);
    expect(run.step(2, 0x1f600)).toBe(2);
    expect([0, 1, 2].map((s) => run.isAccept(s))).toEqual([false, false, true]);
    expect(run.isAccept(-1)).toBe(false);
    expect([0, 1, 2].map((s) => run.acceptsAllFrom(s))).toEqual([false, false, true]);
    expect(run.describe()).toBe('prefix [ab]');
  });

  test('the empty language: initial is -1', () => {
    const run = new RunAutomaton(EMPTY_DFA, 'regexp', '#');
    expect(run.initial).toBe(-1);
    expect(run.run('')).toBe(false);
    expect(run.acceptsAllFrom(run.initial)).toBe(false);
  });

  test('nextCodePoint: the smallest code point from there with a transition', () => {
    const run = new RunAutomaton({ accept: [false, true], transitions: [[0x61, 0x63, 1, 0x1f600, 0x1f600, 1], []] }, 'regexp', '[a-c😀]');
    expect(run.nextCodePoint(0, 0)).toBe(0x61);
    expect(run.nextCodePoint(0, 0x62)).toBe(0x62);
    expect(run.nextCodePoint(0, 0x64)).toBe(0x1f600);
    expect(run.nextCodePoint(0, 0x1f601)).toBe(-1);
    expect(run.nextCodePoint(1, 0)).toBe(-1);
  });

  test('run reads code points: a surrogate pair is one, a lone surrogate is one', () => {
    const one = compileRegexp('.');
    expect(one.run('😀')).toBe(true);
    expect(one.run('ab')).toBe(false);
    expect(one.run('\ud800')).toBe(true);
    expect(one.run('\udc00')).toBe(true);
    const two = compileRegexp('..');
    expect(two.run('😀')).toBe(false);
    expect(two.run('😀😀')).toBe(true);
    expect(two.run('\ud800a')).toBe(true);
    expect(two.run('\udc00\ud800')).toBe(true); // reversed: two lone surrogates
    expect(two.run('a\ud83d')).toBe(true);
    const range = compileRegexp('[😀-😂]+');
    expect(range.run('😁😂')).toBe(true);
    expect(range.run('😃')).toBe(false);
    const emoji = compileRegexp('a😀b');
    expect(emoji.run('a😀b')).toBe(true);
    expect(emoji.run('a\ud83db')).toBe(false);
  });

  test('large automata (no ASCII table) step as small ones do', () => {
    const big = compileRegexp('(a|é){2500}x.*');
    const small = compileRegexp('(a|é){25}x.*');
    expect(big.size).toBeGreaterThan(2048);
    expect(big.run(`${'aé'.repeat(1250)}xyz`)).toBe(true);
    expect(big.run(`${'aé'.repeat(1250)}y`)).toBe(false);
    expect(big.run(`${'a'.repeat(2499)}x`)).toBe(false);
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'é', 'x', 'b'), { maxLength: 40 }), (chars) => {
        const text = chars.join('');
        expect(small.run(text)).toBe(/^[aé]{25}x/.test(text));
      }),
    );
  });
});
