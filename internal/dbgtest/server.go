package dbgtest

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Server says how StartServer starts `dbg mcp`.
type Server struct {
	Binary string             // the dbg binary
	Args   []string           // after "mcp"
	Env    []string           // added to the test's environment
	Client *mcp.ClientOptions // nil: the defaults
	Dial   time.Duration      // how long connecting may take; 0: 30 s
}

// StartServer starts `dbg mcp` as a child process, with a private state
// folder (DBG_STATE_DIR, under t.TempDir) and no idle adapters
// (DBG_WARM_ADAPTERS=0: tests count the server's processes) unless s.Env
// says otherwise, and connects an MCP client to it. The session is
// closed, and the server ends, when the test does. The server's stderr
// is the test's.
func StartServer(t testing.TB, s Server) (*mcp.ClientSession, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(s.Binary, append([]string{"mcp"}, s.Args...)...)
	cmd.Env = append(os.Environ(), "DBG_STATE_DIR="+t.TempDir(), "DBG_WARM_ADAPTERS=0")
	cmd.Env = append(cmd.Env, s.Env...)
	cmd.Stderr = os.Stderr
	dial := s.Dial
	if dial == 0 {
		dial = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), dial)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "dbg-e2e", Version: "1"}, s.Client)
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect to dbg mcp: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs, cmd
}
