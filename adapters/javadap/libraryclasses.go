package javadap

import (
	"context"
	"strings"
)

// A launch's libraryClasses name classes that, like the JDK's, are not
// the user's code (a test framework's, "org.junit.*"). Under justMyCode
// a caught exception then stops only while a frame of the user's code is
// on the thread's stack: the exceptions a framework throws and catches
// inside itself, before and after it calls the user's code, are passed
// over in the adapter, while an assertion failing in the user's test, or
// an exception the user's code throws, still stops.

// isLibraryClass reports whether sig is a class of the launch's
// libraryClasses.
func (s *Server) isLibraryClass(sig string) bool {
	name := javaTypeName(sig)
	for _, p := range s.library {
		if p = strings.TrimSuffix(p, "*"); p != "" && strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// userFrameOnStack reports whether a frame of the suspended thread runs
// in a class that is neither the JDK's nor a library's. A stack it cannot
// read counts as the user's, so the stop is not lost.
func (s *Server) userFrameOnStack(ctx context.Context, thread uint64) bool {
	frames, err := s.vm.Frames(ctx, thread, 0, -1)
	if err != nil {
		return true
	}
	for _, f := range frames {
		sig, err := s.classes.signature(ctx, f.Location.Class)
		if err != nil {
			return true
		}
		if !isJDKClass(sig) && !s.isLibraryClass(sig) {
			return true
		}
	}
	return false
}
