package debugtools

import (
	"crypto/md5"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbg-dev/dbg/toolkit"
)

const webProject = "../testdata/projects/java-web"

func TestCheckScriptName(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"PrepareTestContext", "a-b_c", "v1.2", "日本"} {
		if err := CheckScriptName(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"", " ", "../x", "..", "a/b", `a\b`, "X.java", "X.JAVA", "/etc/passwd", ".hidden",
		"a..b", "nul\x00", "line\nbreak", "c:x", strings.Repeat("a", 201)} {
		err := CheckScriptName(bad)
		var te *toolkit.ToolError
		if !errors.As(err, &te) || te.Code != toolkit.CodeInvalidArgument {
			t.Errorf("%q: err = %v, want INVALID_ARGUMENT", bad, err)
		}
	}
}

func TestListMethodAroundScripts(t *testing.T) {
	t.Parallel()
	list, err := ListMethodAroundScripts(webProject)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Name != "PrepareTestContext" || list[1].Name != "UppercaseName" {
		t.Fatalf("list = %+v", list)
	}
	fi, err := os.Stat(filepath.Join(webProject, MethodAroundDir, "PrepareTestContext.java"))
	if err != nil {
		t.Fatal(err)
	}
	if list[0].SizeBytes != fi.Size() || list[0].ModifiedAt != fi.ModTime().UnixMilli() {
		t.Errorf("entry = %+v, file size %d mtime %d", list[0], fi.Size(), fi.ModTime().UnixMilli())
	}
	empty, err := ListMethodAroundScripts(t.TempDir())
	if err != nil || empty == nil || len(empty) != 0 {
		t.Errorf("missing folder: %v %v", empty, err)
	}
}

func TestReadMethodAroundScript(t *testing.T) {
	t.Parallel()
	src, err := ReadMethodAroundScript(webProject, "UppercaseName")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(webProject, MethodAroundDir, "UppercaseName.java"))
	if err != nil {
		t.Fatal(err)
	}
	sum := md5.Sum(data)
	if src.Content != string(data) || src.Identity != hex.EncodeToString(sum[:]) || src.SizeBytes != int64(len(data)) || src.Name != "UppercaseName" {
		t.Errorf("script = %+v", src)
	}
	_, err = ReadMethodAroundScript(webProject, "Missing")
	var te *toolkit.ToolError
	if !errors.As(err, &te) || te.Code != CodeScriptNotFound || len(te.AvailableOptions) != 2 {
		t.Errorf("missing: %v", err)
	}
	if _, err = ReadMethodAroundScript(webProject, "../../pom"); !errors.As(err, &te) || te.Code != toolkit.CodeInvalidArgument {
		t.Errorf("traversal: %v", err)
	}
}

func TestMethodAroundSymlinks(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	dir := filepath.Join(project, filepath.FromSlash(MethodAroundDir))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "Secret.java")
	if err := os.WriteFile(outside, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Real.java"), []byte("class Real {}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "Escape.java")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("Real.java", filepath.Join(dir, "Alias.java")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "Folder.java"), 0o755); err != nil {
		t.Fatal(err)
	}
	list, err := ListMethodAroundScripts(project)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range list {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "Alias,Real" {
		t.Errorf("names = %v", names)
	}
	_, err = ReadMethodAroundScript(project, "Escape")
	var te *toolkit.ToolError
	if !errors.As(err, &te) || te.Code != CodeScriptNotFound || strings.Contains(te.Error(), project) {
		t.Errorf("escape: %v", err)
	}
	if src, err := ReadMethodAroundScript(project, "Alias"); err != nil || src.Content != "class Real {}" {
		t.Errorf("alias: %+v %v", src, err)
	}
}
