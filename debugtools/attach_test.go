package debugtools

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func newTestService(t *testing.T) *Service {
	t.Helper()
	s := NewService(Config{CacheDir: testCacheDir(t)})
	t.Cleanup(s.Close)
	return s
}

// testCacheDir shares one agent build across the package's tests.
func testCacheDir(t testing.TB) string {
	return testMainDir + "/agent-cache"
}

// attachFixture starts the fixture and attaches dbg's agent to it.
func attachFixture(t *testing.T, s *Service, jvmOpts ...string) (*fixtureJVM, *Connection) {
	t.Helper()
	f := startFixture(t, jvmOpts...)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := s.Attach(ctx, f.pid, "", 30*time.Second)
	if err != nil {
		t.Fatalf("attach: %v", err)
	}
	if res.Conn == nil {
		t.Fatalf("no connection: %s", res.Message)
	}
	return f, res.Conn
}

func TestAttachLoadsAgentAndConnects(t *testing.T) {
	t.Parallel()
	s := newTestService(t)
	f, c := attachFixture(t, s)
	if c.PID != f.pid || c.ApplicationName != "ShopApplication" || c.Port == 0 || c.HTTPPort == 0 {
		t.Fatalf("connection %+v", c)
	}
	if got := s.Connections(); len(got) != 1 || got[0].ID != c.ID {
		t.Fatalf("connections %+v", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.Client.Heartbeat(ctx); err != nil {
		t.Fatal(err)
	}
	// A second attach reuses the connection.
	res, err := s.Attach(ctx, f.pid, "", time.Second)
	if err != nil || res.Conn != c {
		t.Fatalf("re-attach: %+v %v", res, err)
	}
}

func TestAttachRefusesDisableAttachMechanism(t *testing.T) {
	t.Parallel()
	s := newTestService(t)
	f := startFixture(t, "-XX:+DisableAttachMechanism")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := s.Attach(ctx, f.pid, "", time.Second)
	if !errors.Is(err, ErrNotAttachable) || !strings.Contains(err.Error(), "DisableAttachMechanism") {
		t.Fatalf("want a clear refusal, got %v", err)
	}
	time.Sleep(300 * time.Millisecond)
	if !f.alive() {
		t.Fatal("the JVM died")
	}
}

func TestAttachRefusesXrs(t *testing.T) {
	t.Parallel()
	f := startFixture(t, "-Xrs")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	j, err := InspectJVM(ctx, f.pid)
	if err != nil {
		t.Fatal(err)
	}
	err = LoadAgent(ctx, j, "/nonexistent.jar", "", AttachOptions{})
	if !errors.Is(err, ErrNotAttachable) || !strings.Contains(err.Error(), "-Xrs") {
		t.Fatalf("want refusal, got %v", err)
	}
	time.Sleep(300 * time.Millisecond)
	if !f.alive() {
		t.Fatal("the JVM died")
	}
}

func TestParseLoadReply(t *testing.T) {
	t.Parallel()
	for reply, ok := range map[string]bool{
		"0\nreturn code: 0\n":       true,
		"0\n0\n":                    true,
		"0\n":                       true,
		"0\nreturn code: 100\n":     false,
		"101\nagent library failed": false,
		"garbage":                   false,
	} {
		err := parseLoadReply(1, reply)
		if (err == nil) != ok {
			t.Errorf("%q: %v", reply, err)
		}
	}
}

// TestUserSuppliedAgentJar attaches with a jar given as Config.AgentJar
// (here dbg's own, built beforehand): ports are chosen by dbg and passed
// with the DebugTools argument names, with no port file.
func TestUserSuppliedAgentJar(t *testing.T) {
	t.Parallel()
	mustHaveJDK(t)
	javac, err := FindJavac("")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	b := &AgentBuilder{CacheDir: testCacheDir(t)}
	jar, err := b.Jar(ctx, javac)
	if err != nil {
		t.Fatal(err)
	}
	s := NewService(Config{AgentJar: jar})
	t.Cleanup(s.Close)
	f := startFixture(t)
	res, err := s.Attach(ctx, f.pid, "Shop", 30*time.Second)
	if err != nil || res.Conn == nil {
		t.Fatalf("attach: %v %+v", err, res)
	}
	if !res.Conn.External || res.Conn.ApplicationName != "Shop" || res.Conn.HTTP == nil {
		t.Fatalf("connection: %+v", res.Conn)
	}
	r, ok := runOn(t, res.Conn, "com.example.shop.PriceUtil", "ping", nil, ``)
	if !ok || str(r.PrintResult) != "1" || r.ApplicationName != "Shop" {
		t.Fatalf("ping: %+v", r)
	}
}
