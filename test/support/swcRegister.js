/**
 * Lets a child process started by a test run the TypeScript sources as they are (node --require
 * this src/main.ts), as Jest does through @swc/jest: each .ts file is turned into CommonJS by
 * @swc/core when first required. node:cluster workers inherit it (they get the parent's execArgv).
 */
const { readFileSync } = require('node:fs');
const { transformSync } = require('@swc/core');

require.extensions['.ts'] = function compile(module, filename) {
  const { code } = transformSync(readFileSync(filename, 'utf8'), {
    filename,
    jsc: { target: 'es2022', parser: { syntax: 'typescript' } },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  });
  module._compile(code, filename);
};
