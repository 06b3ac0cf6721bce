/**
 * The document's named schemas: every schema of the core's contracts that has a `title` becomes
 * one entry of `components.schemas` under that title, and each place that uses it a `$ref` to it,
 * so that a client generator makes one type of it (Entity, ErrorObject, SearchBody, ...).
 */
import type { JsonSchema } from '../../../core/contract';

/** Keywords whose value is a schema, and those whose value is a list or a map of schemas (JSON Schema 2020-12). */
const ONE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties'];
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];

export const schemaRef = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${encodeURIComponent(name)}` });

export class Components {
  readonly schemas: Record<string, JsonSchema> = {};
  /** The hoisted schema's text by name: one title names one schema. */
  private readonly texts = new Map<string, string>();
  private readonly done = new Map<JsonSchema, JsonSchema>();

  /** Adds a schema under a name of the document's own (envelopes); throws when the name is taken. */
  add(name: string, schema: JsonSchema): JsonSchema {
    if (Object.hasOwn(this.schemas, name)) throw new Error(`OpenAPI: two schemas named "${name}"`);
    this.schemas[name] = this.use(schema);
    this.texts.set(name, JSON.stringify(this.schemas[name]));
    return schemaRef(name);
  }

  /** The schema with each titled schema within it (itself included) replaced by a $ref to its component. */
  use(schema: JsonSchema): JsonSchema {
    const known = this.done.get(schema);
    if (known !== undefined) return known;
    const inner = this.walk(schema);
    const title = schema.title;
    let out = inner;
    if (typeof title === 'string') {
      const text = JSON.stringify(inner);
      const taken = this.texts.get(title);
      if (taken !== undefined && taken !== text) throw new Error(`OpenAPI: two different schemas are titled "${title}"`);
      this.schemas[title] = inner;
      this.texts.set(title, text);
      out = schemaRef(title);
    }
    this.done.set(schema, out);
    return out;
  }

  private walk(schema: JsonSchema): JsonSchema {
    const out: JsonSchema = { ...schema };
    for (const key of ONE) if (isSchema(schema[key])) out[key] = this.use(schema[key]);
    for (const key of LIST) if (Array.isArray(schema[key])) out[key] = (schema[key] as JsonSchema[]).map((s) => this.use(s));
    for (const key of MAP) {
      const map = schema[key];
      if (!isSchema(map)) continue;
      const copy: Record<string, JsonSchema> = {};
      for (const [name, s] of Object.entries(map)) copy[name] = isSchema(s) ? this.use(s) : (s as JsonSchema);
      out[key] = copy;
    }
    return out;
  }
}

const isSchema = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);
