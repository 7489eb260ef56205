package debugtools

import (
	"context"
	"testing"
	"time"
)

func TestDiscoverFindsFixtureByPID(t *testing.T) {
	t.Parallel()
	f := startFixture(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	jvms, err := Discover(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got *JVM
	for i := range jvms {
		if jvms[i].PID == f.pid {
			got = &jvms[i]
		}
	}
	if got == nil {
		t.Fatalf("pid %d not discovered in %+v", f.pid, jvms)
	}
	if got.MainClass != "com.example.shop.ShopApplication" || got.AttachName != "ShopApplication" {
		t.Fatalf("main %q attach %q", got.MainClass, got.AttachName)
	}
	if got.PerfData == "" || got.JavaHome == "" || got.VMName == "" {
		t.Fatalf("hsperfdata not read: %+v", got)
	}
	if got.Hidden() {
		t.Fatal("fixture hidden")
	}
}

func TestDiscoverWithoutPerfData(t *testing.T) {
	t.Parallel()
	f := startFixture(t, "-XX:-UsePerfData")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	j, err := InspectJVM(ctx, f.pid)
	if err != nil {
		t.Fatal(err)
	}
	if j.PerfData != "" {
		t.Fatalf("unexpected perf data %s", j.PerfData)
	}
	if j.MainClass != "com.example.shop.ShopApplication" || j.JavaHome == "" {
		t.Fatalf("from the command line: %+v", j)
	}
	jvms, err := Discover(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, x := range jvms {
		found = found || x.PID == f.pid
	}
	if !found {
		t.Fatal("JVM without perf data not discovered")
	}
}

func TestJavaCommandFromArgs(t *testing.T) {
	t.Parallel()
	cases := map[string][]string{
		"a.B x y":        {"java", "-Xmx1g", "-cp", "p:q", "a.B", "x", "y"},
		"app.jar --z":    {"/usr/bin/java", "-Dk=v", "-jar", "app.jar", "--z"},
		"m/a.B":          {"java", "--module-path", "mp", "-m", "m/a.B"},
		"":               {"java", "-version"},
		"org.gradle.Foo": {"java", "--add-opens", "java.base/java.lang=ALL-UNNAMED", "org.gradle.Foo"},
	}
	for want, cmd := range cases {
		if got := javaCommandFromArgs(cmd); got != want {
			t.Errorf("%v: got %q want %q", cmd, got, want)
		}
	}
	hidden := JVM{MainClass: "org.gradle.launcher.daemon.bootstrap.GradleDaemon"}
	if !hidden.Hidden() {
		t.Error("gradle daemon not hidden")
	}
	if attachNameOf("/x/app-1.0.jar") != "app-1.0" || attachNameOf("m/a.b.C") != "C" {
		t.Error("attach names")
	}
}
