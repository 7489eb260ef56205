package debugtools

import (
	"os"
	"path/filepath"
	"testing"
)

func TestLinkProject(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	must := func(p, content string) {
		t.Helper()
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	must("orders-service/src/main/java/com/x/Main.java", "package com.x; class Main {}")
	must(".idea/runConfigurations/Orders.xml", `<component name="ProjectRunConfigurationManager">
  <configuration default="false" name="Orders (local)" type="Application" factoryName="Application">
    <option name="MAIN_CLASS_NAME" value="com.x.Main" />
  </configuration>
</component>`)
	cfg, mod, proj := linkProject(root, "com.x.Main")
	if cfg == nil || *cfg != "Orders (local)" || mod == nil || *mod != "orders-service" || proj == nil || *proj != filepath.Base(root) {
		t.Fatalf("link: %v %v %v", cfg, mod, proj)
	}
	if c, m, p := linkProject(root, "com.other.App"); c != nil || m != nil || p != nil {
		t.Fatalf("unrelated class linked: %v %v %v", c, m, p)
	}
}

func TestIsHotSpotRejectsNonJVM(t *testing.T) {
	t.Parallel()
	// A stale hsperfdata file could name a reused pid: the mapped JVM
	// library decides, whatever the VM name says.
	j := &JVM{PID: os.Getpid(), VMName: "OpenJDK 64-Bit Server VM"}
	if isHotSpot(j) {
		t.Fatal("the Go test binary taken for a HotSpot JVM")
	}
	if err := CheckAttachable(j); err == nil {
		t.Fatal("attachable")
	}
}
