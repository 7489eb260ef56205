// Package daemon records a running `dbg serve` so the CLI commands of its
// project find it: a shell and an MCP client then see the same sessions.
//
// A serving process calls [Announce] with its address; the record is a
// 0600 JSON file in the state directory, one per project. [Find] trusts a
// record only when this user wrote it and nobody else can change it, and
// only while the process that wrote it runs: same pid, same start time,
// same executable, so a reused pid never receives the token.
// [Connect] opens an MCP client session to the project's daemon with the
// project's bearer token.
package daemon

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/proc"

	"github.com/dbg-dev/dbg/cmd/internal/httpguard"
	"github.com/dbg-dev/dbg/safefs"
)

// Record is what a serving daemon writes about itself.
type Record struct {
	Project string `json:"project"`
	Addr    string `json:"addr"`
	PID     int    `json:"pid"`
	Start   string `json:"start"` // the daemon's start time, so a reused pid is not trusted
	Exe     string `json:"exe"`
}

// Path is the record file of project under stateDir.
func Path(stateDir, project string) string {
	sum := sha256.Sum256([]byte(project))
	return filepath.Join(stateDir, "daemons", hex.EncodeToString(sum[:8])+".json")
}

// Announce records this process as the daemon of project, serving on
// addr. The returned function removes the record.
func Announce(stateDir, project, addr string) (func(), error) {
	path := Path(stateDir, project)
	exe, _ := os.Executable()
	b, _ := json.Marshal(Record{Project: project, Addr: addr, PID: os.Getpid(), Start: proc.StartTime(os.Getpid()), Exe: exe})
	if err := safefs.WriteFile(path, b, 0o600); err != nil {
		return nil, err
	}
	return func() { _ = os.Remove(path) }, nil
}

// Find returns the live daemon of project.
func Find(stateDir, project string) (Record, bool) {
	b, err := safefs.ReadPrivate(Path(stateDir, project), 64<<10)
	if err != nil {
		return Record{}, false
	}
	var d Record
	if json.Unmarshal(b, &d) != nil || d.Project != project || d.PID <= 0 {
		return Record{}, false
	}
	// The token goes only to the very process that wrote the record.
	if d.Start == "" || proc.StartTime(d.PID) != d.Start {
		return Record{}, false
	}
	if exe, err := proc.Exe(d.PID); err != nil || exe != d.Exe {
		return Record{}, false
	}
	return d, true
}

// Connect opens an MCP client session, named by impl, to the live daemon
// of project. It reports false when none runs or it does not answer
// within five seconds.
func Connect(ctx context.Context, stateDir, project string, impl *mcp.Implementation) (*mcp.ClientSession, bool) {
	return ConnectWith(ctx, stateDir, project, impl, nil)
}

// ConnectWith is Connect with a client of opts (nil: the defaults).
func ConnectWith(ctx context.Context, stateDir, project string, impl *mcp.Implementation, opts *mcp.ClientOptions) (*mcp.ClientSession, bool) {
	d, ok := Find(stateDir, project)
	if !ok {
		return nil, false
	}
	token, err := httpguard.ReadToken(stateDir, project)
	if err != nil {
		return nil, false
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	hc := &http.Client{Transport: httpguard.BearerTransport{Token: token}}
	cs, err := mcp.NewClient(impl, opts).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: "http://" + d.Addr + "/mcp", HTTPClient: hc, MaxRetries: -1}, nil)
	if err != nil {
		return nil, false
	}
	return cs, true
}
