package debugtools

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/dbg-dev/dbg/safefs"
	"github.com/dbg-dev/dbg/textcut"
	"github.com/dbg-dev/dbg/toolkit"
)

//go:embed agent/src
var agentSources embed.FS

// agentManifest is the jar manifest of dbg's agent.
const agentManifest = "Manifest-Version: 1.0\r\n" +
	"Agent-Class: dbg.agent.Agent\r\n" +
	"Premain-Class: dbg.agent.Agent\r\n" +
	"Can-Redefine-Classes: true\r\n" +
	"Can-Retransform-Classes: true\r\n" +
	"Created-By: dbg\r\n\r\n"

// ErrNoJavac is returned when no JDK compiler is found to build the agent.
var ErrNoJavac = errors.New("debugtools: no javac found to build the agent")

// AgentBuilder compiles dbg's embedded Java agent on first use and caches
// the jar by content hash (sources and compiler version). It is safe for
// concurrent use; concurrent builds of one hash happen once.
type AgentBuilder struct {
	// CacheDir is the cache root (default safefs.UserCacheDir()/dbg/agent),
	// made private and checked before a jar in it is used.
	CacheDir string

	mu       sync.Mutex
	built    map[string]string // hash -> jar
	versions map[string]string // javac path@mtime -> "javac -version" output
}

// javacVersion runs "javac -version" once per compiler binary.
func (b *AgentBuilder) javacVersion(ctx context.Context, javac string) ([]byte, error) {
	key := javac
	if st, err := os.Stat(javac); err == nil {
		key = fmt.Sprintf("%s@%d", javac, st.ModTime().UnixNano())
	}
	b.mu.Lock()
	v, ok := b.versions[key]
	b.mu.Unlock()
	if ok {
		return []byte(v), nil
	}
	out, err := exec.CommandContext(ctx, javac, "-version").CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("%s -version: %w", javac, err)
	}
	b.mu.Lock()
	if b.versions == nil {
		b.versions = map[string]string{}
	}
	b.versions[key] = string(out)
	b.mu.Unlock()
	return out, nil
}

// FindJavac picks a compiler: the target's own JDK, else JAVA_HOME, else
// PATH. The target's JDK is used only when no other user can have
// changed it (see safefs.Trusted): dbg never runs another user's
// compiler, least of all as root.
func FindJavac(targetJavaHome string) (string, error) {
	var tried []string
	for i, home := range []string{targetJavaHome, os.Getenv("JAVA_HOME")} {
		if home == "" {
			continue
		}
		p := filepath.Join(home, "bin", "javac")
		st, err := os.Stat(p)
		if err == nil && i == 0 {
			if terr := safefs.Trusted(p); terr != nil {
				tried = append(tried, p+" (refused: "+terr.Error()+")")
				continue
			}
		}
		if err == nil && !st.IsDir() {
			return p, nil
		}
		tried = append(tried, p)
	}
	if p, err := exec.LookPath("javac"); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("%w (tried %s and PATH); install a JDK or set JAVA_HOME", ErrNoJavac, strings.Join(tried, ", "))
}

// Jar returns the path of the agent jar compiled with javac, building it
// when the cache has none.
func (b *AgentBuilder) Jar(ctx context.Context, javac string) (string, error) {
	version, err := b.javacVersion(ctx, javac)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	h.Write(version)
	files, err := agentFiles()
	if err != nil {
		return "", err
	}
	for _, f := range files {
		data, _ := agentSources.ReadFile(f)
		fmt.Fprintf(h, "%s\x00%d\x00", f, len(data))
		h.Write(data)
	}
	h.Write([]byte(agentManifest))
	hash := hex.EncodeToString(h.Sum(nil))[:16]

	b.mu.Lock()
	defer b.mu.Unlock()
	if j, ok := b.built[hash]; ok {
		if _, err := os.Stat(j); err == nil {
			return j, nil
		}
	}
	root := b.CacheDir
	if root == "" {
		c, err := safefs.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("cache dir: %w", err)
		}
		root = filepath.Join(c, "dbg", "agent")
	}
	// A jar in the cache is loaded into JVMs: no other user may put one there.
	if err := safefs.Dir(root); err != nil {
		return "", fmt.Errorf("agent cache: %w", err)
	}
	dir := filepath.Join(root, hash)
	jar := filepath.Join(dir, "dbg-agent.jar")
	if _, err := os.Stat(jar); err == nil {
		b.remember(hash, jar)
		return jar, nil
	}
	toolkit.Progress(ctx, "compiling dbg's Java agent with %s (once per JDK)…", javac)
	if err := buildAgentJar(ctx, javac, dir, jar, files); err != nil {
		return "", err
	}
	b.remember(hash, jar)
	return jar, nil
}

func (b *AgentBuilder) remember(hash, jar string) {
	if b.built == nil {
		b.built = map[string]string{}
	}
	b.built[hash] = jar
}

func agentFiles() ([]string, error) {
	var files []string
	err := fs.WalkDir(agentSources, "agent/src", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".java") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

// javacExports opens the JDK's internal ASM to the agent at compile time;
// at run time the agent opens it with Instrumentation.redefineModule.
var javacExports = []string{
	"--add-exports", "java.base/jdk.internal.org.objectweb.asm=ALL-UNNAMED",
	"--add-exports", "java.base/jdk.internal.org.objectweb.asm.commons=ALL-UNNAMED",
}

func buildAgentJar(ctx context.Context, javac, dir, jar string, files []string) error {
	work, err := safefs.MkdirTemp(filepath.Dir(dir), ".build-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	src := filepath.Join(work, "src")
	classes := filepath.Join(work, "classes")
	var paths []string
	for _, f := range files {
		data, _ := agentSources.ReadFile(f)
		p := filepath.Join(src, strings.TrimPrefix(f, "agent/src/"))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
		paths = append(paths, p)
	}
	args := append([]string{"-nowarn", "-encoding", "UTF-8", "-g", "-d", classes}, javacExports...)
	out, err := exec.CommandContext(ctx, javac, append(args, paths...)...).CombinedOutput()
	if err != nil && strings.Contains(string(out), "jdk.internal.org.objectweb.asm") {
		// A JDK without its internal ASM: build without the class
		// transformers; the agent then wraps JDBC drivers instead and
		// reports that method tracing is unavailable.
		var rest []string
		for _, p := range paths {
			if b := filepath.Base(p); b != "SqlTransformer.java" && b != "TraceTransformer.java" && b != "LoaderClassWriter.java" {
				rest = append(rest, p)
			}
		}
		_ = os.RemoveAll(classes)
		args = []string{"-nowarn", "-encoding", "UTF-8", "-g", "-d", classes}
		out, err = exec.CommandContext(ctx, javac, append(args, rest...)...).CombinedOutput()
	}
	if err != nil {
		return fmt.Errorf("compile the agent with %s: %w\n%s", javac, err, textcut.Clip(string(out), 4000))
	}
	tmpJar := filepath.Join(work, "agent.jar")
	if err := writeJar(tmpJar, classes, agentManifest); err != nil {
		return err
	}
	staged := work + ".out"
	if err := os.MkdirAll(staged, 0o755); err != nil {
		return err
	}
	if err := os.Rename(tmpJar, filepath.Join(staged, "dbg-agent.jar")); err != nil {
		return err
	}
	if err := os.Rename(staged, dir); err != nil {
		os.RemoveAll(staged)
		if _, serr := os.Stat(jar); serr == nil {
			return nil // built by another dbg meanwhile
		}
		return fmt.Errorf("install agent jar: %w", err)
	}
	return nil
}

// writeJar zips the class tree under dir with the manifest first.
func writeJar(path, dir, manifest string) error {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create("META-INF/MANIFEST.MF")
	if err != nil {
		return err
	}
	if _, err := io.WriteString(w, manifest); err != nil {
		return err
	}
	err = filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		w, err := zw.Create(filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	})
	if err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}
