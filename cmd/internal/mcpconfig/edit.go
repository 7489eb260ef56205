package mcpconfig

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/dbg-dev/dbg/ide"
	"github.com/dbg-dev/dbg/ide/cfgfile"
)

// Entry is the server entry a client starts: command with args.
func Entry(c Client, command string, args ...string) cfgfile.Object {
	var o cfgfile.Object
	if c.Stdio && !c.TOML {
		o = append(o, cfgfile.Field{Key: "type", Value: "stdio"})
	}
	if args == nil {
		args = []string{}
	}
	return append(o, cfgfile.Field{Key: "command", Value: command}, cfgfile.Field{Key: "args", Value: args})
}

// Snippet is what to add to the client's file by hand.
func Snippet(c Client, name string, entry cfgfile.Object) string {
	if c.TOML {
		return entry.TOML(c.Key, name, "\n")
	}
	return cfgfile.JSONSnippet(c.Key, name, entry)
}

// Edit is a prepared change of one client's configuration file. It
// holds no lock: a client rewriting the file meanwhile is detected by
// Apply just before the rename, not prevented.
type Edit struct {
	Client   Client
	Path     string // the file edited, symlinks resolved
	Name     string // the server's name
	Old, New []byte // the file's text before and after
	Exists   bool   // the file exists
	Replaced bool   // an entry of that name was there
	Snippet  string // the entry, to add by hand
}

// Prepare reads the file at path and computes the edit that sets entry
// as the server name. A file that cannot be edited safely is refused
// with the snippet to add by hand.
func Prepare(c Client, path, name string, entry cfgfile.Object) (*Edit, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("--path %q: %w", path, err)
	}
	// A symlinked configuration (dotfiles) is edited where it points.
	if fi, err := os.Lstat(abs); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if abs, err = filepath.EvalSymlinks(abs); err != nil {
			return nil, fmt.Errorf("resolving %s: %w", path, err)
		}
	}
	ed := &Edit{Client: c, Path: abs, Name: name, Snippet: Snippet(c, name, entry)}
	ed.Old, err = os.ReadFile(abs)
	ed.Exists = err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("reading %s: %w", abs, err)
	}
	if c.TOML {
		ed.New, ed.Replaced, err = cfgfile.SetTOMLTable(ed.Old, c.Key, name, entry)
	} else {
		ed.New, ed.Replaced, err = cfgfile.SetJSONMember(ed.Old, c.Key, name, entry)
	}
	if err != nil {
		return nil, ed.byHand(err)
	}
	return ed, nil
}

// byHand is a refusal to edit, with what to add by hand.
func (ed *Edit) byHand(why error) error {
	where := fmt.Sprintf("its %q object", ed.Client.Key)
	if ed.Client.TOML {
		where = "it"
	}
	return fmt.Errorf("not editing %s: %w\nAdd this to %s by hand:\n\n%s", ed.Path, why, where, ed.Snippet)
}

// Unchanged reports whether the file already holds the entry.
func (ed *Edit) Unchanged() bool { return ed.Exists && bytes.Equal(ed.Old, ed.New) }

// CheckTracked refuses a file git tracks: a machine-specific path does
// not belong in a repository.
func (ed *Edit) CheckTracked(ctx context.Context) error {
	tracked, err := ide.GitTracks(ctx, ed.Path)
	if err != nil {
		return err
	}
	if tracked {
		return ed.byHand(errors.New("git tracks it; a machine-specific path does not belong in the repository"))
	}
	return nil
}

// Diff shows the change as a unified diff; for a new file, its text.
func (ed *Edit) Diff() string {
	if !ed.Exists {
		return string(ed.New)
	}
	return cfgfile.Diff(ed.Path, ed.Path+" (new)", ed.Old, ed.New)
}

// Apply writes the new text atomically: an existing file keeps its mode,
// a new one is 0600 in a directory created 0700. A file changed since
// Prepare read it is not overwritten.
func (ed *Edit) Apply() error {
	mode := fs.FileMode(0o600)
	if ed.Exists {
		fi, err := os.Stat(ed.Path)
		if err != nil {
			return fmt.Errorf("reading %s: %w", ed.Path, err)
		}
		mode = fi.Mode().Perm()
	} else if err := os.MkdirAll(filepath.Dir(ed.Path), 0o700); err != nil {
		return fmt.Errorf("creating %s: %w", filepath.Dir(ed.Path), err)
	}
	// Clients rewrite their own files (Claude Code often does): do not
	// overwrite a change made since the file was read.
	if now, err := os.ReadFile(ed.Path); ed.Exists && (err != nil || !bytes.Equal(now, ed.Old)) {
		return fmt.Errorf("%s changed while it was being edited; run the command again", ed.Path)
	}
	return cfgfile.WriteAtomic(ed.Path, ed.New, mode)
}
