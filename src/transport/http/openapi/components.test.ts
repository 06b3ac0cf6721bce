import { Components, schemaRef } from './components';

describe('Components', () => {
  it('hoists each titled schema into one component, referenced wherever it is used', () => {
    const entity = { title: 'Entity', type: 'object', properties: { id: { type: 'string' } } };
    const components = new Components();
    const result = components.use({
      type: 'object',
      properties: { one: entity, many: { type: 'array', items: entity }, either: { oneOf: [entity, { type: 'null' }] } },
      additionalProperties: entity,
      examples: [{ title: 'Entity', not: 'a schema' }],
    });
    expect(result).toEqual({
      type: 'object',
      properties: { one: schemaRef('Entity'), many: { type: 'array', items: schemaRef('Entity') }, either: { oneOf: [schemaRef('Entity'), { type: 'null' }] } },
      additionalProperties: schemaRef('Entity'),
      examples: [{ title: 'Entity', not: 'a schema' }],
    });
    expect(components.schemas).toEqual({ Entity: entity });
  });

  it('hoists titled schemas within titled schemas, and the same schema written twice once', () => {
    const components = new Components();
    const inner = () => ({ title: 'Inner', type: 'string' });
    expect(components.use({ title: 'Outer', type: 'object', properties: { a: inner(), b: inner() } })).toEqual(schemaRef('Outer'));
    expect(components.schemas).toEqual({ Inner: { title: 'Inner', type: 'string' }, Outer: { title: 'Outer', type: 'object', properties: { a: schemaRef('Inner'), b: schemaRef('Inner') } } });
  });

  it('refuses two different schemas of one title, and a name added twice', () => {
    const components = new Components();
    components.use({ title: 'Thing', type: 'string' });
    expect(() => components.use({ title: 'Thing', type: 'integer' })).toThrow('two different schemas are titled "Thing"');
    expect(components.add('ThingResponse', { type: 'object', properties: { thing: { title: 'Thing', type: 'string' } } })).toEqual(schemaRef('ThingResponse'));
    expect(components.schemas.ThingResponse).toEqual({ type: 'object', properties: { thing: schemaRef('Thing') } });
    expect(() => components.add('ThingResponse', {})).toThrow('two schemas named "ThingResponse"');
  });
});
