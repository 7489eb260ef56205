package toolclient

import (
	"context"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// progressRoutes hands the progress notifications of a client's calls to
// the progress receiver of each call's context (toolkit.WithProgress: the
// CLI's progress line), whether the tools run in a daemon or in
// process. It is safe for concurrent use.
type progressRoutes struct {
	mu   sync.Mutex
	next int
	to   map[string]func(string)
}

func (r *progressRoutes) options() *mcp.ClientOptions {
	return &mcp.ClientOptions{ProgressNotificationHandler: r.notify}
}

// add routes a new token's notifications to f and returns the token.
func (r *progressRoutes) add(f func(string)) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next++
	tok := fmt.Sprintf("dbg-cli-%d", r.next)
	if r.to == nil {
		r.to = map[string]func(string){}
	}
	r.to[tok] = f
	return tok
}

func (r *progressRoutes) remove(tok string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.to, tok)
}

func (r *progressRoutes) notify(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	if req == nil || req.Params == nil || req.Params.Message == "" {
		return
	}
	tok, _ := req.Params.ProgressToken.(string)
	r.mu.Lock()
	f := r.to[tok]
	r.mu.Unlock()
	if f != nil {
		f(req.Params.Message)
	}
}
