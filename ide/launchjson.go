package ide

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/ide/cfgfile"
)

func readLaunchFile(path, project string, getenv func(string) string) ([]RunConfiguration, error) {
	b, err := readRegular(path, maxConfigFile)
	if err != nil {
		return nil, err
	}
	return parseLaunchJSON(b, project, getenv)
}

// parseLaunchJSON reads a VS Code launch.json (JSONC): its
// configurations, with ${workspaceFolder}, ${env:X} and friends
// substituted, and its compounds.
func parseLaunchJSON(b []byte, project string, getenv func(string) string) ([]RunConfiguration, error) {
	var doc struct {
		Configurations []map[string]any `json:"configurations"`
		Compounds      []struct {
			Name           string `json:"name"`
			Configurations []any  `json:"configurations"`
			StopAll        bool   `json:"stopAll"`
		} `json:"compounds"`
	}
	if err := cfgfile.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	vars := launchVars{project: project, getenv: getenv}
	// What the answers show: ${env:X} as written, since its value is
	// dbg's own environment, which may hold credentials.
	shownVars := launchVars{project: project, getenv: func(name string) string { return "${env:" + name + "}" }}
	langs := languages()
	var out []RunConfiguration
	for _, raw := range doc.Configurations {
		if raw == nil {
			continue
		}
		entry, _ := vars.subst(raw).(map[string]any)
		rc := launchConfig(langs, entry, project)
		if rc.Name == "" {
			continue
		}
		if shownEntry, _ := shownVars.subst(raw).(map[string]any); usesEnv(raw) {
			shown := launchConfig(langs, shownEntry, project)
			rc.shown = &shown
		}
		out = append(out, rc)
	}
	for _, c := range doc.Compounds {
		if c.Name == "" {
			continue
		}
		rc := RunConfiguration{Name: c.Name, TypeID: "compound", TypeName: "Compound", Kind: KindCompound, Source: sourceLaunch,
			StopAll: c.StopAll, Unsupported: "a compound starts its members; restart them by name (debug_run_configuration debugs them together)"}
		for _, m := range c.Configurations {
			switch v := m.(type) {
			case string:
				rc.Members = append(rc.Members, v)
			case map[string]any:
				if n, ok := v["name"].(string); ok {
					rc.Members = append(rc.Members, n)
				}
			}
		}
		out = append(out, rc)
	}
	return out, nil
}

// launchVars substitutes VS Code variables.
type launchVars struct {
	project string
	getenv  func(string) string
}

var launchVarRE = regexp.MustCompile(`\$\{([^}]+)\}`)

func (v launchVars) expand(s string) string {
	if !strings.Contains(s, "${") {
		return s
	}
	return launchVarRE.ReplaceAllStringFunc(s, func(m string) string {
		name := m[2 : len(m)-1]
		switch {
		case name == "workspaceFolder" || name == "workspaceRoot" || name == "cwd":
			return v.project
		case name == "workspaceFolderBasename":
			return filepath.Base(v.project)
		case name == "userHome":
			h, _ := os.UserHomeDir()
			return h
		case name == "pathSeparator" || name == "/":
			return string(os.PathSeparator)
		case strings.HasPrefix(name, "env:"):
			return v.getenv(strings.TrimPrefix(name, "env:"))
		}
		return m // ${file}, ${input:x}...: only an editor knows
	})
}

// usesEnv reports whether a launch.json value names ${env:X} anywhere.
func usesEnv(x any) bool {
	switch t := x.(type) {
	case string:
		return strings.Contains(t, "${env:")
	case []any:
		for _, e := range t {
			if usesEnv(e) {
				return true
			}
		}
	case map[string]any:
		for _, e := range t {
			if usesEnv(e) {
				return true
			}
		}
	}
	return false
}

func (v launchVars) subst(x any) any {
	switch t := x.(type) {
	case string:
		return v.expand(t)
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = v.subst(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = v.subst(e)
		}
		return out
	}
	return x
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

// strs reads an array of strings, or a string split into arguments.
func strs(m map[string]any, k string) []string {
	switch t := m[k].(type) {
	case string:
		return splitArgs(t)
	case []any:
		var out []string
		for _, e := range t {
			if s, ok := e.(string); ok {
				out = append(out, s)
			} else if e != nil {
				out = append(out, fmt.Sprint(e))
			}
		}
		return out
	}
	return nil
}

// launchKinds are the kinds of launch.json entries dbg reads, each with a
// launch type of the adapter that debugs it, and the kind's name. An
// entry of any type that adapter declares (adapters.Traits.LaunchTypes:
// "node2" is the Node adapter's too) is read as the kind.
var launchKinds = []struct{ kind, typ, name string }{
	{KindNode, "pwa-node", "Node.js"},
	{KindPython, "debugpy", "Python"},
	{KindGo, "go", "Go"},
	{KindApplication, "java", "Java"},
}

// kindTypes are the launch types of the adapters that debug the kinds of
// configuration dbg reads from the IDEs' own files.
var kindTypes = map[string]string{KindGoTest: "go", KindSpringBoot: "java", KindRemoteJVM: "java"}

// launchTypeOf is the launch type whose adapter debugs a kind ("" when
// none does).
func launchTypeOf(kind string) string {
	for _, k := range launchKinds {
		if k.kind == kind {
			return k.typ
		}
	}
	return kindTypes[kind]
}

// languages are the declarations of every language dbg knows; they say
// which adapter debugs which launch.json type. Reading a configuration
// needs no adapter to be installed or registered.
func languages() *adapters.Registry { return adapters.Default() }

// launchKind is the kind of launch.json entries of type typ, and its name.
func launchKind(langs *adapters.Registry, typ string) (kind, name string, ok bool) {
	a, ok := langs.ForLaunchType(typ)
	if !ok {
		return "", "", false
	}
	for _, k := range launchKinds {
		if b, ok := langs.ForLaunchType(k.typ); ok && b.Language() == a.Language() {
			return k.kind, k.name, true
		}
	}
	return "", "", false
}

func launchConfig(langs *adapters.Registry, e map[string]any, project string) RunConfiguration {
	typ := str(e, "type")
	rc := RunConfiguration{Name: str(e, "name"), TypeID: typ, TypeName: typ, Source: sourceLaunch, Kind: KindOther,
		Request: str(e, "request"), Launch: e}
	if kind, name, ok := launchKind(langs, typ); ok {
		rc.Kind, rc.TypeName = kind, name
	}
	rc.Cwd = absIn(project, str(e, "cwd"))
	if rc.Cwd == "" {
		rc.Cwd = project
	}
	if p := str(e, "envFile"); p != "" {
		if !inProject(project, absIn(project, p)) {
			rc.warning = fmt.Sprintf("%q: envFile %s is outside the project and was not read", rc.Name, p)
		} else if vals, err := readEnvFile(absIn(project, p)); err == nil && len(vals) > 0 {
			rc.Env = vals
		}
	}
	if env, ok := e["env"].(map[string]any); ok && len(env) > 0 {
		if rc.Env == nil {
			rc.Env = map[string]string{}
		}
		for k, v := range env {
			if v != nil {
				rc.Env[k] = fmt.Sprint(v)
			}
		}
	}
	rc.Args = strs(e, "args")
	if rc.Request != "launch" {
		rc.Unsupported = fmt.Sprintf("a %q entry attaches to a running program; use debug_run_configuration", rc.Request)
		return rc
	}
	switch rc.Kind {
	case KindNode:
		rc.Program = absIn(project, str(e, "program"))
		rc.VMArgs = strs(e, "runtimeArgs")
		runtime := str(e, "runtimeExecutable")
		if rc.Program == "" && runtime != "" { // "runtimeExecutable": "npm", "runtimeArgs": ["run", "dev"]
			rc.Command = append(append([]string{runtime}, rc.VMArgs...), rc.Args...)
			return rc
		}
		nodeCommand(&rc, runtime)
	case KindPython:
		interp := str(e, "python")
		if interp == "" {
			interp = str(e, "pythonPath")
		}
		module := str(e, "module")
		if module != "" {
			rc.Program = module
		} else {
			rc.Program = absIn(project, str(e, "program"))
		}
		pythonCommand(&rc, project, interp, module != "")
	case KindGo:
		rc.Program = absIn(project, str(e, "program"))
		rc.VMArgs = strs(e, "buildFlags")
		switch str(e, "mode") {
		case "test":
			rc.Kind, rc.TypeName = KindGoTest, "Go Test"
			goCommand(&rc, "")
		case "exec":
			if rc.Program == "" {
				rc.Unsupported = "the configuration names no program"
				return rc
			}
			rc.Command = append([]string{rc.Program}, rc.Args...)
		case "remote", "core", "replay":
			rc.Unsupported = fmt.Sprintf("mode %q needs the debugger", str(e, "mode"))
		default:
			goCommand(&rc, "")
		}
	case KindApplication:
		rc.Program = str(e, "mainClass")
		rc.VMArgs = strs(e, "vmArgs")
		cp := strs(e, "classPaths")
		if len(cp) == 0 {
			cp = []string{javaClasspath(project, filepath.Base(project))}
		}
		if rc.Program == "" {
			rc.Unsupported = "the configuration names no mainClass"
			return rc
		}
		rc.classpath = strings.Join(cp, string(os.PathListSeparator))
		rc.Command = append(append([]string{"java"}, rc.VMArgs...), "-cp", rc.classpath, rc.Program)
		rc.Command = append(rc.Command, rc.Args...)
	default:
		rc.Unsupported = fmt.Sprintf("dbg cannot run launch configurations of type %q", typ)
	}
	return rc
}

// absIn makes p absolute relative to dir ("" stays "").
func absIn(dir, p string) string {
	if p == "" {
		return ""
	}
	p = filepath.FromSlash(p)
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return filepath.Clean(p)
}

// inProject reports whether path, its links resolved, lies in the
// project: a launch.json from a repository the user did not write must
// not make dbg read files elsewhere (~/.aws/credentials) into answers.
func inProject(project, path string) bool {
	root, err := filepath.EvalSymlinks(project)
	if err != nil {
		return false
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		real = filepath.Clean(path) // a file not there yet is read as not there
	}
	rel, err := filepath.Rel(root, real)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
