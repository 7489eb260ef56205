package nodedap

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"
)

// Target is one debuggable target listed by an inspector's /json/list.
type Target struct {
	ID                   string `json:"id"`
	Type                 string `json:"type"`
	Title                string `json:"title"`
	URL                  string `json:"url"`
	WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
}

// ListTargets asks the inspector at host:port for its targets. A port where
// something other than an inspector listens answers an error that says so.
func ListTargets(ctx context.Context, host string, port int) ([]Target, error) {
	if host == "" {
		host = "127.0.0.1"
	}
	addr := net.JoinHostPort(host, strconv.Itoa(port))
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/json/list", nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("no Node inspector at %s: %w", addr, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("reading the inspector's target list at %s: %w", addr, err)
	}
	var ts []Target
	if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &ts) != nil {
		return nil, fmt.Errorf("port %d is in use but is not a Node inspector (GET /json/list answered %s)", port, resp.Status)
	}
	return ts, nil
}

// pickTarget returns the node target's WebSocket URL.
func pickTarget(ts []Target) (string, error) {
	for _, t := range ts {
		if t.WebSocketDebuggerURL != "" && (t.Type == "node" || t.Type == "") {
			return t.WebSocketDebuggerURL, nil
		}
	}
	if len(ts) > 0 && ts[0].WebSocketDebuggerURL != "" {
		return ts[0].WebSocketDebuggerURL, nil
	}
	return "", fmt.Errorf("the inspector lists no debuggable target (is another debugger attached?)")
}
