package testrun

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dbg-dev/dbg/sessions"
)

// rustPanicFunction is where every Rust panic passes once the panic hook
// has printed its message.
const rustPanicFunction = "rust_panic"

// cargoFramework builds the project's test binaries with cargo and runs
// the one holding the test under the native adapter (LLDB), with a
// function breakpoint on rust_panic: an assert! or a panic in the code
// under test stops there, and the answer points at the first frame of
// the user's code.
func cargoFramework() *Framework {
	return &Framework{
		Name:     "cargo",
		Language: "rust",
		Detect:   func(dir string) bool { return exists(dir, "Cargo.toml") },
		List:     listCargo,
		Plan:     planCargo,
		Message:  rustMessage,
		UserFile: func(p *Project, file string) bool { return under(file, p.Dir) },
		Claims:   func(id string) bool { return !strings.Contains(id, "/") && !strings.Contains(id, ".") },
		// The test binary comes from discovery's build.
		PlanAfterList: true,
	}
}

// cargoArtifact is the part of cargo's JSON messages that names a test
// binary.
type cargoArtifact struct {
	Reason     string `json:"reason"`
	Executable string `json:"executable"`
	Profile    struct {
		Test bool `json:"test"`
	} `json:"profile"`
}

// cargoBuild builds the test binaries (`cargo test --no-run`) and returns
// their paths; a build that fails answers the compiler's message.
func cargoBuild(ctx context.Context, p *Project) ([]string, error) {
	res, err := run(ctx, p.Dir, p.Env, []string{"cargo", "test", "--no-run", "--message-format=json-render-diagnostics"})
	if err != nil {
		return nil, fmt.Errorf("cargo test --no-run: %w", err)
	}
	var bins, human []string
	for _, l := range strings.Split(res.Output, "\n") {
		if !strings.HasPrefix(l, "{") {
			human = append(human, l)
			continue
		}
		var a cargoArtifact
		if json.Unmarshal([]byte(l), &a) == nil && a.Reason == "compiler-artifact" && a.Profile.Test && a.Executable != "" {
			bins = append(bins, a.Executable)
		}
	}
	if res.ExitCode != 0 {
		return nil, &BuildError{Tool: "cargo", Output: strings.Join(human, "\n")}
	}
	return bins, nil
}

// listCargo asks each test binary for its tests (--list).
func listCargo(ctx context.Context, p *Project, _ string) ([]TestID, error) {
	bins, err := cargoBuild(ctx, p)
	if err != nil {
		return nil, err
	}
	var ids []TestID
	for _, bin := range bins {
		res, err := run(ctx, p.Dir, p.Env, []string{bin, "--list", "--format=terse"})
		if err != nil {
			return nil, fmt.Errorf("%s --list: %w", bin, err)
		}
		for _, l := range strings.Split(res.Output, "\n") {
			if name, ok := strings.CutSuffix(strings.TrimSpace(l), ": test"); ok {
				ids = append(ids, TestID{ID: name, binary: bin})
			}
		}
	}
	return ids, nil
}

func planCargo(_ context.Context, p *Project, id TestID, stopAt StopAt) (*Plan, error) {
	if id.binary == "" {
		return nil, fmt.Errorf("no test binary holds %s", id.ID)
	}
	env := mergeEnv(map[string]string{"RUST_BACKTRACE": "0"}, p.Env)
	args := []string{id.ID, "--exact", "--nocapture", "--test-threads=1"}
	pl := &Plan{
		Create:    sessions.CreateRequest{Language: "rust", Name: "test " + id.ID},
		Start:     sessions.StartRequest{ScriptPath: id.binary, Args: args, Cwd: p.Dir, Env: env, BreakOnExceptions: "none"},
		Functions: []string{rustPanicFunction},
		Command:   append([]string{"cargo", "test", "--"}, args...),
	}
	if stopAt.Mode == StopStart {
		// The test function's symbol: crate::module::name.
		pl.Breakpoints = append(pl.Breakpoints, sessions.BreakpointSpec{Function: id.ID})
	}
	return pl, nil
}

// rustMessage is what the panic hook printed: "panicked at FILE:LINE:COL:"
// and the message (assert_eq!'s left and right).
func rustMessage(ctx context.Context, r *failureReader) Failure {
	out := r.output(ctx, r.fw.Name, func(s string) bool { return strings.Contains(s, "panicked at ") })
	i := strings.LastIndex(out, "panicked at ")
	if i < 0 {
		return Failure{}
	}
	lines := strings.Split(out[i:], "\n")
	msg := []string{}
	for _, l := range lines[1:] {
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "note: ") {
			break
		}
		msg = append(msg, strings.TrimRight(l, " "))
	}
	return Failure{Message: strings.Join(msg, "\n")}
}
