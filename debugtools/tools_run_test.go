package debugtools

import (
	"context"
	"testing"

	"github.com/dbg-dev/dbg/toolkit"
)

type fakeStarter struct{ project, name string }

func (f *fakeStarter) StartConfiguration(ctx context.Context, project, name string) (int, error) {
	f.project, f.name = project, name
	return 0, toolkit.NewError(toolkit.CodeRunConfigNotFound, "no run configuration "+name, "")
}

// run_and_invoke starts a configurationName through the starter it was
// handed; without one, run configurations are not available.
func TestRunAndInvokeStarter(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	args := map[string]any{"projectPath": project, "configurationName": "svc", "className": "Hello", "methodName": "twice"}
	e := wantJVMCode(t, callJVM[RunInvokeOut](newJVMClient(t), "run_and_invoke", args), toolkit.CodeRunConfigNotFound)
	if e.Message != "run configurations are not available in this server" {
		t.Fatalf("without a starter: %+v", e)
	}
	f := &fakeStarter{}
	e = wantJVMCode(t, callJVM[RunInvokeOut](newJVMClientWith(t, Config{Starter: f}), "run_and_invoke", args), toolkit.CodeRunConfigNotFound)
	if e.Message != "no run configuration svc" || f.name != "svc" || f.project != project {
		t.Fatalf("with a starter: %+v (started %q in %q)", e, f.name, f.project)
	}
}
