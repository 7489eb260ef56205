package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/debugtools"
	"github.com/dbg-dev/dbg/ide"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit/mcpbind"
)

// BenchmarkStatus: get_debug_tools_status with every capability registered
// (sessions, JVM, run configurations, Git) on a 10,000-commit project, with
// 0, 10 and 50 debug sessions open (mock sessions paused at a breakpoint):
//
//	go test -run XXX -bench 'Status$' ./bench/
func BenchmarkStatus(b *testing.B) {
	dir := largeRepo(b, 10000)
	prog := filepath.Join(nativeRoot(b), "testdata/mock/loop.mock")
	for _, n := range []int{0, 10, 50} {
		b.Run(fmt.Sprintf("sessions=%d", n), func(b *testing.B) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			m := sessions.NewManager(sessions.Config{Project: dir, Adapters: adapters.Default()})
			defer m.Shutdown(context.Background())
			tb := mcpbind.NewToolbox(mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "0"}, nil), nil)
			svc := debugtools.NewService(debugtools.Config{})
			defer svc.Close()
			debugtools.New(m, svc, debugtools.Config{}).Register(tb)
			ide.New(m, ide.Options{Context: ctx}).Register(tb)
			for i := 0; i < n; i++ {
				s, _, err := m.Create(ctx, sessions.CreateRequest{Language: "mock"})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := s.SetBreakpoint(ctx, sessions.BreakpointSpec{File: prog, Line: 10}); err != nil {
					b.Fatal(err)
				}
				if res, err := s.Launch(ctx, sessions.StartRequest{ScriptPath: prog}); err != nil || res.State != sessions.StatePaused {
					b.Fatalf("session %d: %+v %v", i, res, err)
				}
			}
			st, err := m.BuildStatus(ctx, tb.Status(), "", "")
			if err != nil {
				b.Fatal(err)
			}
			if len(st.Sessions) != n || st.Sections["git"] == nil || st.Sections["jvm"] == nil {
				b.Fatalf("status: %d sessions, sections %v", len(st.Sections), st.Sections)
			}
			b.ResetTimer()
			var worst time.Duration
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				if _, err := m.BuildStatus(ctx, tb.Status(), "", ""); err != nil {
					b.Fatal(err)
				}
				if d := time.Since(t0); d > worst {
					worst = d
				}
			}
			b.ReportMetric(float64(worst.Microseconds())/1000, "worst-ms")
		})
	}
}
