/**
 * @seriousme/openapi-schema-validator on a document: the package is ESM only (it finds its
 * schemas through import.meta.url), which Jest's CommonJS runtime cannot load, so it runs in a
 * Node.js child process that reads the document on its standard input.
 */
import { execFileSync } from 'node:child_process';

export interface ValidatorResult {
  valid: boolean;
  version?: string;
  errors?: unknown;
}

const SCRIPT = `
import { Validator } from '@seriousme/openapi-schema-validator';
import { text } from 'node:stream/consumers';
const validator = new Validator();
const result = await validator.validate(JSON.parse(await text(process.stdin)));
process.stdout.write(JSON.stringify({ ...result, version: validator.version }));
`;

export function validateOpenApi(document: unknown): ValidatorResult {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', SCRIPT], { input: JSON.stringify(document), cwd: __dirname, encoding: 'utf8' });
  return JSON.parse(out) as ValidatorResult;
}
