import { InvalidQueryError } from '../../../port';
import { at, boostOf, checkParams, objectBody, readBoolean, readBoost, readEnum, readInteger, readNumber, readScalar, readString, singleField } from './params';

describe('clause parameter readers', () => {
  it('read numbers, integers and boosts', () => {
    expect(readNumber('c', 'n', 2, 'p')).toBe(2);
    expect(readNumber('c', 'n', '2.5', 'p')).toBe(2.5);
    expect(() => readNumber('c', 'n', 'x', 'p')).toThrow('[c] parameter "n" at p must be a number, got the string "x"');
    expect(readInteger('c', 'n', 3, 'p')).toBe(3);
    expect(() => readInteger('c', 'n', 1.5, 'p')).toThrow(InvalidQueryError);
    expect(() => readInteger('c', 'n', -1, 'p')).toThrow(InvalidQueryError);
    expect(readBoost('c', 0.1, 'p')).toBe(Math.fround(0.1));
    expect(() => readBoost('c', -0.5, 'p')).toThrow('negative [boost] are not allowed in [c] at p');
    expect(() => readBoost('c', 1e300, 'p')).toThrow(InvalidQueryError);
    expect(boostOf('c', {}, 'p')).toBe(1);
  });

  it('read strings, booleans, enums and scalars', () => {
    expect(readString('c', 's', 'x', 'p')).toBe('x');
    expect(() => readString('c', 's', 1, 'p')).toThrow(InvalidQueryError);
    expect(readBoolean('c', 'b', 'true', 'p')).toBe(true);
    expect(() => readBoolean('c', 'b', 1, 'p')).toThrow(InvalidQueryError);
    expect(readEnum('c', 'e', 'AND', ['or', 'and'] as const, 'p')).toBe('and');
    expect(() => readEnum('c', 'e', 'xor', ['or', 'and'] as const, 'p')).toThrow('must be one of or, and');
    expect(readScalar('c', 'v', false, 'p')).toBe(false);
    expect(() => readScalar('c', 'v', NaN, 'p')).toThrow(InvalidQueryError);
  });

  it('check shapes', () => {
    expect(() => objectBody('c', null, 'p')).toThrow('[c] at p must be an object, got null');
    expect(() => checkParams('c', { a: 1, b: 2 }, ['a'], 'p')).toThrow('unsupported parameter "b" for [c] at p');
    expect(singleField('c', { f: 1 }, 'p')).toEqual(['f', 1]);
    expect(() => singleField('c', { '': 1 }, 'p')).toThrow('non-empty field name');
    expect(at('query.term', 'name')).toBe('query.term.name');
    expect(at('query.term', 'name.keyword')).toBe('query.term["name.keyword"]');
  });
});
