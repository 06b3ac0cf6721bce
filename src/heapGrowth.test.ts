import { setFlagsFromString as setFlags } from 'node:v8';
import { HEAP_GROWING_PERCENT, limitHeapGrowth } from './heapGrowth';

jest.mock('node:v8', () => ({ setFlagsFromString: jest.fn() }));
const setFlagsFromString = setFlags as jest.Mock;

describe('limitHeapGrowth', () => {
  beforeEach(() => setFlagsFromString.mockClear());

  it("sets V8's heap growing percent when node was given none", () => {
    expect(limitHeapGrowth(['--enable-source-maps'])).toBe(HEAP_GROWING_PERCENT);
    expect(setFlagsFromString).toHaveBeenCalledWith(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  });

  it.each([
    [['--heap-growing-percent=80'], 80],
    [['--heap_growing_percent=15', '--inspect'], 15],
  ])('keeps the percent given to node (%j)', (execArgv, percent) => {
    expect(limitHeapGrowth(execArgv)).toBe(percent);
    expect(setFlagsFromString).not.toHaveBeenCalled();
  });

  it('leaves a flag given without a value to node', () => {
    expect(limitHeapGrowth(['--heap-growing-percent'])).toBeUndefined();
    expect(setFlagsFromString).not.toHaveBeenCalled();
  });
});
