package debugtools

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/toolkit"
)

// JVMOut is one entry of list_attachable_jvms.
type JVMOut struct {
	PID               string  `json:"pid"`
	DisplayName       string  `json:"displayName"`
	AttachName        string  `json:"attachName"`
	ConfigurationName *string `json:"configurationName"`
	ModuleName        *string `json:"moduleName"`
	ProjectName       *string `json:"projectName"`
	Attachable        bool    `json:"attachable"`
	Reason            string  `json:"reason,omitempty"` // why not attachable
	Connected         bool    `json:"connected"`
}

type jvmsOut struct {
	Count int      `json:"count"`
	JVMs  []JVMOut `json:"jvms"`
}

func (t *jvmTools) listJVMs(ctx context.Context, in Common) (jvmsOut, error) {
	if err := knownSession(t.m, in.SessionID); err != nil {
		return jvmsOut{}, err
	}
	project, _ := t.m.ResolveProject(in.ProjectPath)
	jvms, err := t.svc.JVMs(ctx)
	if err != nil {
		return jvmsOut{}, toolkit.NewError(toolkit.CodeInternal, "cannot list processes: "+err.Error(), "").Wrap(err)
	}
	out := jvmsOut{JVMs: []JVMOut{}}
	for i := range jvms {
		j := &jvms[i]
		o := JVMOut{PID: strconv.Itoa(j.PID), DisplayName: j.DisplayName, AttachName: j.AttachName, Attachable: true,
			Connected: t.svc.ConnectionByPID(j.PID) != nil}
		if err := CheckAttachable(j); err != nil {
			o.Attachable, o.Reason = false, err.Error()
		}
		if project != "" {
			o.ConfigurationName, o.ModuleName, o.ProjectName = t.link(project, j.MainClass)
		}
		out.JVMs = append(out.JVMs, o)
	}
	out.Count = len(out.JVMs)
	return out, nil
}

var mainClassOpt = regexp.MustCompile(`(?s)<configuration\b[^>]*\bname="([^"]+)"[^>]*>.*?<option name="MAIN_CLASS_NAME" value="([^"]+)"`)

// javaSourceDir is the name of the folder that holds a module's Java
// sources (Maven's and Gradle's src/main/java).
const javaSourceDir = "java"

// linkProject ties a main class to the project: the run configuration
// naming it, the module whose sources hold it, and the project's name.
func linkProject(project, mainClass string) (config, module, proj *string) {
	if mainClass == "" || strings.HasSuffix(mainClass, ".jar") {
		return nil, nil, nil
	}
	rel := filepath.FromSlash(strings.ReplaceAll(mainClass, ".", "/")) + ".java"
	visited := 0
	_ = filepath.WalkDir(project, func(p string, d os.DirEntry, err error) error {
		if err != nil || module != nil {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			return nil
		}
		if visited++; visited > 4000 {
			return filepath.SkipAll
		}
		switch d.Name() {
		case ".git", "node_modules", "build", "target", "out", ".gradle", ".idea":
			return filepath.SkipDir
		}
		if d.Name() == javaSourceDir {
			if _, err := os.Stat(filepath.Join(p, rel)); err == nil {
				modDir := p
				if strings.HasSuffix(filepath.ToSlash(p), "src/main/java") {
					modDir = filepath.Dir(filepath.Dir(filepath.Dir(p)))
				}
				name := filepath.Base(modDir)
				module = &name
				return filepath.SkipAll
			}
		}
		return nil
	})
	var files []string
	for _, g := range []string{".idea/runConfigurations/*.xml", ".run/*.run.xml", ".idea/workspace.xml"} {
		m, _ := filepath.Glob(filepath.Join(project, g))
		files = append(files, m...)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, mm := range mainClassOpt.FindAllStringSubmatch(string(b), -1) {
			if mm[2] == mainClass {
				name := mm[1]
				config = &name
				break
			}
		}
		if config != nil {
			break
		}
	}
	if module != nil || config != nil {
		name := filepath.Base(project)
		proj = &name
	}
	return config, module, proj
}

type attachIn struct {
	PID                     flexString  `json:"pid"`
	AttachName              string      `json:"attachName,omitempty" jsonschema:"default: the main class"`
	WaitForConnectionMillis toolkit.Int `json:"waitForConnectionMillis,omitempty" jsonschema:"0: only trigger the attach"`
	Common
}

// AttachOut is the answer of attach_local_jvm.
type AttachOut struct {
	Success      bool    `json:"success"`
	PID          string  `json:"pid"`
	AttachName   *string `json:"attachName"`
	Message      string  `json:"message"`
	ConnectionID *string `json:"connectionId"`
	Host         *string `json:"host"`
	Port         *int    `json:"port"`
	HTTPPort     *int    `json:"httpPort"`
	Hint         string  `json:"hint,omitempty"` // the next call
}

func (t *jvmTools) attach(ctx context.Context, in attachIn) (AttachOut, error) {
	if err := knownSession(t.m, in.SessionID); err != nil {
		return AttachOut{}, err
	}
	if in.PID == "" && in.SessionID != "" {
		spid, err := t.sessionPID(in.SessionID)
		if err != nil {
			return AttachOut{}, err
		}
		in.PID = flexString(strconv.Itoa(spid))
	}
	pid, err := strconv.Atoi(string(in.PID))
	if err != nil || pid <= 0 {
		return AttachOut{}, toolkit.NewError(toolkit.CodeInvalidArgument, "pid must be a process id, got "+strconv.Quote(string(in.PID)),
			"call list_attachable_jvms and pass one of its pids")
	}
	wait := time.Duration(in.WaitForConnectionMillis) * time.Millisecond
	res, err := t.svc.Attach(ctx, pid, in.AttachName, wait)
	if err != nil {
		te := attachError(pid, err)
		out := AttachOut{Success: false, PID: strconv.Itoa(pid), Message: te.Message}
		if in.AttachName != "" {
			out.AttachName = &in.AttachName
		}
		return out, te.KeepData()
	}
	name := res.AttachName
	out := AttachOut{Success: true, PID: strconv.Itoa(pid), AttachName: &name, Message: res.Message}
	if c := res.Conn; c != nil {
		// What an agent does next: attach_local_jvm is the JVM tool a
		// project lists first (Lead).
		out.Hint = "invoke_java_method with this connectionId calls a method in it"
		id, host, port := c.ID, c.Host, c.Port
		out.ConnectionID, out.Host, out.Port = &id, &host, &port
		if c.HTTPPort > 0 {
			hp := c.HTTPPort
			out.HTTPPort = &hp
		}
	}
	return out, nil
}
