package adapters

import (
	"context"
	"errors"
	"path/filepath"
	"strings"

	"github.com/dbg-dev/dbg/adapters/cobol"
	"github.com/dbg-dev/dbg/dap"
	"github.com/dbg-dev/dbg/proc"
)

// COBOL is the adapter of language "cobol": GnuCOBOL programs built with
// `cobc -x -g` and debugged under the C adapter (LLDB), through an
// in-process proxy layer ([cobol.Layer]) that speaks COBOL: breakpoints and
// stops are .cob lines, and the variables of a COBOL frame are the
// WORKING-STORAGE items by their COBOL names with decoded values.
//
// Attach by pid works like C's; give the .cob source as the program to
// see COBOL names (without it, variables are the C view).
//
// A COBOL value holds no per-session state and is safe for concurrent use.
type COBOL struct {
	c *Native
}

// NewCOBOL returns the cobol adapter.
func NewCOBOL() *COBOL { return &COBOL{c: &Native{lang: "cobol"}} }

// Language returns "cobol".
func (a *COBOL) Language() string { return "cobol" }

// cobcTool is GnuCOBOL's compiler; its install is GnuCOBOL 3.1 and
// LLDB 16 from Debian bookworm.
var cobcTool = Tool{
	Language: "cobol", What: "cobc (GnuCOBOL)",
	Names: []string{"cobc"}, VersionArgs: []string{"--version"},
	Install: [][]string{
		{"apt-get", "update"},
		{"apt-get", "install", "-y", "--no-install-recommends", "gnucobol3=3.1.2-5+b1", "lldb-16=1:16.0.6-15~deb12u1", "gcc=4:12.2.0-3"},
	},
}

// Find reports cobc and the C debug adapter under it.
func (a *COBOL) Find(ctx context.Context) Info {
	info := a.c.Find(ctx)
	info.Language = "cobol"
	info.InstallCommand = cobcTool.InstallHint()
	info.Aliases = []string{"cob", "cbl", "gnucobol"}
	cobc, err := cobcTool.Path()
	if err != nil {
		info.Found = false
		info.Note = err.Error()
		return info
	}
	if !info.Found {
		info.Note = cobolMissing("a C debug adapter (lldb-dap or lldb-vscode)").Error()
		return info
	}
	info.Adapter = "cobc " + cobcTool.Version(ctx, cobc) + " + " + info.Adapter
	info.Note = "builds with cobc -x -g; .cob lines and WORKING-STORAGE names (DISPLAY, COMP-3, COMP, alphanumeric decoded)"
	return info
}

// InstallCommands implements Installer.
func (a *COBOL) InstallCommands() [][]string { return cobcTool.InstallCommands() }

// cobolMissing is the error of a missing tool under the COBOL adapter.
func cobolMissing(what string) *NotFoundError {
	return &NotFoundError{Language: "cobol", What: what, Install: cobcTool.InstallHint()}
}

// isCOBOLSource reports whether p names a COBOL source file.
func isCOBOLSource(p string) bool {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".cob", ".cbl", ".cobol":
		return true
	}
	return false
}

// program builds (or finds in the build cache) the program of t.
func (a *COBOL) program(ctx context.Context, t Target) (*cobol.Program, error) {
	if t.Remote != nil {
		// Its local copy, which the path mappings name, when there is one.
		if t.Remote.LocalExe == "" {
			return nil, nil
		}
		if p, err := cobol.LoadBinary(t.Remote.LocalExe); err == nil {
			return p, nil
		}
		return nil, nil
	}
	if t.Mode == Attach && (t.Program == "" || !isCOBOLSource(t.Program)) && t.PID > 0 {
		// A program dbg built knows its layout: find it by the
		// running executable.
		if p, err := cobol.LoadBinary(proc.Path(t.PID, "exe")); err == nil {
			return p, nil
		}
		return nil, nil
	}
	if t.Program == "" || !isCOBOLSource(t.Program) {
		return nil, nil
	}
	src := t.Program
	if !filepath.IsAbs(src) && t.Cwd != "" {
		src = filepath.Join(t.Cwd, src)
	}
	return cobol.Build(ctx, src)
}

// Start builds the program (so the proxy knows its data items), starts
// the C adapter, and puts the COBOL layer in front of LLDB's in its proxy.
func (a *COBOL) Start(ctx context.Context, t Target) (*Endpoint, error) {
	if _, err := cobcTool.Path(); err != nil && t.Mode != Attach {
		return nil, err
	}
	prog, err := a.program(ctx, t)
	if err != nil {
		return nil, err
	}
	ep, err := a.c.startWith(ctx, t, []dap.Layer{cobol.Layer(prog)})
	var nf *NotFoundError
	if errors.As(err, &nf) {
		return nil, cobolMissing(nf.What)
	}
	if err != nil {
		return nil, err
	}
	return ep, nil
}

// LaunchArgs builds the program and returns the C adapter's launch
// arguments for its binary, run in the source's directory by default.
func (a *COBOL) LaunchArgs(ctx context.Context, t Target) (map[string]any, error) {
	if t.Program == "" {
		return nil, errors.New("no program to launch: give a .cob source or a binary built with cobc -g")
	}
	prog, err := a.program(ctx, t)
	if err != nil {
		return nil, err
	}
	ct := t
	if prog != nil {
		ct.Program = prog.Binary
		if ct.Cwd == "" {
			ct.Cwd = filepath.Dir(prog.Source)
		}
	}
	return a.c.LaunchArgs(ctx, ct)
}

// AttachArgs returns the C adapter's attach arguments.
func (a *COBOL) AttachArgs(ctx context.Context, t Target) (map[string]any, error) {
	ct := t
	ct.Cwd = ""
	return a.c.AttachArgs(ctx, ct)
}

// StopReason maps like C's.
func (a *COBOL) StopReason(reason string) string { return a.c.StopReason(reason) }

// ExceptionFilters: "cobol_runtime_error" (a breakpoint on libcob's
// cob_runtime_error) in modes "all" and "uncaught".
func (a *COBOL) ExceptionFilters(mode string) []string { return a.c.ExceptionFilters(mode) }

// Traits: those of the C adapter, with COBOL's sources, and its programs
// told by the GnuCOBOL runtime they link.
func (a *COBOL) Traits() Traits {
	t := a.c.Traits()
	t.Extensions = []string{".cob", ".cbl"}
	t.Binary, t.BinaryRank = func(e *Executable) bool { return e.Imports("libcob") }, 30
	t.Core, t.NoCore = nil, "COBOL lines and names are not mapped in a core; open the core as language c (coreFile, program) to read libcob's and the program's C frames"
	t.Remote = nativeRemote("libcob")
	return t
}
