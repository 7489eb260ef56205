package mcpbind

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/toolkit"
)

// A Toolbox's resource template reads through MCP, an unknown resource
// is not found, and a subscribed client hears of updates.
func TestResourcesAndSubscriptions(t *testing.T) {
	check := func(_ context.Context, uri string) error {
		if !strings.HasPrefix(uri, "test://things/") {
			return fmt.Errorf("%w: %s", toolkit.ErrResourceNotFound, uri)
		}
		return nil
	}
	opts := &mcp.ServerOptions{}
	AllowSubscriptions(opts, check)
	if err := opts.SubscribeHandler(context.Background(), &mcp.SubscribeRequest{Params: &mcp.SubscribeParams{URI: "other://x"}}); err == nil {
		t.Error("a subscription to an unknown resource was accepted")
	}
	if err := opts.SubscribeHandler(context.Background(), &mcp.SubscribeRequest{Params: &mcp.SubscribeParams{URI: "test://things/1"}}); err != nil {
		t.Errorf("a subscription to a known resource was refused: %v", err)
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, opts)
	tb := NewToolbox(srv, nil)
	tb.AddResourceTemplate(toolkit.ResourceTemplate{URITemplate: "test://things/{id}", Name: "thing", MIMEType: "text/plain",
		Read: func(ctx context.Context, uri string) (toolkit.ResourceContent, error) {
			if err := check(ctx, uri); err != nil || strings.HasSuffix(uri, "/gone") {
				return toolkit.ResourceContent{}, fmt.Errorf("%w: %s", toolkit.ErrResourceNotFound, uri)
			}
			return toolkit.ResourceContent{Text: "content of " + uri}, nil
		}})

	updated := make(chan string, 10)
	ct, st := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) { updated <- req.Params.URI },
	}).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if caps := cs.InitializeResult().Capabilities; caps.Resources == nil || !caps.Resources.Subscribe {
		t.Fatalf("the server does not offer subscriptions: %+v", caps)
	}
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://things/7"})
	if err != nil || len(res.Contents) != 1 || res.Contents[0].Text != "content of test://things/7" || res.Contents[0].MIMEType != "text/plain" {
		t.Fatalf("read: %+v %v", res, err)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://things/gone"}); err == nil {
		t.Error("a resource that is gone reads")
	}
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "test://things/7"}); err != nil {
		t.Fatal(err)
	}
	// The subscription may be set up after Subscribe returns: update until
	// the client hears of it.
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		tb.ResourceUpdated(ctx, "test://things/8") // not subscribed
		tb.ResourceUpdated(ctx, "test://things/7")
		select {
		case uri := <-updated:
			if uri != "test://things/7" {
				t.Fatalf("an update of %s, which nobody subscribed to", uri)
			}
			return
		case <-tick.C:
		case <-ctx.Done():
			t.Fatal("no update reached the subscribed client")
		}
	}
}
