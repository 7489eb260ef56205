package native

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// formatterScript is dbg's LLDB formatters (formatters/dbg_lldb.py).
//
//go:embed formatters/dbg_lldb.py
var formatterScript []byte

// FormatterCommands returns the LLDB commands that load dbg's formatters
// into a session of lang debugging binary: the script (C, C++ and Rust
// values LLDB reads wrong or not at all), and for Rust the layouts of the
// program's enums, read from its DWARF. The files go under cacheDir,
// keyed by their content (the script) and by the binary's path, size and
// time (the enums). They run after rustc's formatters, so dbg's category
// comes first. A binary whose DWARF cannot be read loads the script
// alone: its enums keep LLDB's view.
func FormatterCommands(lang, binary, cacheDir string) ([]string, error) {
	dir := filepath.Join(cacheDir, "dbg", "lldb")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("formatter cache: %w", err)
	}
	sum := sha256.Sum256(formatterScript)
	// The module name is the file's: dbg_lldb, under a directory per version.
	sdir := filepath.Join(dir, hex.EncodeToString(sum[:8]))
	script := filepath.Join(sdir, "dbg_lldb.py")
	if err := writeOnce(script, formatterScript); err != nil {
		return nil, err
	}
	cmds := []string{fmt.Sprintf("command script import %s", pyQuote(script))}
	if lang != "rust" || binary == "" {
		return cmds, nil
	}
	table, err := enumTableFile(dir, binary)
	if err != nil {
		return cmds, nil
	}
	return append(cmds, fmt.Sprintf("script dbg_lldb.rust_enums(%s)", pyQuote(table))), nil
}

// enumTableFile writes the enum layouts of binary (once per version of it)
// and returns the file.
func enumTableFile(dir, binary string) (string, error) {
	st, err := os.Stat(binary)
	if err != nil {
		return "", err
	}
	key := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d\x00%d", binary, st.Size(), st.ModTime().UnixNano())))
	file := filepath.Join(dir, "enums-"+hex.EncodeToString(key[:12])+".json")
	if _, err := os.Stat(file); err == nil {
		return file, nil
	}
	table, err := RustEnums(binary)
	if err != nil {
		return "", err
	}
	data, err := json.Marshal(table)
	if err != nil {
		return "", err
	}
	return file, writeOnce(file, data)
}

// writeOnce writes data to path unless it is there, through a private
// temporary name, so concurrent sessions never read half a file.
func writeOnce(path string, data []byte) error {
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// pyQuote quotes s for LLDB's command line and Python alike.
func pyQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
