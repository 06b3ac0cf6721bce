import { removePossessive } from './englishPossessive';

describe('EnglishPossessiveFilter', () => {
  it("removes a final 's with any of its apostrophes", () => {
    expect(["John's", 'JOHN’S', 'dogs＇s', "'s", 'its', "rock'n", 's'].map(removePossessive)).toEqual(['John', 'JOHN', 'dogs', '', 'its', "rock'n", 's']);
  });
});
