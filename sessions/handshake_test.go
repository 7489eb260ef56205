package sessions

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/toolkit"
)

// overlapAdapter is the mock adapter whose launch arguments can only be
// made once the adapter has started: a start-up that makes them first
// never gets there.
type overlapAdapter struct {
	adapters.Mock
	once    *sync.Once
	started chan struct{}
	bad     bool // LaunchArgs fails
}

func (a overlapAdapter) Start(ctx context.Context, t adapters.Target) (*adapters.Endpoint, error) {
	a.once.Do(func() { close(a.started) })
	return a.Mock.Start(ctx, t)
}

func (a overlapAdapter) LaunchArgs(ctx context.Context, t adapters.Target) (map[string]any, error) {
	select {
	case <-a.started:
	case <-time.After(10 * time.Second):
		return nil, errors.New("the adapter was not started while the arguments were made")
	}
	if a.bad {
		return nil, errors.New("no such program variant")
	}
	return a.Mock.LaunchArgs(ctx, t)
}

// The launch arguments are made while the adapter starts; the launch then
// stops at its breakpoint with the right values.
func TestStartUpOverlapsArgumentsAndAdapter(t *testing.T) {
	t.Parallel()
	a := overlapAdapter{once: &sync.Once{}, started: make(chan struct{})}
	m := NewManager(Config{Adapters: adapters.NewRegistry(a), StateDir: t.TempDir()})
	defer m.Shutdown(context.Background())
	ctx := context.Background()
	s := mockStopped(t, m) // stopped at line 10: the arguments were made
	if v, err := s.Evaluate(ctx, "i * 100 + total", 0, EvalREPL); err != nil || v.Result != "100" {
		t.Errorf("i*100+total = %+v %v, want 100", v, err)
	}
}

// Arguments that cannot be made are the caller's error, INVALID_ARGUMENT,
// even though the adapter was already started; nothing is left running.
func TestStartUpArgumentErrorAfterAdapterStarted(t *testing.T) {
	t.Parallel()
	a := overlapAdapter{once: &sync.Once{}, started: make(chan struct{}), bad: true}
	m := NewManager(Config{Adapters: adapters.NewRegistry(a), StateDir: t.TempDir()})
	defer m.Shutdown(context.Background())
	ctx := context.Background()
	s, _, err := m.Create(ctx, CreateRequest{Language: "mock"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Launch(ctx, StartRequest{ScriptPath: testdata(t, "mock/loop.mock")})
	var te *toolkit.ToolError
	if !errors.As(err, &te) || te.Code != toolkit.CodeInvalidArgument || !strings.Contains(te.Message, "no such program variant") {
		t.Fatalf("launch error %v, want INVALID_ARGUMENT with the reason", err)
	}
	// The adapter's end may be reported after the error: either says
	// that nothing runs.
	if st := s.State(); st != StateError && st != StateTerminated {
		t.Errorf("state %s, want error or terminated", st)
	}
}
