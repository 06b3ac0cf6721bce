/** Jest: TypeScript is transformed by @swc/jest (type-checking is `npm run typecheck`, run by `npm test`). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.(t|j|mj)s$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }],
  },
  // jose 6 ships ESM only: let swc turn it into CommonJS for Jest's module system.
  transformIgnorePatterns: ['/node_modules/(?!(jose)/)'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  testTimeout: 20000,
  reporters: ['default', '<rootDir>/test/support/summaryReporter.js'],
};
