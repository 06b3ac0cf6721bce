import { MappingError } from './mappingError';
import { EMPTY_MAPPING, mappedFields, mergeTypeMapping, parseTypeMapping } from './typeMapping';

const refusal = (run: () => unknown): MappingError => {
  try {
    run();
  } catch (err) {
    if (err instanceof MappingError) return err;
    throw err;
  }
  throw new Error('not refused');
};

describe('parseTypeMapping', () => {
  it('reads every supported type with its parameters, dynamic as a string', () => {
    const mapping = parseTypeMapping({
      dynamic: false,
      _meta: { owner: 'x' },
      properties: {
        name: { type: 'text', analyzer: 'english', fields: { raw: { type: 'keyword', ignore_above: 10 } } },
        code: { type: 'keyword', normalizer: 'lowercase', null_value: 'NONE' },
        price: { type: 'scaled_float', scaling_factor: 100, ignore_malformed: true },
        at: { type: 'date', format: 'dd/MM/yyyy||epoch_millis' },
        where: { type: 'geo_point' },
        parts: { type: 'nested', properties: { n: { type: 'integer' } } },
        address: { properties: { city: { type: 'keyword', copy_to: 'all' } }, dynamic: 'strict' },
        hidden: { type: 'long', index: false },
      },
    });
    expect(mapping.dynamic).toBe('false');
    expect(mapping._meta).toEqual({ owner: 'x' });
    expect([...mappedFields(mapping.properties)].map((f) => f.path)).toEqual(['name', 'name.raw', 'code', 'price', 'at', 'where', 'parts', 'parts.n', 'address', 'address.city', 'hidden']);
    expect(mapping.properties.address.dynamic).toBe('strict');
    expect(parseTypeMapping({}).dynamic).toBeUndefined();
  });

  it.each([
    [{ properties: { code: { type: 'strnig' } } }, 'No handler for type [strnig] declared on field [code]'],
    [{ properties: { code: { type: 'keyword', analyzer: 'standard' } } }, 'unknown parameter [analyzer] on mapper [code] of type [keyword]'],
    [{ properties: { p: { type: 'scaled_float' } } }, 'Field [scaling_factor] is required on field [p]'],
    [{ properties: { t: { type: 'text', analyzer: 'klingon' } } }, 'analyzer [klingon] has not been configured in mappings'],
    [{ properties: { k: { type: 'keyword', normalizer: 'upper' } } }, 'normalizer [upper] not found for field [k]'],
    [{ properties: { k: { type: 'keyword', ignore_above: -1 } } }, 'Failed to parse [ignore_above] of field [k]'],
    [{ dynamic: 'sometimes' }, 'Could not convert [dynamic] to boolean or "strict": [sometimes]'],
    [{ settings: {} }, 'Root mapping definition has unsupported parameters: [settings]'],
    [{ properties: { t: { type: 'text', fields: { o: { properties: {} } } } } }, 'cannot be used in multi field [t.o]'],
    [{ properties: { '': { type: 'text' } } }, 'field name cannot be empty'],
    [[], 'the mapping must be an object'],
  ])('refuses %j: 400 invalid_mapping naming what is wrong', (body, reason) => {
    const err = refusal(() => parseTypeMapping(body));
    expect(err.kind).toBe('invalid_mapping');
    expect(err.props.reason).toContain(reason);
  });

  it('refuses objects nested deeper than 20 levels (index.mapping.depth.limit)', () => {
    let properties: Record<string, unknown> = { leaf: { type: 'keyword' } };
    for (let i = 0; i < 21; i++) properties = { o: { properties } };
    expect(refusal(() => parseTypeMapping({ properties })).props.reason).toContain('Limit of mapping depth [20]');
  });
});

describe('mergeTypeMapping', () => {
  const current = mergeTypeMapping(EMPTY_MAPPING, parseTypeMapping({ properties: { code: { type: 'keyword' }, address: { properties: { city: { type: 'keyword' } } } } }));

  it('refuses more than 50 nested fields over the whole mapping (index.mapping.nested_fields.limit)', () => {
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`n${i}`, { type: 'nested' }]));
    const full = mergeTypeMapping(EMPTY_MAPPING, parseTypeMapping({ properties: fifty }));
    expect(() => mergeTypeMapping(full, parseTypeMapping({ properties: { more: { properties: { deep: { type: 'nested' } } } } }))).toThrow('Failed to parse mapping: Limit of nested fields [50] has been exceeded');
    expect(() => mergeTypeMapping(full, parseTypeMapping({ properties: { more: { type: 'object' } } }))).not.toThrow();
  });

  it('adds fields, keeps dynamic and _meta unless given', () => {
    const merged = mergeTypeMapping({ ...current, dynamic: 'strict', _meta: { a: 1 } }, parseTypeMapping({ properties: { name: { type: 'text' }, address: { properties: { zip: { type: 'keyword' } } } } }));
    expect(merged).toEqual({
      dynamic: 'strict',
      _meta: { a: 1 },
      properties: { code: { type: 'keyword' }, name: { type: 'text' }, address: { properties: { city: { type: 'keyword' }, zip: { type: 'keyword' } } } },
    });
    expect(mergeTypeMapping(current, { dynamic: 'false', properties: {} }).dynamic).toBe('false');
  });

  it("never changes a field's type, declared or mapped dynamically (Elasticsearch's words)", () => {
    expect(refusal(() => mergeTypeMapping(current, parseTypeMapping({ properties: { code: { type: 'text' } } }))).message).toBe('mapper [code] cannot be changed from type [keyword] to [text]');
    expect(refusal(() => mergeTypeMapping(current, parseTypeMapping({ properties: { address: { type: 'keyword' } } }))).props).toEqual({ field: 'address', from: 'object', to: 'keyword' });
    const dynamic = (path: string) => ({ name: 'text', 'name.keyword': 'keyword' })[path];
    expect(refusal(() => mergeTypeMapping(EMPTY_MAPPING, parseTypeMapping({ properties: { name: { type: 'keyword' } } }), dynamic)).props).toEqual({ field: 'name', from: 'text', to: 'keyword' });
    expect(refusal(() => mergeTypeMapping(EMPTY_MAPPING, parseTypeMapping({ properties: { name: { type: 'text', fields: { keyword: { type: 'long' } } } } }), dynamic)).props.field).toBe('name.keyword');
    expect(mergeTypeMapping(EMPTY_MAPPING, parseTypeMapping({ properties: { name: { type: 'text', analyzer: 'standard' } } }), dynamic).properties.name).toEqual({ type: 'text', analyzer: 'standard' });
  });

  it('never changes what is indexed: analyzer, normalizer, scaling_factor (search analyzers may change)', () => {
    const dynamic = (path: string) => ({ name: 'text', 'name.keyword': 'keyword' })[path];
    expect(refusal(() => mergeTypeMapping(EMPTY_MAPPING, parseTypeMapping({ properties: { name: { type: 'text', analyzer: 'english' } } }), dynamic)).message).toBe(
      'Failed to parse mapping: Mapper for [name] conflicts with existing mapper: Cannot update parameter [analyzer] from [standard] to [english]',
    );
    expect(refusal(() => mergeTypeMapping(EMPTY_MAPPING, parseTypeMapping({ properties: { name: { type: 'text', fields: { keyword: { type: 'keyword', normalizer: 'lowercase' } } } } }), dynamic)).props.reason).toContain('[name.keyword]');
    const english = mergeTypeMapping(EMPTY_MAPPING, parseTypeMapping({ properties: { body: { type: 'text', analyzer: 'english' }, code: { type: 'keyword', normalizer: 'lowercase' }, price: { type: 'scaled_float', scaling_factor: 100 } } }));
    expect(refusal(() => mergeTypeMapping(english, parseTypeMapping({ properties: { body: { type: 'text', analyzer: 'simple' } } }))).props.reason).toContain('Cannot update parameter [analyzer] from [english] to [simple]');
    expect(refusal(() => mergeTypeMapping(english, parseTypeMapping({ properties: { body: { type: 'text' } } }))).props.reason).toContain('from [english] to [standard]');
    expect(refusal(() => mergeTypeMapping(english, parseTypeMapping({ properties: { code: { type: 'keyword' } } }))).props.reason).toContain('Cannot update parameter [normalizer] from [lowercase] to [none]');
    expect(refusal(() => mergeTypeMapping(english, parseTypeMapping({ properties: { price: { type: 'scaled_float', scaling_factor: 10 } } }))).props.reason).toContain('[scaling_factor] from [100] to [10]');
    const searched = mergeTypeMapping(english, parseTypeMapping({ properties: { body: { type: 'text', analyzer: 'english', search_analyzer: 'standard' } } }));
    expect(searched.properties.body).toEqual({ type: 'text', analyzer: 'english', search_analyzer: 'standard' });
  });

  it('needs the index analyzer beside the search analyzers (TextParams.Analyzers)', () => {
    expect(refusal(() => parseTypeMapping({ properties: { body: { type: 'text', search_analyzer: 'standard' } } })).message).toBe('Failed to parse mapping: analyzer on field [body] must be set when search_analyzer is set');
    expect(refusal(() => parseTypeMapping({ properties: { body: { type: 'text', analyzer: 'english', search_quote_analyzer: 'standard' } } })).message).toContain('analyzer and search_analyzer on field [body] must be set when search_quote_analyzer is set');
  });
});
