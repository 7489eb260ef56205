package nodedap

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// resolveProgram decides how a TypeScript program runs: through the
// project's tsx or ts-node when it has one, else through its compiled
// JavaScript (found via tsconfig.json's outDir, or beside the source),
// whose source maps lead breakpoints back to the .ts lines.
func resolveProgram(cfg *LaunchConfig) error {
	prog := cfg.Program
	ext := strings.ToLower(filepath.Ext(prog))
	switch ext {
	case ".ts", ".mts", ".cts", ".tsx":
	default:
		return nil
	}
	if !filepath.IsAbs(prog) {
		base := cfg.Cwd
		if base == "" {
			base, _ = os.Getwd()
		}
		prog = filepath.Join(base, prog)
	}
	if root, tool := findTSRunner(filepath.Dir(prog)); tool != "" {
		switch tool {
		case "tsx":
			cfg.RuntimeArgs = append(cfg.RuntimeArgs, "--import", "tsx")
		case "ts-node":
			cfg.RuntimeArgs = append(cfg.RuntimeArgs, "--require", "ts-node/register")
		}
		if cfg.Cwd == "" {
			cfg.Cwd = root
		}
		cfg.Program = prog
		return nil
	}
	var tried []string
	if js, candidates := compiledJS(prog); js != "" {
		cfg.Program = js
		return nil
	} else {
		tried = candidates
	}
	return fmt.Errorf("cannot run %s: the project has neither tsx nor ts-node in node_modules, and no compiled JavaScript was found (looked for %s); compile it with `tsc --sourceMap` or install tsx",
		prog, strings.Join(tried, ", "))
}

// findTSRunner looks for node_modules/tsx or node_modules/ts-node from dir
// up to the filesystem root and returns the folder holding node_modules.
func findTSRunner(dir string) (root, tool string) {
	for d := dir; ; d = filepath.Dir(d) {
		for _, t := range []string{"tsx", "ts-node"} {
			if st, err := os.Stat(filepath.Join(d, "node_modules", t, "package.json")); err == nil && !st.IsDir() {
				return d, t
			}
		}
		if filepath.Dir(d) == d {
			return "", ""
		}
	}
}

// compiledJS finds the JavaScript tsc made from a .ts file and the paths it
// looked at.
func compiledJS(ts string) (string, []string) {
	jsExt := map[string]string{".ts": ".js", ".tsx": ".js", ".mts": ".mjs", ".cts": ".cjs"}[strings.ToLower(filepath.Ext(ts))]
	stem := strings.TrimSuffix(ts, filepath.Ext(ts))
	var candidates []string
	for d := filepath.Dir(ts); ; d = filepath.Dir(d) {
		if opts, ok := readTSConfig(filepath.Join(d, "tsconfig.json")); ok && opts.OutDir != "" {
			rootDir := d
			if opts.RootDir != "" {
				rootDir = filepath.Join(d, opts.RootDir)
			}
			if rel, err := filepath.Rel(rootDir, stem); err == nil && !strings.HasPrefix(rel, "..") {
				candidates = append(candidates, filepath.Join(d, opts.OutDir, rel+jsExt))
			}
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	candidates = append(candidates, stem+jsExt)
	for _, c := range candidates {
		if st, err := os.Stat(c); err == nil && !st.IsDir() {
			return c, candidates
		}
	}
	return "", candidates
}

type tsCompilerOptions struct {
	OutDir  string `json:"outDir"`
	RootDir string `json:"rootDir"`
}

// readTSConfig reads compilerOptions from a tsconfig.json (JSON with
// comments and trailing commas).
func readTSConfig(path string) (tsCompilerOptions, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return tsCompilerOptions{}, false
	}
	var cfg struct {
		CompilerOptions tsCompilerOptions `json:"compilerOptions"`
	}
	if err := json.Unmarshal(stripJSONC(b), &cfg); err != nil {
		return tsCompilerOptions{}, false
	}
	return cfg.CompilerOptions, true
}

// stripJSONC removes comments and trailing commas outside strings.
func stripJSONC(b []byte) []byte {
	out := make([]byte, 0, len(b))
	inStr := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inStr {
			out = append(out, c)
			if c == '\\' && i+1 < len(b) {
				i++
				out = append(out, b[i])
			} else if c == '"' {
				inStr = false
			}
			continue
		}
		switch {
		case c == '"':
			inStr = true
			out = append(out, c)
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			out = append(out, '\n')
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			i += 2
			for i+1 < len(b) && !(b[i] == '*' && b[i+1] == '/') {
				i++
			}
			i++
		case c == ']' || c == '}':
			// Drop a trailing comma before the closing bracket.
			j := len(out) - 1
			for j >= 0 && (out[j] == ' ' || out[j] == '\n' || out[j] == '\t' || out[j] == '\r') {
				j--
			}
			if j >= 0 && out[j] == ',' {
				out = append(out[:j], out[j+1:]...)
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}
