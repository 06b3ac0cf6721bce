import { InvalidDocumentError } from '../../port';
import { checkFieldLimit } from './fieldLimit';
import { IndexMapping } from './mapping';

describe('checkFieldLimit', () => {
  it('answers the fields a batch adds, and refuses one that would pass the limit, as SearchIndex.checkFields does', () => {
    const mapping = new IndexMapping({ keyword: ['id'] });
    mapping.walk({ id: 'a', n: 1 }, () => {});
    expect(mapping.fieldCount).toBe(2);
    expect(checkFieldLimit(mapping, 4, [{ n: 2 }])).toBe(0);
    expect(checkFieldLimit(mapping, 4, [{ m: 2 }])).toBe(1);
    expect(checkFieldLimit(mapping, 4, [{ name: 'a text' }])).toBe(2); // name and name.keyword: just fits
    expect(() => checkFieldLimit(mapping, 4, [{ name: 'text' }, { x: 1 }])).toThrow(InvalidDocumentError);
    expect(() => checkFieldLimit(mapping, 4, [{ name: 'text' }, { x: 1 }])).toThrow('Limit of total fields [4] has been exceeded while adding new fields [3]');
  });
});
