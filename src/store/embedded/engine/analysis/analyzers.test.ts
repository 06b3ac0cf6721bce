import { ANALYZER_NAMES, analyzerByName } from './analyzers';

const terms = (name: string, text: string) => analyzerByName(name)?.terms(text);

describe('analyzerByName', () => {
  it('knows the built-in analyzers of Elasticsearch, nothing else', () => {
    expect(ANALYZER_NAMES.map((name) => analyzerByName(name)?.name)).toEqual([...ANALYZER_NAMES]);
    expect(analyzerByName('french')).toBeUndefined();
    expect(analyzerByName('toString')).toBeUndefined();
  });

  it('analyzes as each analyzer does', () => {
    const text = "The Dogs' owner's 2 running races at 東京都, 👍🏽";
    expect(terms('standard', text)).toEqual(['the', 'dogs', "owner's", '2', 'running', 'races', 'at', '東', '京', '都', '👍🏽']);
    expect(terms('simple', text)).toEqual(['the', 'dogs', 'owner', 's', 'running', 'races', 'at', '東京都']);
    expect(terms('whitespace', text)).toEqual(['The', "Dogs'", "owner's", '2', 'running', 'races', 'at', '東京都,', '👍🏽']);
    expect(terms('stop', text)).toEqual(['dogs', 'owner', 's', 'running', 'races', '東京都']);
    expect(terms('keyword', text)).toEqual([text]);
    expect(terms('english', text)).toEqual(['dog', 'owner', '2', 'run', 'race', '東', '京', '都', '👍🏽']);
    expect(terms('cjk', text)).toEqual(['dogs', "owner's", '2', 'running', 'races', '東京', '京都', '👍🏽']);
  });

  it('gives offsets and position increments (stop words leave gaps)', () => {
    const tokens = analyzerByName('english')?.tokens('the cat is here');
    expect(tokens?.map((t) => [t.term, t.start, t.end, t.positionIncrement, t.type])).toEqual([
      ['cat', 4, 7, 2, '<ALPHANUM>'],
      ['here', 11, 15, 2, '<ALPHANUM>'],
    ]);
  });
});
