package testrun

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/dbg-dev/dbg/sessions"
)

// rspecFramework runs the project's specs with rspec under rdbg. An
// expectation that fails raises RSpec::Expectations::ExpectationNotMetError
// inside rspec-expectations, which RSpec rescues: exception stops are
// taken when they are that error or raised by the user's own code, and
// the run goes on past the others (those Ruby and RSpec raise and rescue
// inside themselves).
func rspecFramework() *Framework {
	return &Framework{
		Name:     "rspec",
		Language: "ruby",
		Detect:   func(dir string) bool { return exists(dir, ".rspec") || exists(dir, "spec/spec_helper.rb") },
		List:     listRspec,
		Plan:     planRspec,
		Message:  rubyMessage,
		UserFile: rubyUserFile,
		Claims:   func(id string) bool { return strings.Contains(id, "_spec.rb") },
		Accept:   rubyAccept,
	}
}

// rspecCommand is the project's rspec: its binstub, else the one on PATH.
func rspecCommand(p *Project) (string, error) {
	if bin := filepath.Join(p.Dir, "bin", "rspec"); exists(p.Dir, "bin/rspec") {
		return bin, nil
	}
	bin, err := exec.LookPath("rspec")
	if err != nil {
		return "", fmt.Errorf("rspec is not installed (gem install rspec, or apt-get install ruby-rspec)")
	}
	return bin, nil
}

// rspecReport is the part of `rspec --dry-run --format json` discovery reads.
type rspecReport struct {
	Examples []struct {
		ID       string `json:"id"`
		FilePath string `json:"file_path"`
		Line     int    `json:"line_number"`
	} `json:"examples"`
	Messages []string `json:"messages"`
	Summary  struct {
		ErrorsOutside int `json:"errors_outside_of_examples_count"`
	} `json:"summary"`
}

// listRspec runs `rspec --dry-run`: ids are FILE:LINE, or RSpec's own
// example id (FILE[1:4]) where several examples share a line.
func listRspec(ctx context.Context, p *Project, _ string) ([]TestID, error) {
	bin, err := rspecCommand(p)
	if err != nil {
		return nil, err
	}
	out, err := reportFile("rspec")
	if err != nil {
		return nil, err
	}
	defer os.Remove(out)
	res, err := run(ctx, p.Dir, p.Env, []string{bin, "--dry-run", "--format", "json", "--out", out})
	if err != nil {
		return nil, fmt.Errorf("rspec --dry-run: %w", err)
	}
	b, rerr := os.ReadFile(out)
	var rep rspecReport
	if rerr != nil || json.Unmarshal(b, &rep) != nil {
		return nil, &BuildError{Tool: "rspec", Output: res.Output}
	}
	if rep.Summary.ErrorsOutside > 0 {
		return nil, &BuildError{Tool: "rspec", Output: strings.Join(rep.Messages, "\n")}
	}
	perLine := map[string]int{}
	for _, e := range rep.Examples {
		perLine[fmt.Sprintf("%s:%d", e.FilePath, e.Line)]++
	}
	var ids []TestID
	for _, e := range rep.Examples {
		file := strings.TrimPrefix(e.FilePath, "./")
		id := fmt.Sprintf("%s:%d", file, e.Line)
		if perLine[fmt.Sprintf("%s:%d", e.FilePath, e.Line)] > 1 {
			id = strings.TrimPrefix(e.ID, "./")
		}
		ids = append(ids, TestID{ID: id, File: file})
	}
	return ids, nil
}

func planRspec(_ context.Context, p *Project, id TestID, stopAt StopAt) (*Plan, error) {
	bin, err := rspecCommand(p)
	if err != nil {
		return nil, err
	}
	args := []string{id.ID, "--format", "progress", "--no-color"}
	pl := &Plan{
		Create: sessions.CreateRequest{Language: "ruby", Name: "test " + id.ID},
		Start: sessions.StartRequest{ScriptPath: bin, Args: args, Cwd: p.Dir, Env: p.Env,
			ExceptionFilters: []string{"any"}},
		Command: append([]string{"rspec"}, args...),
	}
	if stopAt.Mode == StopStart {
		file, l, ok := strings.Cut(id.ID, ":")
		line := 0
		if ok {
			_, _ = fmt.Sscanf(l, "%d", &line)
		}
		if line == 0 {
			return nil, fmt.Errorf("stopAt start needs a FILE:LINE id; set a breakpoint instead")
		}
		pl.Breakpoints = append(pl.Breakpoints, sessions.BreakpointSpec{File: filepath.Join(p.Dir, file), Line: line + 1})
	}
	return pl, nil
}

// rubyMessage is the raised error's text.
func rubyMessage(_ context.Context, r *failureReader) Failure {
	return Failure{Message: strings.TrimSpace(r.stop.Text)}
}

// rubyUserFile: the project's files, not its bundled gems'.
func rubyUserFile(p *Project, file string) bool {
	return under(file, p.Dir) && !strings.Contains(file, string(filepath.Separator)+"vendor"+string(filepath.Separator)+"bundle")
}

// rubyAccept: RSpec's failed expectation, a minitest assertion, or an
// error the user's code raised.
func rubyAccept(r *failureReader) bool {
	t := r.stop.Text
	if strings.Contains(t, "ExpectationNotMetError") || strings.Contains(t, "Minitest::Assertion") {
		return true
	}
	return len(r.frames) > 0 && r.frames[0].File != "" && r.fw.UserFile(r.p, r.frames[0].File)
}
