package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A running `dbg serve` is the daemon of its project: it records its
// address in the state directory, and CLI commands of that project talk to
// it, so a shell and an MCP client see the same sessions.

type daemonInfo struct {
	Project string `json:"project"`
	Addr    string `json:"addr"`
	PID     int    `json:"pid"`
	Start   string `json:"start"` // the daemon's start time, so a reused pid is not trusted
	Exe     string `json:"exe"`
}

func daemonPath(stateDir, project string) string {
	sum := sha256.Sum256([]byte(project))
	return filepath.Join(stateDir, "daemons", hex.EncodeToString(sum[:8])+".json")
}

// announceDaemon records a serving daemon; the returned function removes
// the record.
func announceDaemon(stateDir, project, addr string) (func(), error) {
	path := daemonPath(stateDir, project)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	exe, _ := os.Executable()
	b, _ := json.Marshal(daemonInfo{Project: project, Addr: addr, PID: os.Getpid(), Start: procStart(os.Getpid()), Exe: exe})
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, path); err != nil {
		return nil, err
	}
	return func() { _ = os.Remove(path) }, nil
}

// findDaemon returns the live daemon of a project.
func findDaemon(stateDir, project string) (daemonInfo, bool) {
	b, err := os.ReadFile(daemonPath(stateDir, project))
	if err != nil {
		return daemonInfo{}, false
	}
	var d daemonInfo
	if json.Unmarshal(b, &d) != nil || d.Project != project || d.PID <= 0 {
		return daemonInfo{}, false
	}
	// The token goes only to the very process that wrote the record.
	if d.Start == "" || procStart(d.PID) != d.Start {
		return daemonInfo{}, false
	}
	if exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", d.PID)); err != nil || exe != d.Exe {
		return daemonInfo{}, false
	}
	return d, true
}

// procStart reads a process's start time (field 22 of /proc/PID/stat).
func procStart(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return ""
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return ""
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 {
		return ""
	}
	return f[19]
}

// connectDaemon opens an MCP client session to a project's daemon.
func connectDaemon(ctx context.Context, stateDir, project string) (*mcp.ClientSession, bool) {
	d, ok := findDaemon(stateDir, project)
	if !ok {
		return nil, false
	}
	token, err := projectToken(stateDir, project, false)
	if err != nil {
		return nil, false
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	hc := &http.Client{Transport: bearerTransport{token: token, base: http.DefaultTransport}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "dbg-cli", Version: version}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: "http://" + d.Addr + "/mcp", HTTPClient: hc, MaxRetries: -1}, nil)
	if err != nil {
		return nil, false
	}
	return cs, true
}

// bearerTransport adds the daemon's token to every request.
type bearerTransport struct {
	token string
	base  http.RoundTripper
}

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}
