// Package layout holds no code: its tests check the rules of the
// module's layout that the compiler cannot, by reading the Go sources of
// every package (tests, bench/ and the rule's own room left out):
//
//   - A language is decided in adapters/ only. Everywhere else dbg asks
//     the adapter's declaration (adapters.Traits, and the registry's
//     lookups built on it), and never compares, switches on, keys a map
//     by or indexes by a language's name
//     (TestNoLanguageNamedOutsideAdapters).
//   - No package outside adapters/ imports one adapter's own package
//     (javadap, nodedap, mockdap...): what others need of an adapter is in
//     its declaration (TestNoAdapterInternalsOutsideAdapters).
//   - /proc is read through package proc only (TestProcOnlyThroughProc).
//
// A failure names the file and line, and what to ask instead.
package layout
