package nodedap

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	psnet "github.com/shirou/gopsutil/v4/net"
	"github.com/shirou/gopsutil/v4/process"

	godap "github.com/google/go-dap"
)

// AttachConfig are the "attach" arguments: an inspector port (with
// address), a WebSocket URL, or the pid of a running node, which is sent
// SIGUSR1 to open its inspector.
type AttachConfig struct {
	Port             int             `json:"port"`
	Address          string          `json:"address"`
	Host             string          `json:"host"`
	ProcessID        json.RawMessage `json:"processId"`
	WebSocketAddress string          `json:"websocketAddress"`
	StopOnEntry      bool            `json:"stopOnEntry"`
	SkipFiles        []string        `json:"skipFiles"`
	SourceMaps       *bool           `json:"sourceMaps"`
	// ChildProcess marks the configuration of a child session (a process
	// the launched program forked): the process is let go as soon as its
	// program ends, instead of waiting for the debugger to disconnect.
	ChildProcess bool `json:"__childProcess"`
}

// pid reads processId, given as a number or a string.
func (a *AttachConfig) pid() (int, error) {
	if len(a.ProcessID) == 0 || string(a.ProcessID) == "null" {
		return 0, nil
	}
	var n int
	if json.Unmarshal(a.ProcessID, &n) == nil {
		return n, nil
	}
	var s string
	if json.Unmarshal(a.ProcessID, &s) == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil {
			return n, nil
		}
	}
	return 0, fmt.Errorf("processId %s is not a process id", a.ProcessID)
}

type attachRequest struct {
	godap.Request
	Arguments AttachConfig `json:"arguments"`
}

func (h *Handler) attach(ctx context.Context, cfg *AttachConfig) error {
	pid, err := cfg.pid()
	if err != nil {
		return err
	}
	host := cfg.Address
	if host == "" {
		host = cfg.Host
	}
	if host == "" {
		host = "127.0.0.1"
	}
	var wsURL string
	switch {
	case cfg.WebSocketAddress != "":
		wsURL = cfg.WebSocketAddress
	case cfg.Port > 0:
		ts, err := ListTargets(ctx, host, cfg.Port)
		if err != nil {
			return err
		}
		if wsURL, err = pickTarget(ts); err != nil {
			return err
		}
	case pid > 0:
		if wsURL, err = openInspector(ctx, pid); err != nil {
			return err
		}
	default:
		return errors.New("attach needs port, websocketAddress or processId")
	}
	h.mu.Lock()
	if h.cdp != nil {
		h.mu.Unlock()
		return errors.New("this session already debugs a program")
	}
	h.capture = "console"
	h.sourceMaps = cfg.SourceMaps == nil || *cfg.SourceMaps
	h.stopOnEntry = cfg.StopOnEntry
	h.closeOnExit = cfg.ChildProcess
	h.startDone = true
	close(h.started)
	h.mu.Unlock()
	skip := cfg.SkipFiles
	if skip == nil {
		skip = defaultSkip
	}
	h.mu.Lock()
	h.skipGlobs = skip
	h.mu.Unlock()
	if err := h.connect(ctx, wsURL, skipPatterns(skip)); err != nil {
		h.mu.Lock()
		c := h.cdp
		h.mu.Unlock()
		if c != nil {
			_ = c.Close()
		}
		return fmt.Errorf("attach to %s: %w", wsURL, err)
	}
	c, err := h.client()
	if err != nil {
		return err
	}
	if pid == 0 {
		pid = listener(ctx, portOf(wsURL))
	}
	h.mu.Lock()
	h.attachedPID = pid
	h.mu.Unlock()
	if pid > 0 {
		h.event("process", godap.ProcessEventBody{Name: processName(ctx, pid), SystemProcessId: pid, IsLocalProcess: true, StartMethod: "attach"})
	}
	// A program started with --inspect-brk waits for this.
	_ = c.Call(ctx, "Runtime.runIfWaitingForDebugger", nil, nil)
	if cfg.StopOnEntry {
		return h.pauseReq(ctx)
	}
	return nil
}

// openInspector opens the inspector of a running node by pid and returns
// its WebSocket URL. An inspector that is already open is used as is;
// otherwise SIGUSR1 asks node to open one (on its --inspect-port, 9229 by
// default) and the port it actually listens on is read from the process's
// sockets.
func openInspector(ctx context.Context, pid int) (string, error) {
	p, err := process.NewProcessWithContext(ctx, int32(pid))
	if err != nil {
		return "", fmt.Errorf("no process %d: %w", pid, err)
	}
	name, _ := p.NameWithContext(ctx)
	cmdline, _ := p.CmdlineWithContext(ctx)
	if !strings.Contains(strings.ToLower(name), "node") && !strings.Contains(cmdline, "node") {
		return "", fmt.Errorf("process %d (%s) is not node", pid, name)
	}
	port := inspectPort(cmdline)
	// Probe only ports that may be the inspector's: a GET to the program's
	// own HTTP port would be a real request to it.
	before := listeningPorts(ctx, pid)
	if before[port] {
		if u := inspectorAt(ctx, port); u != "" {
			return u, nil
		}
	}
	if strings.Contains(cmdline, "--inspect") && !strings.Contains(cmdline, "--inspect-port") {
		for p := range before {
			if u := inspectorAt(ctx, p); u != "" {
				return u, nil
			}
		}
	}
	if err := syscall.Kill(pid, syscall.SIGUSR1); err != nil {
		return "", fmt.Errorf("signal node %d to open its inspector: %w", pid, err)
	}
	deadline := time.NewTimer(5 * time.Second)
	defer deadline.Stop()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			for p := range listeningPorts(ctx, pid) {
				if before[p] && p != port {
					continue
				}
				if u := inspectorAt(ctx, p); u != "" {
					return u, nil
				}
			}
		case <-deadline.C:
			if holder := listener(ctx, port); holder != 0 && holder != pid {
				return "", fmt.Errorf("node %d could not open its inspector: port %d is taken by process %d; stop that process or start node with --inspect-port=0", pid, port, holder)
			}
			return "", fmt.Errorf("node %d did not open an inspector within 5s of SIGUSR1 (its port %d may be taken, or signals may be disabled)", pid, port)
		case <-ctx.Done():
			return "", fmt.Errorf("waiting for node %d's inspector: %w", pid, ctx.Err())
		}
	}
}

// listeningPorts returns the local TCP ports pid listens on.
func listeningPorts(ctx context.Context, pid int) map[int]bool {
	out := map[int]bool{}
	conns, err := psnet.ConnectionsPidWithContext(ctx, "tcp", int32(pid))
	if err != nil {
		return out
	}
	for _, c := range conns {
		if c.Status == "LISTEN" {
			out[int(c.Laddr.Port)] = true
		}
	}
	return out
}

// inspectorAt returns the WebSocket URL of the inspector on a local port.
func inspectorAt(ctx context.Context, port int) string {
	lctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	ts, err := ListTargets(lctx, "127.0.0.1", port)
	if err != nil {
		return ""
	}
	u, err := pickTarget(ts)
	if err != nil {
		return ""
	}
	return u
}

var inspectPortRE = regexp.MustCompile(`--inspect(?:-brk|-port)?=(?:[^\s:]*:)?(\d+)`)

// inspectPort is the port SIGUSR1 opens, read from node's command line.
func inspectPort(cmdline string) int {
	if m := inspectPortRE.FindStringSubmatch(cmdline); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil {
			return n
		}
	}
	return 9229
}

// listener returns the pid listening on a local TCP port (0 if none).
func listener(ctx context.Context, port int) int {
	conns, err := psnet.ConnectionsWithContext(ctx, "tcp")
	if err != nil {
		return 0
	}
	for _, c := range conns {
		if c.Status == "LISTEN" && int(c.Laddr.Port) == port {
			return int(c.Pid)
		}
	}
	return 0
}

// processName is a process's command line (its name when unreadable).
func processName(ctx context.Context, pid int) string {
	p, err := process.NewProcessWithContext(ctx, int32(pid))
	if err != nil {
		return strconv.Itoa(pid)
	}
	if cmd, err := p.CmdlineWithContext(ctx); err == nil && cmd != "" {
		return cmd
	}
	name, _ := p.NameWithContext(ctx)
	return name
}
