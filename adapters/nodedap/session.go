package nodedap

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	godap "github.com/google/go-dap"
)

// defaultSkip keeps node's own code out of stepping and stack traces.
var defaultSkip = []string{"<node_internals>/**"}

// skipPatterns turns skipFiles globs into the inspector's blackbox regular
// expressions (matched against script URLs).
func skipPatterns(globs []string) []string {
	var out []string
	for _, g := range globs {
		if strings.HasPrefix(g, "<node_internals>") {
			out = append(out, "^node:")
			continue
		}
		var b strings.Builder
		for i := 0; i < len(g); i++ {
			switch {
			case strings.HasPrefix(g[i:], "**/"):
				b.WriteString("(?:.*/)?")
				i += 2
			case strings.HasPrefix(g[i:], "**"):
				b.WriteString(".*")
				i++
			case g[i] == '*':
				b.WriteString("[^/]*")
			case g[i] == '?':
				b.WriteString("[^/]")
			default:
				b.WriteString(regexp.QuoteMeta(g[i : i+1]))
			}
		}
		out = append(out, b.String()+"$")
	}
	return out
}

type launchRequest struct {
	godap.Request
	Arguments LaunchConfig `json:"arguments"`
}

func (h *Handler) launch(ctx context.Context, cfg *LaunchConfig) error {
	h.mu.Lock()
	if h.cdp != nil {
		h.mu.Unlock()
		return errors.New("this session already debugs a program")
	}
	h.stopOnEntry = cfg.StopOnEntry
	h.workerExceptions = cfg.ExceptionThreads == "workers"
	h.sourceMaps = cfg.SourceMaps == nil || *cfg.SourceMaps
	h.noChildren = !cfg.followsChildren()
	if cfg.OutputCapture == "console" {
		h.capture = "console"
	}
	capture := h.capture
	h.mu.Unlock()
	if err := resolveProgram(cfg); err != nil {
		return err
	}
	cmd, err := nodeCommand(cfg)
	if err != nil {
		return err
	}
	np, err := startNode(ctx, cmd, func(stream, line string) {
		switch {
		case stream == "inspector":
			go h.onChildInspector(line)
		case capture == "std":
			h.output(stream, line+"\n")
		}
	})
	if err != nil {
		return err
	}
	skip := cfg.SkipFiles
	if skip == nil {
		skip = defaultSkip
	}
	h.mu.Lock()
	h.proc = np
	h.skipGlobs = skip
	h.mu.Unlock()
	fail := func(err error) error {
		h.mu.Lock()
		c := h.cdp
		h.mu.Unlock()
		if c != nil {
			_ = c.Close()
		}
		np.proc.Kill()
		return err
	}
	if err := h.connect(ctx, np.wsURL, skipPatterns(skip)); err != nil {
		return fail(fmt.Errorf("connect to node's inspector: %w", err))
	}
	c, err := h.client()
	if err != nil {
		return fail(err)
	}
	if err := c.Call(ctx, "Runtime.runIfWaitingForDebugger", nil, nil); err != nil {
		return fail(err)
	}
	select {
	case <-h.started:
	case <-ctx.Done():
		return fail(fmt.Errorf("node did not start %s: %w", cfg.Program, ctx.Err()))
	}
	h.mu.Lock()
	startErr := h.startErr
	h.mu.Unlock()
	if startErr != nil {
		return fail(errors.New(withoutInternalFrames(startErr.Error())))
	}
	h.mu.Lock()
	if h.childURLs == nil {
		h.childURLs = map[string]bool{}
	}
	h.childURLs[np.wsURL] = true
	h.mu.Unlock()
	go h.watchChildren(np.proc.Pid(), np.wsURL, np.proc.Exited())
	h.event("process", godap.ProcessEventBody{Name: cfg.Program, SystemProcessId: np.proc.Pid(), IsLocalProcess: true, StartMethod: "launch"})
	return nil
}

// noWaitExpr turns --inspect-brk in process.execArgv and in the
// environment's NODE_OPTIONS into --inspect, so that the node processes
// the program starts from then on (a fork inherits execArgv, a spawn the
// environment) open an inspector without waiting for a debugger.
const noWaitExpr = `process.execArgv = process.execArgv.map((a) => (/^--inspect-brk(=|$)/.test(a) ? "--inspect=127.0.0.1:0" : a)), ` +
	`process.env.NODE_OPTIONS && (process.env.NODE_OPTIONS = process.env.NODE_OPTIONS.replace(/--inspect-brk(=\S*)?/g, "--inspect=127.0.0.1:0")), undefined`

// withoutInternalFrames drops the "at node:internal/..." lines of a stack.
func withoutInternalFrames(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "at ") && strings.Contains(l, "node:internal/") {
			continue
		}
		keep = append(keep, l)
	}
	return strings.TrimSpace(strings.Join(keep, "\n"))
}
