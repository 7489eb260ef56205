package ide

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Sources of run configurations, as reported in RunConfiguration.Source
// (the path of the file, relative to the project, with forward slashes).
const (
	sourceIdeaDir   = ".idea/runConfigurations"
	sourceRunDir    = ".run"
	sourceWorkspace = ".idea/workspace.xml"
	sourceLaunch    = ".vscode/launch.json"
)

// Kinds of run configuration, the portable part of TypeID that decides
// how a configuration runs and which debug adapter it maps to.
const (
	KindApplication = "application" // a Java main class
	KindSpringBoot  = "springBoot"
	KindJUnit       = "junit"
	KindGradle      = "gradle"
	KindMaven       = "maven"
	KindGo          = "go"
	KindGoTest      = "goTest"
	KindPython      = "python"
	KindNode        = "node"
	KindNpm         = "npm"
	KindShell       = "shell"
	KindRemoteJVM   = "remoteJvm" // attach to a JDWP port
	KindCompound    = "compound"
	KindOther       = "other"
)

// RunConfiguration is one saved run configuration of a project, with the
// command line dbg runs for it.
//
// Command is empty when dbg cannot run the configuration by itself
// (an attach entry, a compound, an unknown type); Unsupported then says
// why. Compounds list their members in Members.
type RunConfiguration struct {
	Name     string `json:"name"`
	TypeID   string `json:"typeId"`
	TypeName string `json:"typeName"`
	Source   string `json:"source"`
	Kind     string `json:"kind"`

	Command []string          `json:"command,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	Env     map[string]string `json:"env,omitempty"`

	// Program is what the configuration runs: a main class, a script, a
	// Go package or directory, a test class.
	Program string `json:"program,omitempty"`
	// Args are the program's own arguments; VMArgs the runtime's
	// (JVM options, go build flags, node runtime arguments).
	Args   []string `json:"args,omitempty"`
	VMArgs []string `json:"vmArgs,omitempty"`
	Module string   `json:"module,omitempty"`

	// Request is "launch" or "attach" for launch.json entries.
	Request string `json:"request,omitempty"`
	// Members are the configurations a compound starts; StopAll (VS
	// Code's compounds) says that ending one of its sessions ends them
	// all.
	Members []string `json:"members,omitempty"`
	StopAll bool     `json:"stopAll,omitempty"`
	// Launch is the launch.json entry after variable substitution.
	Launch map[string]any `json:"-"`

	Unsupported string `json:"unsupported,omitempty"`

	shown       *RunConfiguration // what answers show, when it differs (launch.json's ${env:X} unexpanded)
	warning     string            // why part of the configuration was not read
	classpath   string            // Java: the classpath of Command
	pythonMod   bool              // Python: Program is a module name
	testPattern string            // Go test: the -run pattern
	interpreter string            // Python, Node: the runtime, when the configuration names one
}

// Runnable reports whether dbg can start the configuration as a process.
func (c *RunConfiguration) Runnable() bool { return len(c.Command) > 0 }

// key identifies a configuration across loads.
func (c *RunConfiguration) key() string { return c.Source + "\x00" + c.Name }

// LoadResult is what LoadRunConfigurations found: the configurations in
// a stable order (by source, then as written) and the files that could
// not be read, which never hide the others.
type LoadResult struct {
	Configurations []RunConfiguration `json:"configurations"`
	Warnings       []string           `json:"warnings,omitempty"`

	extraFiles []string // other files read (envFile), for cache invalidation
}

// LoadRunConfigurations reads every run configuration of the project in
// dir: .idea/runConfigurations/*.xml, .run/*.run.xml, the RunManager of
// .idea/workspace.xml (without temporary ones and templates) and
// .vscode/launch.json. getenv resolves ${env:X} (nil = os.Getenv).
func LoadRunConfigurations(dir string, getenv func(string) string) LoadResult {
	if getenv == nil {
		getenv = os.Getenv
	}
	mx := newMacros(dir)
	var res LoadResult
	add := func(src string, cfgs []RunConfiguration, err error) {
		if err != nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: %v", src, err))
		}
		res.Configurations = append(res.Configurations, cfgs...)
	}
	for _, f := range globSorted(filepath.Join(dir, ".idea", "runConfigurations"), ".xml") {
		src := sourceIdeaDir + "/" + filepath.Base(f)
		cfgs, err := readIdeaFile(f, src, mx, false)
		add(src, cfgs, err)
	}
	for _, f := range globSorted(filepath.Join(dir, ".run"), ".run.xml") {
		src := sourceRunDir + "/" + filepath.Base(f)
		cfgs, err := readIdeaFile(f, src, mx, false)
		add(src, cfgs, err)
	}
	if f := filepath.Join(dir, ".idea", "workspace.xml"); fileExists(f) {
		cfgs, err := readIdeaFile(f, sourceWorkspace, mx, true)
		add(sourceWorkspace, cfgs, err)
	}
	if f := filepath.Join(dir, ".vscode", "launch.json"); fileExists(f) {
		cfgs, err := readLaunchFile(f, dir, getenv)
		add(sourceLaunch, cfgs, err)
		for _, c := range cfgs {
			if p := str(c.Launch, "envFile"); p != "" {
				res.extraFiles = append(res.extraFiles, absIn(dir, p))
			}
			if c.warning != "" {
				res.Warnings = append(res.Warnings, sourceLaunch+": "+c.warning)
			}
		}
	}
	return res
}

// runConfigFiles lists the files LoadRunConfigurations reads, for cache
// invalidation.
func runConfigFiles(dir string) []string {
	files := []string{
		filepath.Join(dir, ".idea", "runConfigurations"),
		filepath.Join(dir, ".run"),
		filepath.Join(dir, ".idea", "workspace.xml"),
		filepath.Join(dir, ".idea", "modules.xml"),
		filepath.Join(dir, ".vscode", "launch.json"),
	}
	files = append(files, globSorted(filepath.Join(dir, ".idea", "runConfigurations"), ".xml")...)
	files = append(files, globSorted(filepath.Join(dir, ".run"), ".run.xml")...)
	return files
}

func globSorted(dir, suffix string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() && strings.HasSuffix(e.Name(), suffix) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil || !errors.Is(err, fs.ErrNotExist)
}

// FindRunConfiguration picks the configuration named name (exactly).
// source, when not empty, narrows the choice to one source file. It
// returns errNotFound or an *AmbiguousError.
func FindRunConfiguration(cfgs []RunConfiguration, name, source string) (RunConfiguration, error) {
	var hits []RunConfiguration
	for _, c := range cfgs {
		if c.Name == name && (source == "" || c.Source == source) {
			hits = append(hits, c)
		}
	}
	switch len(hits) {
	case 0:
		return RunConfiguration{}, errNotFound
	case 1:
		return hits[0], nil
	}
	amb := &AmbiguousError{Name: name}
	for _, h := range hits {
		amb.Sources = append(amb.Sources, h.Source)
	}
	return RunConfiguration{}, amb
}

var errNotFound = errors.New("no run configuration of that name")

// AmbiguousError says several configurations share a name.
type AmbiguousError struct {
	Name    string
	Sources []string
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("%d run configurations are named %q (in %s)", len(e.Sources), e.Name, strings.Join(e.Sources, ", "))
}

// Names lists configuration names in order, without duplicates.
func Names(cfgs []RunConfiguration) []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range cfgs {
		if !seen[c.Name] {
			seen[c.Name] = true
			out = append(out, c.Name)
		}
	}
	return out
}
