import { FieldIndex, POSITION_INCREMENT_GAP, REFRESH_TOKENS } from './fieldIndex';
import { intToByte4 } from './smallFloat';
import { analyzerByName } from './analysis/analyzers';
import { StateReader, StateWriter, sectionBytes } from './persist/state';

describe('FieldIndex', () => {
  it('indexes text with positions, norms and statistics', () => {
    const field = new FieldIndex('name', 'text');
    field.add(1, ['French Guiana']);
    field.add(2, ['France', 'France is French']);
    expect(field.postings('french')).toEqual(
      new Map([
        [1, [0]],
        // "France" is at 0; the next value starts 100 + 1 positions later: France 101, is 102, French 103
        [2, [0 + POSITION_INCREMENT_GAP + 1 + 2]],
      ]),
    );
    expect(field.postings('france')).toEqual(new Map([[2, [0, 101]]]));
    expect(field.docFreq('france')).toBe(1);
    expect(field.docCount).toBe(2);
    expect(field.sumTotalTermFreq).toBe(2 + 4);
    expect(field.norm(1)).toBe(intToByte4(2));
    expect(field.norm(2)).toBe(intToByte4(4));
  });

  it('indexes a value the document before had (a bulk write repeating its author) as any other: terms, positions, norms, statistics', () => {
    const field = new FieldIndex('author', 'text');
    const values = [['Ada Lovelace'], ['Ada Lovelace'], ['ada lovelace'], ['Ada Lovelace', 'Ada Lovelace'], ['Ada Lovelace'], [''], ['Ada Lovelace'], ['Grace Hopper']];
    values.forEach((v, doc) => field.add(doc, v));
    // (the second value of document 3 starts 100 + 1 positions after the first's last token)
    expect(field.postings('ada')).toEqual(new Map([[0, [0]], [1, [0]], [2, [0]], [3, [0, 102]], [4, [0]], [6, [0]]]));
    expect(field.postings('lovelace')).toEqual(new Map([[0, [1]], [1, [1]], [2, [1]], [3, [1, 103]], [4, [1]], [6, [1]]]));
    expect(field.postings('hopper')).toEqual(new Map([[7, [1]]]));
    expect(values.map((_, doc) => field.norm(doc))).toEqual([2, 2, 2, 4, 2, 0, 2, 2].map((n) => (n === 0 ? 0 : intToByte4(n))));
    expect([field.docCount, field.sumTotalTermFreq, field.sumDocFreq]).toEqual([7, 16, 14]);
  });

  it('writes the postings of REFRESH_TOKENS tokens when they are added, however few documents hold them, not at the first search', () => {
    const field = new FieldIndex('description', 'text');
    const refresh = jest.spyOn(field, 'refresh');
    field.add(0, ['a short value']);
    expect(refresh).not.toHaveBeenCalled(); // (a batch waits for more)
    field.add(1, [Array.from({ length: REFRESH_TOKENS }, (_, i) => `w${i % 1000}`).join(' ')]);
    expect(refresh).toHaveBeenCalledTimes(1); // by the write: both documents inverted
    expect(field.docFreq('short')).toBe(1);
    expect(field.docFreq('w999')).toBe(1);
    expect(field.postings('w1')!.get(1)!.length).toBe(Math.ceil((REFRESH_TOKENS - 1) / 1000)); // w1 at tokens 1, 1001, ...
  });

  it('counts the tokens that wait for their postings across an index file: the next write past REFRESH_TOKENS inverts them', () => {
    const field = new FieldIndex('description', 'text');
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i % 1000}`).join(' ');
    field.add(0, [words(REFRESH_TOKENS - 1000)]);
    const w = new StateWriter();
    field.writeState(w);
    const read = FieldIndex.readState(new StateReader(w.meta, w.sections.map(sectionBytes)));
    const refresh = jest.spyOn(read, 'refresh');
    read.add(1, [words(1000)]);
    expect(refresh).toHaveBeenCalledTimes(1); // by the write, as without the file
    expect(read.docFreq('w999')).toBe(2);
  });

  it('keeps statistics exact when documents are removed', () => {
    const field = new FieldIndex('name', 'text');
    field.add(1, ['a b c']);
    field.add(2, ['a']);
    field.remove(1);
    expect(field.docCount).toBe(1);
    expect(field.sumTotalTermFreq).toBe(1);
    expect(field.sumDocFreq).toBe(1);
    expect(field.postings('b')).toBeUndefined();
    expect(field.docFreq('a')).toBe(1);
    expect(field.present.has(1)).toBe(false);
  });

  it('treats a text value without tokens as present but not counted', () => {
    const field = new FieldIndex('name', 'text');
    field.add(1, ['']);
    expect(field.present.has(1)).toBe(true);
    expect(field.norm(1)).toBe(0);
    expect(field.docCount).toBe(0);
  });

  it('indexes keywords without norms, with sorted distinct doc values', () => {
    const field = new FieldIndex('tags', 'keyword');
    field.add(1, ['b', 'a', 'b']);
    expect(field.docValues.get(1)).toEqual(['a', 'b']);
    expect(field.postings('b')).toEqual(new Map([[1, []]]));
    expect(field.norm(1)).toBe(1);
    expect(field.sumTotalTermFreq).toBe(2);
    expect(field.sumDocFreq).toBe(2);
  });

  it('indexes booleans as T/F terms and 0/1 doc values', () => {
    const field = new FieldIndex('eu', 'boolean');
    field.add(1, [true]);
    field.add(2, [false, true]);
    expect(field.docFreq('T')).toBe(2);
    expect(field.docValues.get(2)).toEqual([0, 1]);
  });

  it('indexes numbers as points and sorted doc values', () => {
    const field = new FieldIndex('pop', 'long');
    field.add(1, [5, 3, 5]);
    field.add(2, [3]);
    expect(field.docValues.get(1)).toEqual([3, 5, 5]);
    expect(field.pointDocs(3)).toEqual(new Set([1, 2]));
    field.remove(1);
    expect(field.pointDocs(5)).toBeUndefined();
    expect(field.pointDocs(3)).toEqual(new Set([2]));
    expect(field.present.has(1)).toBe(false);
  });

  it("a text field's analyzer: its terms, a hole per removed stop word, lengths without them", () => {
    const field = new FieldIndex('body', 'text', analyzerByName('english'));
    field.add(0, ['The cats are here', 'cats of the house']);
    expect(field.postings('cat')).toEqual(new Map([[0, [1, 4 + POSITION_INCREMENT_GAP]]]));
    expect(field.postings('here')).toEqual(new Map([[0, [3]]]));
    expect(field.postings('hous')).toEqual(new Map([[0, [7 + POSITION_INCREMENT_GAP]]]));
    expect(field.postings('the')).toBeUndefined();
    expect(field.norm(0)).toBe(intToByte4(4));
    expect(field.sumTotalTermFreq).toBe(4);
    field.remove(0);
    expect(field.sumTotalTermFreq).toBe(0);
    expect(field.docCount).toBe(0);
  });
});
