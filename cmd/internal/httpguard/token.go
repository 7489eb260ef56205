package httpguard

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"time"
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
// in a 0600 file per project (directory 0700), written atomically.
func ProjectToken(stateDir, project string, rotate bool) (string, error) {
	path := TokenPath(stateDir, project)
	if !rotate {
		if b, err := os.ReadFile(path); err == nil {
			var tf tokenFile
			if json.Unmarshal(b, &tf) == nil && tf.Project == project && len(tf.Token) >= 43 {
				return tf.Token, nil
			}
		}
	}
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", err
	}
	tf := tokenFile{Project: project, Token: base64.RawURLEncoding.EncodeToString(raw[:]), Created: time.Now().UTC()}
	b, _ := json.Marshal(tf)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", err
	}
	return tf.Token, nil
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
