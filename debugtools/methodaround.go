package debugtools

import (
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/dbg-dev/dbg/toolkit"
)

// MethodAroundDir is where saved Method Around scripts live, relative to
// the project: one <name>.java file per script.
const MethodAroundDir = ".idea/DebugTools/MethodAround"

// CodeScriptNotFound is the error code of a Method Around script that does
// not exist (the DebugTools reference's SCRIPT_NOT_FOUND).
const CodeScriptNotFound = "SCRIPT_NOT_FOUND"

// maxScriptSize bounds a script read into memory.
const maxScriptSize = 1 << 20

// MethodAroundScript is one saved script in a listing.
type MethodAroundScript struct {
	Name       string `json:"name"`       // without .java
	SizeBytes  int64  `json:"sizeBytes"`  // file size
	ModifiedAt int64  `json:"modifiedAt"` // Unix milliseconds
}

// MethodAroundSource is a script with its content.
type MethodAroundSource struct {
	Name       string `json:"name"`
	Content    string `json:"content"`  // UTF-8 Java source
	Identity   string `json:"identity"` // MD5 of the content, hex
	SizeBytes  int64  `json:"sizeBytes"`
	ModifiedAt int64  `json:"modifiedAt"`
}

// CheckScriptName refuses names that are not a plain script name: empty,
// with a path separator, "..", a ".java" suffix or control characters.
// The error is an INVALID_ARGUMENT ToolError that never shows a path.
func CheckScriptName(name string) error {
	bad := func(why string) error {
		return toolkit.NewError(toolkit.CodeInvalidArgument,
			fmt.Sprintf("invalid Method Around script name %q: %s", name, why),
			"pass a name exactly as list_method_around_scripts returns it (no directories, no .java)")
	}
	switch {
	case strings.TrimSpace(name) == "":
		return bad("it is empty")
	case strings.ContainsAny(name, `/\`):
		return bad("it contains a path separator")
	case strings.Contains(name, ".."):
		return bad(`it contains ".."`)
	case strings.HasSuffix(strings.ToLower(name), ".java"):
		return bad("leave out the .java suffix")
	case filepath.IsAbs(name) || filepath.VolumeName(name) != "":
		return bad("it is an absolute path")
	case strings.HasPrefix(name, "."):
		return bad(`it starts with "."`)
	case !utf8.ValidString(name) || strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f || r == ':' }):
		return bad("it contains control or reserved characters")
	case len(name) > 200:
		return bad("it is too long")
	}
	return nil
}

// ListMethodAroundScripts lists the saved scripts of a project, sorted by
// name. A missing folder is an empty list. Files whose names are not
// valid script names, and anything that is not a regular file, are left
// out.
func ListMethodAroundScripts(project string) ([]MethodAroundScript, error) {
	dir := filepath.Join(project, filepath.FromSlash(MethodAroundDir))
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return []MethodAroundScript{}, nil
	}
	if err != nil {
		return nil, toolkit.NewError(toolkit.CodeInternal, "cannot read the Method Around folder: "+errorText(err),
			"check the permissions of "+MethodAroundDir+" in the project").Wrap(err)
	}
	out := []MethodAroundScript{}
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".java")
		if !ok || CheckScriptName(name) != nil {
			continue
		}
		info, err := scriptInfo(dir, e.Name())
		if err != nil {
			continue
		}
		out = append(out, MethodAroundScript{Name: name, SizeBytes: info.Size(), ModifiedAt: info.ModTime().UnixMilli()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// scriptInfo stats a script file. A symbolic link is followed only when
// it stays inside dir; the result must be a regular file.
func scriptInfo(dir, file string) (fs.FileInfo, error) {
	p := filepath.Join(dir, file)
	info, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		target, err := filepath.EvalSymlinks(p)
		if err != nil {
			return nil, err
		}
		realDir, err := filepath.EvalSymlinks(dir)
		if err != nil {
			return nil, err
		}
		if rel, err := filepath.Rel(realDir, target); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return nil, fmt.Errorf("script %s links outside the Method Around folder", file)
		}
		if info, err = os.Stat(p); err != nil {
			return nil, err
		}
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("script %s is not a regular file", file)
	}
	return info, nil
}

// ReadMethodAroundScript reads one saved script by name. Invalid names
// answer INVALID_ARGUMENT, missing scripts SCRIPT_NOT_FOUND listing the
// scripts that exist.
func ReadMethodAroundScript(project, name string) (*MethodAroundSource, error) {
	if err := CheckScriptName(name); err != nil {
		return nil, err
	}
	dir := filepath.Join(project, filepath.FromSlash(MethodAroundDir))
	notFound := func() error {
		var names []string
		if list, err := ListMethodAroundScripts(project); err == nil {
			for _, s := range list {
				names = append(names, s.Name)
			}
		}
		return toolkit.NewError(CodeScriptNotFound, fmt.Sprintf("no Method Around script named %q", name),
			"call list_method_around_scripts and pass one of availableOptions").WithOptions(names...)
	}
	info, err := scriptInfo(dir, name+".java")
	if err != nil {
		return nil, notFound()
	}
	if info.Size() > maxScriptSize {
		return nil, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("Method Around script %q is larger than %d bytes", name, maxScriptSize),
			"keep scripts small, or pass the source as methodAroundContent")
	}
	f, err := os.Open(filepath.Join(dir, name+".java"))
	if err != nil {
		return nil, notFound()
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxScriptSize+1))
	if err != nil {
		return nil, toolkit.NewError(toolkit.CodeInternal, fmt.Sprintf("cannot read Method Around script %q: %s", name, errorText(err)), "").Wrap(err)
	}
	if !utf8.Valid(data) {
		return nil, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("Method Around script %q is not UTF-8 text", name), "save the script as UTF-8")
	}
	sum := md5.Sum(data)
	return &MethodAroundSource{Name: name, Content: string(data), Identity: hex.EncodeToString(sum[:]),
		SizeBytes: int64(len(data)), ModifiedAt: info.ModTime().UnixMilli()}, nil
}

// errorText is an error's text without the file path it may carry.
func errorText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}
