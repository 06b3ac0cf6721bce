/**
 * Prints one plain closing line after everything Jest prints, e.g. "tests: 120 passed, 0 failed, 0 skipped",
 * so that CI logs end with a count any reader (or tool) can take in at a glance.
 */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const line = `tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped\n`;
    process.once('exit', () => process.stdout.write(line));
  }
}
module.exports = SummaryReporter;
