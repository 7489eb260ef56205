'use strict';

// dbg's listing of a project's Mocha tests (testrun/mocha.go): run with
// --dry-run, it writes each test's file and titles (suites first), one
// line each after a marker, once Mocha has loaded the test files.
module.exports = function DbgList(runner) {
  runner.once('start', () => {
    const walk = (suite) => {
      for (const t of suite.tests) {
        process.stdout.write('\x1edbgmocha ' + JSON.stringify({ file: t.file, path: t.titlePath() }) + '\n');
      }
      for (const s of suite.suites) {
        walk(s);
      }
    };
    walk(runner.suite);
  });
};
