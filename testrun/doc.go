// Package testrun is the test capability: list_tests lists a project's
// tests through its runner's own discovery, and debug_test runs one test
// under the debug adapter of its language and stops at the first failure
// in the user's code.
//
// Each ecosystem is one entry of the [Framework] table: how to detect it,
// how to list its tests, the runner's command line under which adapter,
// how its first failure is caught without stopping inside the framework,
// and how the failure message is read. The session a test runs in is an
// ordinary debug session of the session manager, so every session tool
// works on it, and restart_debugging runs the same test again.
package testrun
