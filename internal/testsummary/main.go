// Command testsummary reads the event stream of `go test -json` on its
// standard input and writes what a person reads: one line per package
// as it ends (ok, FAIL or skipped, with its time), the whole output of
// each failing test and of each failing package (a build error, a panic,
// a timeout and the tests it cut), and at the end each package's time
// and the slowest tests. It exits 1 when a package, a build or a test
// failed, or when the stream ends before a package did.
//
//	go test -race -json ./... | go run ./internal/testsummary [-top 10] [-save events.json]
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	top := flag.Int("top", 10, "how many of the slowest tests to list")
	save := flag.String("save", "", "also write the raw event stream to this file (created, never overwritten)")
	flag.Parse()
	in := io.Reader(os.Stdin)
	if *save != "" {
		f, err := os.OpenFile(*save, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testsummary:", err)
			os.Exit(2)
		}
		defer f.Close()
		in = io.TeeReader(in, f)
	}
	s := newSummary(os.Stdout)
	if err := s.read(in); err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		os.Exit(2)
	}
	if !s.report(*top) {
		os.Exit(1)
	}
}
