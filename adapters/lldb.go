package adapters

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/adapters/native"
	"github.com/dbg-dev/dbg/dap"
	"github.com/dbg-dev/dbg/proc"
	"github.com/dbg-dev/dbg/safefs"
)

// Native is the adapter of the compiled languages "c", "cpp" and "rust".
// All three share one implementation: LLDB's DAP adapter in whatever form
// is installed (lldb-dap, lldb-dap-NN, lldb-vscode, lldb-vscode-NN, the
// newest first), else CodeLLDB (`codelldb --port`), else `gdb -i dap`
// when gdb is 14 or newer.
//
// A source file (.c, .cpp, .rs) or a Cargo project given as
// Target.Program is built with debug info first; a binary is launched as
// is. Rust sessions load rustc's LLDB pretty-printers so String and Vec
// read as values.
//
// A Native value holds no per-session state and is safe for concurrent
// use. Builds of the same source by concurrent sessions write to private
// temporary names and rename into place.
type Native struct {
	lang  string
	pyDir lldbPyDirs
}

// NewC returns the adapter of language "c".
func NewC() *Native { return &Native{lang: "c"} }

// NewCPP returns the adapter of language "cpp".
func NewCPP() *Native { return &Native{lang: "cpp"} }

// NewRust returns the adapter of language "rust".
func NewRust() *Native { return &Native{lang: "rust"} }

// nativeKind is the family of a found native debug adapter.
type nativeKind int

const (
	kindLLDBDAP  nativeKind = iota // lldb-dap / lldb-vscode over stdio
	kindCodeLLDB                   // codelldb --port over TCP
	kindGDB                        // gdb -i dap over stdio
)

// nativeDebugger is a debug adapter found on this machine.
type nativeDebugger struct {
	kind    nativeKind
	name    string // file name: lldb-vscode-16, codelldb, gdb
	path    string
	major   int    // major version, 0 when unknown
	version string // human-readable version
}

// nativeNameRE matches LLDB's DAP adapter names; group 2 is the version.
var nativeNameRE = regexp.MustCompile(`^(lldb-dap|lldb-vscode)(?:-(\d+))?$`)

// llvmDirRE finds the LLVM major version in a resolved path
// (/usr/lib/llvm-16/bin/lldb-vscode).
var llvmDirRE = regexp.MustCompile(`llvm-(\d+)`)

// Language returns the language name.
func (n *Native) Language() string { return n.lang }

// tool declares the native debug adapters: found by findDebugger, which
// ranks LLDB's versions, and installed as LLDB 16 (lldb-vscode-16) from
// Debian bookworm. Rust also needs a toolchain; rustup's is assumed
// present.
func (n *Native) tool() Tool {
	return Tool{
		Language: n.lang,
		What:     "a debug adapter in PATH (lldb-dap, lldb-dap-NN, lldb-vscode, lldb-vscode-NN, codelldb, or gdb >= 14)",
		Install: [][]string{
			{"apt-get", "update"},
			{"apt-get", "install", "-y", "--no-install-recommends", "lldb-16=1:16.0.6-15~deb12u1", "gcc=4:12.2.0-3", "g++=4:12.2.0-3"},
		},
	}
}

// findDebugger locates the native debug adapter in PATH: the one want
// names (lldbWanted: a major version or a path), else the best.
func (n *Native) findDebugger(ctx context.Context, want string) (nativeDebugger, error) {
	var cands []nativeDebugger
	for _, p := range execsInPath(nativeNameRE) {
		name := filepath.Base(p)
		m := nativeNameRE.FindStringSubmatch(name)
		d := nativeDebugger{kind: kindLLDBDAP, name: name, path: p}
		if m[2] != "" {
			d.major, _ = strconv.Atoi(m[2])
		} else if real, err := filepath.EvalSymlinks(p); err == nil {
			if mm := llvmDirRE.FindStringSubmatch(real); mm != nil {
				d.major, _ = strconv.Atoi(mm[1])
			}
		}
		cands = append(cands, d)
	}
	if len(cands) > 0 || want != "" {
		// Newest first; at equal versions lldb-dap (the current name)
		// before lldb-vscode, and versioned names before bare ones.
		sort.SliceStable(cands, func(i, j int) bool {
			a, b := cands[i], cands[j]
			if a.major != b.major {
				return a.major > b.major
			}
			ad, bd := strings.HasPrefix(a.name, "lldb-dap"), strings.HasPrefix(b.name, "lldb-dap")
			if ad != bd {
				return ad
			}
			return len(a.name) > len(b.name)
		})
		if want != "" {
			return pickLLDB(cands, want)
		}
		return cands[0], nil
	}
	if p, err := lookPath("codelldb"); err == nil {
		return nativeDebugger{kind: kindCodeLLDB, name: "codelldb", path: p}, nil
	}
	if p, err := exec.LookPath("gdb"); err == nil {
		if v := commandVersion(ctx, p, "--version"); v != "" {
			major, _ := strconv.Atoi(strings.SplitN(v, ".", 2)[0])
			if major >= 14 {
				return nativeDebugger{kind: kindGDB, name: "gdb", path: p, major: major, version: v}, nil
			}
		}
	}
	return nativeDebugger{}, n.tool().NotFound()
}

// lldbVersion asks the adapter (lldb-dap knows --version) or its sibling
// lldb (lldb-NN --version) for the LLDB version.
func lldbVersion(ctx context.Context, d nativeDebugger) string {
	try := []string{}
	if strings.HasPrefix(d.name, "lldb-dap") {
		try = append(try, d.path)
	}
	suffix := ""
	if d.major > 0 && strings.HasSuffix(d.name, "-"+strconv.Itoa(d.major)) {
		suffix = "-" + strconv.Itoa(d.major)
	}
	try = append(try, filepath.Join(filepath.Dir(d.path), "lldb"+suffix))
	for _, p := range try {
		if !isExec(p) {
			continue
		}
		if v := commandVersion(ctx, p, "--version"); v != "" {
			return v
		}
	}
	if d.major > 0 {
		return strconv.Itoa(d.major)
	}
	return ""
}

// Find reports the native debug adapter that sessions of this language use.
func (n *Native) Find(ctx context.Context) Info {
	info := Info{
		Language:       n.lang,
		Adapter:        "lldb-dap",
		Launch:         true,
		AttachPID:      true,
		InstallCommand: n.tool().InstallHint(),
	}
	d, err := n.findDebugger(ctx, lldbWanted(nil))
	if err != nil {
		info.Note = err.Error()
		return info
	}
	info.Found = true
	info.Adapter = d.name
	info.Path = d.path
	info.Version = d.version
	if d.kind == kindLLDBDAP {
		info.Version = lldbVersion(ctx, d)
	}
	switch n.lang {
	case "rust":
		info.Note = "builds a Cargo project or .rs file with debug info (cargo build / rustc -g); loads rustc's LLDB pretty-printers and dbg's formatters"
	case "cpp":
		info.Note = "builds a .cpp source with c++ -g -O0; a binary is launched as is; loads dbg's LLDB formatters"
	default:
		info.Note = "builds a .c source with cc -g -O0; a binary is launched as is; loads dbg's LLDB formatters"
	}
	if d.kind == kindLLDBDAP {
		info.Note += "; adapterConfig.lldb or $" + LLDBEnv + " picks another LLDB (a major version or a path)"
	}
	return info
}

// InstallCommands implements Installer.
func (n *Native) InstallCommands() [][]string { return n.tool().InstallCommands() }

// Start starts the native debug adapter. For lldb-dap and gdb the DAP
// stream is the child's stdio; CodeLLDB is reached over TCP.
func (n *Native) Start(ctx context.Context, t Target) (*Endpoint, error) {
	return n.startWith(ctx, t, nil)
}

// startWith is Start with outer proxy layers in front of LLDB's.
func (n *Native) startWith(ctx context.Context, t Target, outer []dap.Layer) (*Endpoint, error) {
	d, err := n.findDebugger(ctx, lldbWanted(t.Extra))
	if err != nil {
		return nil, err
	}
	switch d.kind {
	case kindCodeLLDB:
		port, err := natFreePort()
		if err != nil {
			return nil, err
		}
		p, err := dap.StartProcess(exec.Command(d.path, "--port", strconv.Itoa(port)), dap.ProcessOptions{})
		if err != nil {
			return nil, fmt.Errorf("start %s: %w", d.path, err)
		}
		dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		conn, err := natDialWhileAlive(dctx, p, "tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err != nil {
			p.Kill()
			return nil, fmt.Errorf("connect to codelldb: %w (stderr: %s)", err, p.StderrTail())
		}
		px := n.natProxy(conn, outer)
		return &Endpoint{Conn: px.Client(), Process: p, Cleanup: px.Stop}, nil
	default:
		args := []string{}
		if d.kind == kindGDB {
			args = []string{"-q", "-i", "dap"}
		}
		cmd := exec.Command(d.path, args...)
		if py := n.pyDir.pythonDir(ctx, d); py != "" {
			cmd.Env = lldbPythonEnv(py)
		}
		p, err := dap.StartProcess(cmd, dap.ProcessOptions{Stdio: true})
		if err != nil {
			return nil, fmt.Errorf("start %s: %w", d.path, err)
		}
		px := n.natProxy(p, outer)
		return &Endpoint{Conn: px.Client(), Process: p, Cleanup: px.Stop}, nil
	}
}

// natLangFilters are the exception filters the LLDB proxy layer
// implements for a language.
func natLangFilters(lang string) []native.Filter { return native.Filters(lang) }

// natProxy starts the one proxy in front of an LLDB adapter stream: the
// outer layers (a language's) in front of LLDB's fixes.
func (n *Native) natProxy(up io.ReadWriteCloser, outer []dap.Layer) *dap.Proxy {
	return native.NewLangProxy(up, n.lang, outer...)
}

// natDialWhileAlive dials addr on network until it answers, ctx ends or
// p exits.
func natDialWhileAlive(ctx context.Context, p *dap.Process, network, addr string) (net.Conn, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-p.Exited():
			cancel()
		case <-ctx.Done():
		}
	}()
	return dap.DialNetwork(ctx, network, addr)
}

// natFreePort asks the kernel for a free loopback TCP port.
func natFreePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// LaunchArgs builds the program when it is a source or a Cargo project
// and returns the launch arguments of the found adapter.
func (n *Native) LaunchArgs(ctx context.Context, t Target) (map[string]any, error) {
	// Without an adapter, build lldb-dap's arguments: Start reports the
	// missing adapter.
	d, _ := n.findDebugger(ctx, lldbWanted(t.Extra))
	if t.Program == "" {
		return nil, errors.New("no program to launch: give a binary, a source file or a Cargo project")
	}
	bin, srcDir, err := BuildNative(ctx, n.lang, t.Program, t.Cwd)
	if err != nil {
		return nil, err
	}
	cwd := t.Cwd
	if cwd == "" {
		cwd = srcDir
	}
	args := map[string]any{
		"name":    "dbg",
		"type":    "lldb",
		"request": "launch",
		"program": bin,
		"args":    nonNil(t.Args),
		"cwd":     cwd,
	}
	switch d.kind {
	case kindGDB:
		args["type"] = "gdb"
		args["env"] = t.Env
		args["stopAtBeginningOfMainSubprogram"] = t.StopOnEntry
	case kindCodeLLDB:
		args["env"] = t.Env
		args["stopOnEntry"] = t.StopOnEntry
		if n.lang == "rust" {
			args["sourceLanguages"] = []string{"rust"}
		}
	default:
		env := make([]string, 0, len(t.Env))
		for k, v := range t.Env {
			env = append(env, k+"="+v)
		}
		sort.Strings(env)
		args["env"] = env
		args["stopOnEntry"] = t.StopOnEntry
		init := n.initCommands(ctx, srcDir, bin)
		if n.pyDir.pythonDir(ctx, d) != "" {
			if c := lldbPythonRestore(t); c != "" {
				init = append(init, c)
			}
		}
		if len(init) > 0 {
			args["initCommands"] = init
		}
	}
	if len(t.SourcePaths) > 0 && d.kind == kindLLDBDAP {
		args["sourcePath"] = t.SourcePaths[0]
	}
	return merge(args, withoutKey(t.Extra, lldbKey)), nil
}

// AttachArgs returns the arguments that attach to t.PID.
func (n *Native) AttachArgs(ctx context.Context, t Target) (map[string]any, error) {
	if t.Remote != nil {
		return n.remoteAttachArgs(ctx, t)
	}
	d, _ := n.findDebugger(ctx, lldbWanted(t.Extra))
	if t.PID <= 0 {
		return nil, errors.New("attach needs a process id")
	}
	args := map[string]any{
		"name":    "dbg",
		"type":    "lldb",
		"request": "attach",
		"pid":     t.PID,
	}
	switch d.kind {
	case kindGDB:
		args["type"] = "gdb"
	case kindLLDBDAP:
		args["stopOnEntry"] = t.StopOnEntry
		exe, _ := proc.Exe(t.PID)
		if init := n.initCommands(ctx, t.Cwd, exe); len(init) > 0 {
			args["initCommands"] = init
		}
	}
	return merge(args, withoutKey(t.Extra, lldbKey)), nil
}

// initCommands returns the LLDB commands that load the formatters of a
// session debugging binary: for Rust rustc's pretty-printers first (what
// rust-lldb does; dir is where rustc runs, so a rust-toolchain file is
// honoured), then dbg's own (native.FormatterCommands), whose category
// comes before rustc's. Formatters that cannot be loaded are left out.
func (n *Native) initCommands(ctx context.Context, dir, binary string) []string {
	var cmds []string
	if n.lang == "rust" {
		if etc, err := rustLLDBDir(ctx, dir); err == nil {
			cmds = append(cmds,
				fmt.Sprintf("command script import %q", filepath.Join(etc, "lldb_lookup.py")),
				fmt.Sprintf("command source -s 1 %q", filepath.Join(etc, "lldb_commands")))
		}
	}
	switch n.lang {
	case "c", "cpp", "rust":
		if cache, err := safefs.UserCacheDir(); err == nil {
			if own, err := native.FormatterCommands(n.lang, binary, cache); err == nil {
				cmds = append(cmds, own...)
			}
		}
	}
	return cmds
}

// rustLLDBDir returns <sysroot>/lib/rustlib/etc when it holds the LLDB
// pretty-printers.
func rustLLDBDir(ctx context.Context, dir string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "rustc", "--print", "sysroot")
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		cmd.Dir = dir
	}
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("rustc --print sysroot: %w", err)
	}
	etc := filepath.Join(strings.TrimSpace(string(out)), "lib", "rustlib", "etc")
	if _, err := os.Stat(filepath.Join(etc, "lldb_lookup.py")); err != nil {
		return "", err
	}
	return etc, nil
}

// StopReason maps lldb's stop reasons to DAP's standard ones.
func (n *Native) StopReason(reason string) string {
	switch reason {
	case "signal", "crash":
		return "exception"
	case "function_breakpoint":
		return "function breakpoint"
	}
	return reason
}

// ExceptionFilters returns the filters of a mode ("all", "uncaught",
// "none"): lldb-dap's C++ throw filter for cpp in mode "all" (LLDB has no
// "uncaught" filter: an uncaught C++ exception aborts, which stops as a
// signal anyway), and the proxy's "rust_panic" (and COBOL's
// "cobol_runtime_error") in both modes. A C crash stops as a signal.
func (n *Native) ExceptionFilters(mode string) []string {
	if mode != "all" && mode != "uncaught" {
		return nil
	}
	if n.lang == "cpp" {
		if mode == "all" {
			return []string{"cpp_throw"}
		}
		return nil
	}
	var ids []string
	for _, f := range natLangFilters(n.lang) {
		ids = append(ids, f.ID)
	}
	return ids
}

// Traits: native programs, with breakpoints changed while paused (see
// [Traits.PausedBreakpoints]). A binary is Rust's by its runtime's
// symbols, C++'s by its standard library, and C's when it is any other
// ELF file.
func (n *Native) Traits() Traits {
	t := Traits{Native: true, PausedBreakpoints: true, Core: n.core,
		Children: ChildProcesses{Reason: "lldb-dap cannot follow forks or execs (LLDB's follow-fork-mode is not served over DAP): " +
			"attach to the child by pid (create_debug_session {processId})"}}
	switch n.lang {
	case "c":
		t.Extensions = []string{".c"}
		t.Binary, t.BinaryRank = (*Executable).ELF, 10
		t.Remote = nativeRemote()
	case "cpp":
		t.Extensions = []string{".cc", ".cpp", ".cxx"}
		t.Binary, t.BinaryRank = isCPPBinary, 20
		t.Remote = nativeRemote("libstdc++")
	case "rust":
		t.Extensions, t.ProjectFiles = []string{".rs"}, []string{"Cargo.toml"}
		t.Binary, t.BinaryRank = isRustBinary, 40
		t.Remote = nativeRemote("rust_begin_unwind")
	}
	return t
}

// isRustBinary recognises Rust's runtime in a binary's symbols.
func isRustBinary(e *Executable) bool {
	return e.Symbol(func(s string) bool {
		return strings.Contains(s, "rust_begin_unwind") || strings.HasPrefix(s, "_ZN3std2rt")
	})
}

// isCPPBinary recognises C++'s standard library in a binary's symbols or
// libraries.
func isCPPBinary(e *Executable) bool {
	return e.Imports("libstdc++", "libc++") || e.Symbol(func(s string) bool {
		return strings.HasPrefix(s, "_ZNSt") || strings.HasPrefix(s, "_ZSt") || strings.Contains(s, "GLIBCXX")
	})
}
