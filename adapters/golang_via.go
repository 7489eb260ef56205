package adapters

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/dbg-dev/dbg/dap"
)

// goRemoteServer starts `dlv dap` on the target's loopback: a server for
// one session, which attaches to the program when dbg asks (attach, mode
// local) and, when dbg disconnects, detaches (the program runs on) and
// exits, so nothing of delve stays on the target. delve in the user's Go
// bin folder is found too.
const goRemoteServer = `for d in "$HOME/go/bin" /usr/local/go/bin; do [ -x "$d/dlv" ] && PATH=$PATH:$d; done
need dlv "install delve on the target: go install github.com/go-delve/delve/cmd/dlv@` + DelveVersion + ` (built for its OS and architecture)"
bg dlv dap --listen 127.0.0.1:0
say command "dlv dap --listen 127.0.0.1:0, attaching to $pid"
waitfor 'grep -q "listening at" "$dir/log" || ! kill -0 "$helper" 2>/dev/null' 30
port=$(sed -n 's/.*listening at: .*:\([0-9][0-9]*\).*/\1/p' "$dir/log" | head -n 1)
[ -n "$port" ] || fail "dlv did not start: $(logtail)"
say port "$port"
`

// goBuildInfoMark is in every Go executable, before its build
// information.
const goBuildInfoMark = "Go buildinf:"

// goRemote declares Go's remote attach: `dlv dap` on the target, and
// delve's own command for a mapping added while attached.
func goRemote() *Remote {
	return &Remote{Server: goRemoteServer, Marks: []string{goBuildInfoMark},
		LiveMapping: func(m PathMapping) string {
			return "dlv config substitutePath " + strconv.Quote(m.LocalRoot) + " " + strconv.Quote(m.RemoteRoot)
		}}
}

// startRemote connects to the `dlv dap` started on the target.
func (Go) startRemote(ctx context.Context, t Target) (*Endpoint, error) {
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	c, err := dap.Dial(dctx, t.Remote.Addr)
	if err != nil {
		return nil, fmt.Errorf("connect to dlv on the target (through %s): %w", t.Remote.Addr, err)
	}
	px := dap.NewProxy(c, goPauseLayer)
	return &Endpoint{Conn: px.Client(), Cleanup: px.Stop}, nil
}

// goSubstitutePath is delve's substitutePath of the path mappings: from
// the local path to the remote one.
func goSubstitutePath(maps []PathMapping) []map[string]string {
	out := make([]map[string]string, 0, len(maps))
	for _, m := range maps {
		out = append(out, map[string]string{"from": m.LocalRoot, "to": m.RemoteRoot})
	}
	return out
}
