package adapters

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// LLDBEnv is the environment variable that picks the LLDB of native
// sessions, as adapterConfig's "lldb" does for one session: a major
// version ("14") or the path of an lldb-dap / lldb-vscode binary.
const LLDBEnv = "DBG_LLDB"

// lldbKey is the adapterConfig key that picks a session's LLDB; it is
// dbg's, not passed on to the adapter.
const lldbKey = "lldb"

// lldbWanted returns which LLDB a session asks for: adapterConfig's
// "lldb", else $DBG_LLDB, else "" (the newest installed).
func lldbWanted(extra map[string]any) string {
	switch v := extra[lldbKey].(type) {
	case string:
		return strings.TrimSpace(v)
	case float64:
		return strconv.Itoa(int(v))
	case int:
		return strconv.Itoa(v)
	}
	return strings.TrimSpace(os.Getenv(LLDBEnv))
}

// pickLLDB narrows the found LLDB adapters (newest first) to the one
// wanted: a major version, or a path. It also looks in LLVM's own
// directory (/usr/lib/llvm-N/bin), where Debian installs the unsuffixed
// names.
func pickLLDB(cands []nativeDebugger, want string) (nativeDebugger, error) {
	if strings.ContainsRune(want, os.PathSeparator) {
		if !isExec(want) {
			return nativeDebugger{}, fmt.Errorf("the LLDB adapter %s (adapterConfig.%s or $%s) is not an executable file", want, lldbKey, LLDBEnv)
		}
		d := nativeDebugger{kind: kindLLDBDAP, name: filepath.Base(want), path: want}
		d.major = lldbMajor(want)
		return d, nil
	}
	major, err := strconv.Atoi(want)
	if err != nil || major <= 0 {
		return nativeDebugger{}, fmt.Errorf("adapterConfig.%s / $%s is %q: give an LLDB major version (14, 16) or the path of lldb-dap or lldb-vscode", lldbKey, LLDBEnv, want)
	}
	var have []string
	for _, c := range cands {
		if c.major == major {
			return c, nil
		}
		have = append(have, c.name)
	}
	for _, name := range []string{"lldb-dap", "lldb-vscode"} {
		p := filepath.Join(fmt.Sprintf("/usr/lib/llvm-%d/bin", major), name)
		if isExec(p) {
			return nativeDebugger{kind: kindLLDBDAP, name: name, path: p, major: major}, nil
		}
	}
	found := "none is installed"
	if len(have) > 0 {
		found = "installed: " + strings.Join(have, ", ")
	}
	return nativeDebugger{}, fmt.Errorf("LLDB %d was asked for (adapterConfig.%s or $%s) but there is no lldb-dap-%d or lldb-vscode-%d (%s); on Debian: apt-get install lldb-%d", major, lldbKey, LLDBEnv, major, major, found, major)
}

// lldbMajor reads the LLVM major version of an adapter from its name
// (lldb-vscode-14) or its resolved path (/usr/lib/llvm-14/bin/...).
func lldbMajor(p string) int {
	if m := nativeNameRE.FindStringSubmatch(filepath.Base(p)); m != nil && m[2] != "" {
		n, _ := strconv.Atoi(m[2])
		return n
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		if mm := llvmDirRE.FindStringSubmatch(real); mm != nil {
			n, _ := strconv.Atoi(mm[1])
			return n
		}
	}
	return 0
}

// lldbPythonDir returns the directory holding LLDB's Python module when
// the adapter would not find it by itself, or "". Debian's LLDB 14 looks
// in /usr/lib/local/lib/python3.11/dist-packages, where nothing is, so
// its Python (and with it every formatter, rustc's and dbg's) does not
// load; the module is in lib/python3.*/{dist,site}-packages of its LLVM
// directory.
func lldbPythonDir(ctx context.Context, d nativeDebugger) string {
	if d.kind != kindLLDBDAP {
		return ""
	}
	real, err := filepath.EvalSymlinks(d.path)
	if err != nil {
		return ""
	}
	bin := filepath.Dir(real)
	if lldb := filepath.Join(bin, "lldb"); isExec(lldb) {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		if out, err := exec.CommandContext(ctx, lldb, "-P").Output(); err == nil {
			if hasLLDBModule(strings.TrimSpace(string(out))) {
				return ""
			}
		}
	}
	for _, pattern := range []string{"lib/python3*/dist-packages", "lib/python3*/site-packages"} {
		dirs, _ := filepath.Glob(filepath.Join(filepath.Dir(bin), pattern))
		for _, dir := range dirs {
			if hasLLDBModule(dir) {
				return dir
			}
		}
	}
	return ""
}

// hasLLDBModule reports whether dir holds LLDB's Python module with the
// embedded interpreter LLDB imports at start.
func hasLLDBModule(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "lldb", "embedded_interpreter.py"))
	return dir != "" && err == nil
}

// lldbPythonEnv is the adapter's environment with pyDir first in
// PYTHONPATH.
func lldbPythonEnv(pyDir string) []string {
	env := os.Environ()
	old := os.Getenv("PYTHONPATH")
	val := pyDir
	if old != "" {
		val += string(os.PathListSeparator) + old
	}
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, "PYTHONPATH=") {
			out = append(out, kv)
		}
	}
	return append(out, "PYTHONPATH="+val)
}

// lldbPythonRestore is the LLDB command that gives the program the
// PYTHONPATH it would have had without lldbPythonEnv: the adapter's
// environment is the launched program's too.
func lldbPythonRestore(t Target) string {
	if _, ok := t.Env["PYTHONPATH"]; ok {
		return ""
	}
	if old := os.Getenv("PYTHONPATH"); old != "" {
		return "settings set target.env-vars " + strconv.Quote("PYTHONPATH="+old)
	}
	return "settings set target.unset-env-vars PYTHONPATH"
}
