/**
 * Tests' view of the OpenAPI document: compiles its schemas with ajv (JSON Schema 2020-12, the
 * dialect of OpenAPI 3.1, with ajv-formats) and tells what is wrong with an answer: a path, method,
 * status or content type the document does not describe, a required header missing, a body its
 * schema refuses. Used by the document's unit test (its examples) and the contract test (the
 * real server's answers).
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

type Json = Record<string, any>;

const DOC_ID = 'openapi.json';

/** A JSON pointer of these steps, as a URI fragment. */
export const pointer = (steps: string[]): string => '#' + steps.map((s) => '/' + encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('');

export interface Answer {
  method: string;
  /** The path as requested (with or without its query string). */
  url: string;
  status: number;
  /** Lowercase header names. */
  headers: Record<string, string>;
  body: unknown;
}

export class ContractCheck {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();
  /** The path templates, most literal first, as regular expressions. */
  private readonly templates: { path: string; pattern: RegExp }[];

  constructor(readonly document: Json) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ajv);
    this.ajv.addSchema(document, DOC_ID);
    this.templates = Object.keys(document.paths)
      .map((path) => ({ path, params: (path.match(/\{/g) ?? []).length, pattern: new RegExp('^' + path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+') + '$') }))
      .sort((a, b) => a.params - b.params);
  }

  /** The value at a pointer, `$ref`s followed. */
  resolve(at: string): Json {
    let value: any = this.document;
    for (const step of at.slice(2).split('/')) value = value?.[decodeURIComponent(step).replace(/~1/g, '/').replace(/~0/g, '~')];
    return value?.$ref !== undefined && typeof value.$ref === 'string' && value.$ref.startsWith('#/') ? this.resolve(value.$ref) : value;
  }

  /** Problems of a value against the schema at a pointer of the document (none: an empty list). */
  validate(schemaAt: string, value: unknown): string[] {
    let validate = this.compiled.get(schemaAt);
    if (validate === undefined) {
      validate = this.ajv.compile({ $ref: DOC_ID + schemaAt });
      this.compiled.set(schemaAt, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `${schemaAt}: ${e.instancePath || '(root)'} ${e.message} ${JSON.stringify(e.params)}`);
  }

  /** The template of a requested path, if the document has one. */
  templateOf(url: string): string | undefined {
    const path = url.split('?')[0];
    return this.templates.find((t) => t.pattern.test(path))?.path;
  }

  /** What is wrong with an answer (none: an empty list). */
  problems(answer: Answer): string[] {
    const template = this.templateOf(answer.url);
    const method = answer.method.toLowerCase();
    if (template === undefined || this.document.paths[template][method] === undefined) return [`${answer.method} ${answer.url}: not in the document`];
    const where = `${answer.method} ${template} ${answer.status}`;
    const responsesAt = ['paths', template, method, 'responses'];
    const responses = this.resolve(pointer(responsesAt));
    const status = String(answer.status);
    if (responses[status] === undefined) return [`${where}: status not in the document (${Object.keys(responses).join(', ')})`];
    const ref: string | undefined = responses[status].$ref;
    const responseAt = ref ?? pointer([...responsesAt, status]);
    const response = this.resolve(responseAt);
    const problems: string[] = [];
    for (const [name, h] of Object.entries<Json>(response.headers ?? {})) {
      const spec = h.$ref ? this.resolve(h.$ref) : h;
      const value = answer.headers[name.toLowerCase()];
      if (value === undefined) {
        if (spec.required) problems.push(`${where}: header ${name} missing`);
      } else if (spec.schema?.type === 'integer' && !/^\d+$/.test(value)) {
        problems.push(`${where}: header ${name} is not an integer: ${value}`);
      }
    }
    const mediaType = (answer.headers['content-type'] ?? '').split(';')[0].trim();
    if (response.content?.[mediaType] === undefined) return [...problems, `${where}: content type "${answer.headers['content-type']}" not in the document (${Object.keys(response.content ?? {}).join(', ')})`];
    const schemaAt = `${responseAt}/content/${encodeURIComponent(mediaType.replace(/\//g, '~1'))}/schema`;
    return [...problems, ...this.validate(schemaAt, answer.body).map((p) => `${where}: ${p}`)];
  }
}
