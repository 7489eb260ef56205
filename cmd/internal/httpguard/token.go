package httpguard

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/dbg-dev/dbg/safefs"
)

// tokenFile is the stored token of one project.
type tokenFile struct {
	Project string    `json:"project"`
	Token   string    `json:"token"`
	Created time.Time `json:"created"`
}

// TokenPath is the file holding project's token under stateDir.
func TokenPath(stateDir, project string) string {
	sum := sha256.Sum256([]byte(project))
	return filepath.Join(stateDir, "tokens", hex.EncodeToString(sum[:8])+".json")
}

// ProjectToken returns the project's token, creating it on first use or
// replacing it when rotate is set. Tokens are 32 random bytes, base64url,
// in a 0600 file per project (directory 0700, checked), written
// atomically. A file another user made, or one others can read, is never
// taken for the token: it is replaced.
func ProjectToken(stateDir, project string, rotate bool) (string, error) {
	path := TokenPath(stateDir, project)
	if !rotate {
		if tok, err := readTokenFile(path, project); err == nil {
			return tok, nil
		}
	}
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", err
	}
	tf := tokenFile{Project: project, Token: base64.RawURLEncoding.EncodeToString(raw[:]), Created: time.Now().UTC()}
	b, _ := json.Marshal(tf)
	if err := safefs.WriteFile(path, b, 0o600); err != nil {
		return "", err
	}
	return tf.Token, nil
}

// ErrNoToken is returned by [ReadToken] for a project that has no token
// yet.
var ErrNoToken = errors.New("no token yet")

// ReadToken returns the project's stored token without creating one: an
// error wrapping [ErrNoToken] when there is none (or its file is not the
// project's).
func ReadToken(stateDir, project string) (string, error) {
	path := TokenPath(stateDir, project)
	tok, err := readTokenFile(path, project)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return tok, nil
}

// readTokenFile reads the token of project kept at path: a file of this
// user's that nobody else can read or change (see safefs.ReadPrivate).
func readTokenFile(path, project string) (string, error) {
	b, err := safefs.ReadPrivate(path, 64<<10)
	if errors.Is(err, os.ErrNotExist) {
		return "", ErrNoToken
	}
	if err != nil {
		return "", err
	}
	var tf tokenFile
	if json.Unmarshal(b, &tf) != nil || tf.Project != project || len(tf.Token) < 43 {
		return "", fmt.Errorf("not a token of %s: %w", project, ErrNoToken)
	}
	return tf.Token, nil
}

// FileToken is the token of a project as its file holds it now: a
// server admitting it follows rotations (`dbg token rotate`) at once,
// and the old token is refused from then on. It is safe for concurrent
// use.
type FileToken struct {
	path, project string

	mu    sync.Mutex
	token []byte
	seen  os.FileInfo // the file the token was read from
}

// NewFileToken follows the project's token file, which must hold a token
// already (see [ProjectToken]).
func NewFileToken(stateDir, project string) (*FileToken, error) {
	ft := &FileToken{path: TokenPath(stateDir, project), project: project}
	if ft.Current() == nil {
		return nil, fmt.Errorf("%s: %w", ft.path, ErrNoToken)
	}
	return ft, nil
}

// Current returns the token in force: the file's when it changed and
// holds a valid token, else the last one read.
func (f *FileToken) Current() []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	st, err := os.Lstat(f.path)
	if err != nil {
		return f.token
	}
	if f.seen != nil && os.SameFile(st, f.seen) && st.ModTime().Equal(f.seen.ModTime()) && st.Size() == f.seen.Size() {
		return f.token
	}
	if tok, err := readTokenFile(f.path, f.project); err == nil {
		f.token, f.seen = []byte(tok), st
	}
	return f.token
}

// BearerTransport adds a token to every request, for clients of a
// guarded server.
type BearerTransport struct {
	Token string
	Base  http.RoundTripper // nil = http.DefaultTransport
}

// RoundTrip sends a copy of r with the Authorization header set.
func (b BearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.Token)
	base := b.Base
	if base == nil {
		base = http.DefaultTransport
	}
	return base.RoundTrip(r)
}
