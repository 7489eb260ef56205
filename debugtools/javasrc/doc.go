// Package javasrc reads Java source code without a JVM: a tolerant parser
// for declarations (package, imports, classes, interfaces, enums, records
// and annotation types, nested to any depth, with their fields, methods,
// constructors, parameters, generics and annotations), a project index
// that finds and caches every .java file of a project, and two consumers
// of that index: DebugTools argument templates ([Index.Template]) and an
// HTTP mapping index of Spring and JAX-RS controllers ([Index.HTTPMappings]).
//
// # Parsing
//
// [Parse] never fails and never panics: method bodies and field
// initialisers are skipped by bracket matching, and anything it cannot
// understand is skipped up to the next declaration. It understands
// comments, string and character literals, text blocks, generics
// (including nested ">>"), varargs, arrays and annotations with array and
// nested-annotation values.
//
//	f := javasrc.Parse("User.java", src)
//	for _, t := range f.Types {
//		fmt.Println(t.QualifiedName, len(t.Methods))
//	}
//
// # Concurrency
//
// A [File] is immutable once returned. An [Index] is safe for concurrent
// use: Refresh re-reads only the files whose size or modification time
// changed, under the index's lock.
package javasrc
