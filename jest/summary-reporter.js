// Appends this Jest run's totals to $TEST_SUMMARY_FILE so .ci/run can print one "N passed, N failed" line.
const { appendFileSync } = require('node:fs');

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const file = process.env.TEST_SUMMARY_FILE;
    if (!file) return;
    // A suite that crashed before running its tests counts as one failure, so it cannot hide.
    const crashed = results.testResults.filter((r) => r.testExecError && r.numFailingTests === 0).length;
    const line = JSON.stringify({ passed: results.numPassedTests, failed: results.numFailedTests + crashed });
    appendFileSync(file, line + '\n');
  }
}
module.exports = SummaryReporter;
