package adapters

import (
	"context"
	"errors"
	"io"

	"github.com/dbg-dev/dbg/adapters/mockdap"
	"github.com/dbg-dev/dbg/toolkit"
)

// Mock is the built-in mock adapter: deterministic programs of a tiny
// language (testdata/mock/*.mock), for tests and demos.
type Mock struct{}

// Language implements Adapter.
func (Mock) Language() string { return "mock" }

// Find implements Adapter.
func (Mock) Find(context.Context) Info {
	return Info{Language: "mock", Adapter: "built-in mock", Found: true, Builtin: true, Path: "(built in)",
		Launch: true, AttachPID: true, AttachPort: false}
}

// Start implements Adapter.
func (Mock) Start(context.Context, Target) (*Endpoint, error) {
	ep := InProcess(mockdap.NewHandler(), nil, nil)
	// Child sessions (startDebugging) get an adapter of their own, which
	// ends when their stream closes.
	ep.Child = func(context.Context, map[string]any) (io.ReadWriteCloser, error) {
		child := InProcess(mockdap.NewHandler(), nil, nil)
		return closeBoth{child}, nil
	}
	return ep, nil
}

// closeBoth closes an in-process endpoint's stream and waits for its
// adapter to finish.
type closeBoth struct{ ep *Endpoint }

func (c closeBoth) Read(b []byte) (int, error)  { return c.ep.Conn.Read(b) }
func (c closeBoth) Write(b []byte) (int, error) { return c.ep.Conn.Write(b) }
func (c closeBoth) Close() error {
	c.ep.Close(context.Background())
	return nil
}

// LaunchArgs implements Adapter.
func (Mock) LaunchArgs(_ context.Context, t Target) (map[string]any, error) {
	if t.Program == "" {
		return nil, errors.New("scriptPath is required: the path of a .mock program")
	}
	return merge(map[string]any{"program": absPath(t.Program), "args": t.Args, "stopOnEntry": t.StopOnEntry}, t.Extra), nil
}

// AttachArgs implements Adapter. The mock "attaches" by running the
// program named in adapterConfig.program from its start.
func (Mock) AttachArgs(_ context.Context, t Target) (map[string]any, error) {
	prog, _ := t.Extra["program"].(string)
	if prog == "" {
		prog = t.Program
	}
	if prog == "" {
		return nil, errors.New("mock attach needs adapterConfig.program: the .mock program to run")
	}
	return merge(map[string]any{"program": absPath(prog), "processId": t.PID}, t.Extra), nil
}

// StopReason implements Adapter.
func (Mock) StopReason(r string) string { return r }

// ExceptionFilters implements Adapter.
func (Mock) ExceptionFilters(mode string) []string { return standardFilters(mode, "all", "uncaught") }

// Traits implements Adapter: .mock programs, read whole (so their size is
// bounded before the launch), and the mock served standalone by
// `dbg dap mock`.
func (Mock) Traits() Traits {
	return Traits{
		Extensions:      []string{".mock"},
		MaxProgramBytes: toolkit.MaxSourceBytes, // the mock reads its programs whole
		Builtin:         &Builtin{Name: "mock", Serve: mockdap.Serve},
		Children:        ChildProcesses{Reason: "the mock runs no processes; a launch with childSession: true opens a child session on the same program"},
		NoCore:          mockNoCore,
		Remote:          &Remote{Refused: "the mock adapter runs its programs inside dbg: there is no mock program on another machine"},
	}
}

// standardFilters maps a breakOnExceptions mode to filter ids.
func standardFilters(mode, all, uncaught string) []string {
	switch mode {
	case "all":
		return []string{all, uncaught}
	case "uncaught":
		return []string{uncaught}
	}
	return []string{}
}
