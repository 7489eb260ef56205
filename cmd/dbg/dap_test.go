package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// dbg dap NAME serves the built-in adapter its declaration names: the
// mock answers initialize on stdout, and ends when stdin does.
func TestDAPServesBuiltin(t *testing.T) {
	t.Parallel()
	f, out, _ := cliFactory(t)
	in := `{"seq":1,"type":"request","command":"initialize","arguments":{"adapterID":"mock"}}`
	fmt.Fprintf(f.io.In.(*bytes.Buffer), "Content-Length: %d\r\n\r\n%s", len(in), in)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	root := newCmdRoot(f)
	root.SetArgs([]string{"dap", "mock"})
	if err := root.ExecuteContext(ctx); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); !strings.Contains(got, `"command":"initialize"`) || !strings.Contains(got, `"success":true`) {
		t.Fatalf("stdout %q", got)
	}
}
