package nodedap

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/dap"
)

// restartWait is how long a reload waits to see whether V8 restarted the
// top frame it edited.
const restartWait = time.Second

// hotReload replaces loaded scripts with their edited files through
// Debugger.setScriptSource. An edited TypeScript (or other mapped) source
// is rebuilt with the project's compiler first, and the scripts whose
// source maps name it are replaced with what it wrote. With
// restartFrames, V8 may edit the function on top of the stack, and
// restarts it to run the new code; without, that edit is refused.
func (h *Handler) hotReload(ctx context.Context, req *dap.HotReloadRequest) (*dap.HotReloadResponse, error) {
	a := &req.Arguments
	c, err := h.client()
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	old := h.pause
	h.mu.Unlock()
	if old == nil {
		return nil, errors.New("the program is not paused")
	}
	files := a.Files
	if len(files) == 0 {
		files = h.changedSources(time.UnixMilli(a.Since))
	}
	resp := &dap.HotReloadResponse{}
	body := &resp.Body
	if len(files) == 0 {
		body.Message = "no loaded script or mapped source changed since the session started"
		return resp, nil
	}
	targets, refused, notes := h.reloadTargets(ctx, files)
	var replaced []dap.ReloadUnit
	topScript := ""
	if len(old.frames) > 0 {
		topScript = old.frames[0].Location.ScriptID
	}
	editedTop := false
	stackChanged := false
	for _, t := range targets {
		src, err := os.ReadFile(t.script.path)
		if err != nil {
			refused = append(refused, dap.ReloadUnit{Name: t.script.path, File: t.file, Reason: err.Error()})
			continue
		}
		if t.script.id == topScript && a.RestartFrames {
			h.mu.Lock()
			h.stepping = true // a restarted top frame pauses as a step
			h.mu.Unlock()
			editedTop = true
		}
		var res struct {
			Status           string            `json:"status"`
			StackChanged     bool              `json:"stackChanged"`
			ExceptionDetails *exceptionDetails `json:"exceptionDetails"`
		}
		err = c.Call(ctx, "Debugger.setScriptSource", map[string]any{"scriptId": t.script.id, "scriptSource": string(src), "allowTopFrameEditing": a.RestartFrames}, &res)
		switch {
		case err != nil:
			refused = append(refused, dap.ReloadUnit{Name: t.script.path, File: t.file, Reason: err.Error()})
		case res.Status != "" && res.Status != "Ok":
			reason := res.Status
			if res.ExceptionDetails != nil {
				reason += fmt.Sprintf(": %s (line %d)", firstLine(res.ExceptionDetails.message()), res.ExceptionDetails.LineNumber+1)
			}
			if res.Status == "BlockedByActiveFunction" && !a.RestartFrames {
				reason += "; pass restartFrames: true to replace the function on top of the stack and restart it"
			}
			refused = append(refused, dap.ReloadUnit{Name: t.script.path, File: t.file, Reason: reason})
		default:
			stackChanged = stackChanged || res.StackChanged
			h.replacedScript(t.script, string(src))
			replaced = append(replaced, dap.ReloadUnit{Name: t.script.path, File: t.file})
		}
	}
	body.Replaced, body.Refused = replaced, refused
	if editedTop {
		// V8 restarts the edited top frame itself: the program resumes
		// and pauses again at the function's start.
		restarted := h.awaitResume(ctx, old)
		h.mu.Lock()
		if !restarted {
			h.stepping = false
		}
		h.mu.Unlock()
		if restarted {
			stackChanged = true
			body.Resumed, body.RestartedFrame = true, orAnonymous(old.frames[0].FunctionName)
		}
	}
	body.StackChanged = stackChanged
	body.Message = strings.Join(notes, "; ")
	return resp, nil
}

// awaitResume reports whether the pause old ended within restartWait.
func (h *Handler) awaitResume(ctx context.Context, old *pauseState) bool {
	deadline := time.Now().Add(restartWait)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		h.mu.Lock()
		p := h.pause
		h.mu.Unlock()
		if p != old {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// reloadTarget is a loaded script to replace, and the edited file that
// made it change.
type reloadTarget struct {
	script *script
	file   string
}

// reloadTargets maps edited files to the loaded scripts to replace:
// scripts loaded from the file itself, or, for a mapped source, the
// scripts whose source maps name it, once its project is rebuilt.
func (h *Handler) reloadTargets(ctx context.Context, files []string) ([]reloadTarget, []dap.ReloadUnit, []string) {
	var targets []reloadTarget
	var refused []dap.ReloadUnit
	var notes []string
	built := map[string]error{}
	for _, f := range files {
		scripts := h.scriptsFrom(f)
		if len(scripts) > 0 {
			for _, s := range scripts {
				targets = append(targets, reloadTarget{script: s, file: f})
			}
			continue
		}
		mapped := h.scriptsMapping(f)
		if len(mapped) == 0 {
			notes = append(notes, f+" is not loaded (nothing to replace; it runs as edited when loaded)")
			continue
		}
		if needsBuild(f) {
			project, tsc := tsProject(f)
			if tsc == "" {
				refused = append(refused, dap.ReloadUnit{Name: f, File: f, Reason: "no TypeScript compiler found (node_modules/.bin/tsc of the project, or tsc on PATH)"})
				continue
			}
			err, done := built[project]
			if !done {
				err = runTSC(ctx, tsc, project)
				built[project] = err
			}
			if err != nil {
				refused = append(refused, dap.ReloadUnit{Name: f, File: f, Reason: err.Error()})
				continue
			}
		}
		for _, s := range mapped {
			targets = append(targets, reloadTarget{script: s, file: f})
		}
	}
	return targets, refused, notes
}

// scriptsFrom returns the loaded scripts of a file.
func (h *Handler) scriptsFrom(path string) []*script {
	var out []*script
	for _, s := range h.userScripts() {
		if s.path == path {
			out = append(out, s)
		}
	}
	return out
}

// scriptsMapping returns the loaded scripts whose source maps name path.
func (h *Handler) scriptsMapping(path string) []*script {
	var out []*script
	for _, s := range h.userScripts() {
		h.mu.Lock()
		sm := s.sm
		h.mu.Unlock()
		if sm != nil && sm.source(path) >= 0 {
			out = append(out, s)
		}
	}
	return out
}

// changedSources lists the loaded scripts' files, and the sources their
// maps name, modified after since.
func (h *Handler) changedSources(since time.Time) []string {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if seen[p] {
			return
		}
		seen[p] = true
		if st, err := os.Stat(p); err == nil && st.ModTime().After(since) {
			out = append(out, p)
		}
	}
	for _, s := range h.userScripts() {
		h.mu.Lock()
		sm := s.sm
		h.mu.Unlock()
		if sm != nil {
			for _, src := range sm.sources {
				if filepath.IsAbs(src) {
					add(src)
				}
			}
			continue
		}
		add(s.path)
	}
	return out
}

// replacedScript records a script's new text and re-reads its source
// map, which the rebuild may have changed.
func (h *Handler) replacedScript(s *script, text string) {
	var sm *sourceMap
	if ref := sourceMapRef(text); ref != "" {
		sm, _ = loadSourceMap(s.path, ref)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	s.source = &text
	if sm != nil {
		s.sm = sm
	}
}

// sourceMapRefRE finds a script's sourceMappingURL comment.
var sourceMapRefRE = regexp.MustCompile(`(?m)^//[#@] sourceMappingURL=(\S+)\s*$`)

func sourceMapRef(text string) string {
	m := sourceMapRefRE.FindAllStringSubmatch(text, -1)
	if len(m) == 0 {
		return ""
	}
	return m[len(m)-1][1]
}

// needsBuild reports whether a mapped source is rebuilt by tsc.
func needsBuild(path string) bool {
	for _, ext := range []string{".ts", ".tsx", ".mts", ".cts"} {
		if strings.HasSuffix(path, ext) {
			return true
		}
	}
	return false
}

// tsProject finds the tsconfig.json folder above a source, and the
// project's compiler: node_modules/.bin/tsc in that folder or above, else
// tsc on PATH.
func tsProject(src string) (project, tsc string) {
	for dir := filepath.Dir(src); ; dir = filepath.Dir(dir) {
		if project == "" {
			if _, err := os.Stat(filepath.Join(dir, "tsconfig.json")); err == nil {
				project = dir
			}
		}
		if project != "" {
			if p := filepath.Join(dir, "node_modules", ".bin", "tsc"); fileExists(p) {
				return project, p
			}
		}
		if parent := filepath.Dir(dir); parent == dir {
			break
		}
	}
	if project == "" {
		return "", ""
	}
	p, _ := exec.LookPath("tsc")
	return project, p
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// tscTimeout bounds a rebuild.
const tscTimeout = 2 * time.Minute

// runTSC rebuilds a TypeScript project, returning tsc's complaints.
func runTSC(ctx context.Context, tsc, project string) error {
	ctx, cancel := context.WithTimeout(ctx, tscTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, tsc, "-p", project)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(out.String())
		if len(msg) > 2000 {
			msg = msg[:2000] + "…"
		}
		return fmt.Errorf("tsc -p %s: %v: %s", project, err, msg)
	}
	return nil
}
