package debugtools

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/dbg-dev/dbg/textcut"
)

// HTTPClient calls an agent's HTTP endpoints. It is safe for concurrent
// use.
type HTTPClient struct {
	Base string // http://host:port
	HC   *http.Client
}

// NewHTTPClient returns a client for host:port.
func NewHTTPClient(host string, port int) *HTTPClient {
	return &HTTPClient{Base: "http://" + net2(host, port), HC: &http.Client{Timeout: 30 * time.Second}}
}

func net2(host string, port int) string {
	return host + ":" + strconv.Itoa(port)
}

// HTTPError is a non-200 answer of the agent.
type HTTPError struct {
	Status int
	Body   string
}

func (e *HTTPError) Error() string {
	return fmt.Sprintf("agent HTTP %d: %s", e.Status, textcut.Clip(e.Body, 300))
}

// Get fetches path with query q and returns the body.
func (h *HTTPClient) Get(ctx context.Context, path string, q url.Values) ([]byte, error) {
	u := h.Base + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := h.HC.Do(req)
	if err != nil {
		return nil, fmt.Errorf("agent HTTP %s: %w", path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return nil, fmt.Errorf("agent HTTP %s: %w", path, err)
	}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error string `json:"error"`
		}
		if json.Unmarshal(b, &e) == nil && e.Error != "" {
			return nil, &HTTPError{Status: resp.StatusCode, Body: e.Error}
		}
		return nil, &HTTPError{Status: resp.StatusCode, Body: string(b)}
	}
	return b, nil
}

// GetJSON fetches path and decodes its JSON answer into v.
func (h *HTTPClient) GetJSON(ctx context.Context, path string, q url.Values, v any) error {
	b, err := h.Get(ctx, path, q)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("agent HTTP %s: bad JSON: %w", path, err)
	}
	return nil
}

// ResultView fetches a stored result rendered as TO_STRING, JSON or DEBUG.
func (h *HTTPClient) ResultView(ctx context.Context, offsetPath, view string) (string, error) {
	b, err := h.Get(ctx, "/result/type", url.Values{"offsetPath": {offsetPath}, "type": {view}})
	return string(b), err
}

// LogEntry is one captured log record.
type LogEntry struct {
	Seq       int64   `json:"seq"`
	Timestamp int64   `json:"timestamp"`
	Time      string  `json:"time"`
	Level     string  `json:"level"`
	Logger    string  `json:"logger"`
	Thread    string  `json:"thread"`
	Message   string  `json:"message"`
	Throwable *string `json:"throwable"`
}

// LogsPage is the answer of /logs/recent.
type LogsPage struct {
	Available bool       `json:"available"`
	Sources   []string   `json:"sources"`
	Problems  []string   `json:"problems"`
	Dropped   int64      `json:"dropped"`
	Next      int64      `json:"next"`
	Entries   []LogEntry `json:"entries"`
}

// SQLStatement is one captured statement.
type SQLStatement struct {
	Seq            int64    `json:"seq"`
	Timestamp      int64    `json:"timestamp"`
	Time           string   `json:"time"`
	SQL            string   `json:"sql"`
	Parameters     []string `json:"parameters"`
	DurationMillis float64  `json:"durationMillis"`
	Error          *string  `json:"error"`
	Thread         string   `json:"thread"`
}

// SQLPage is the answer of /sql/recent.
type SQLPage struct {
	Available           bool           `json:"available"`
	Mode                string         `json:"mode"`
	Reason              *string        `json:"reason"`
	InstrumentedClasses []string       `json:"instrumentedClasses"`
	Dropped             int64          `json:"dropped"`
	Next                int64          `json:"next"`
	Statements          []SQLStatement `json:"statements"`
}

// Logs reads /logs/recent.
func (h *HTTPClient) Logs(ctx context.Context, since int64, limit int, level, keyword string) (*LogsPage, error) {
	q := url.Values{"since": {strconv.FormatInt(since, 10)}, "limit": {strconv.Itoa(limit)}}
	if level != "" {
		q.Set("level", level)
	}
	if keyword != "" {
		q.Set("keyword", keyword)
	}
	var p LogsPage
	return &p, h.GetJSON(ctx, "/logs/recent", q, &p)
}

// SQL reads /sql/recent.
func (h *HTTPClient) SQL(ctx context.Context, since int64, limit int, keyword string) (*SQLPage, error) {
	q := url.Values{"since": {strconv.FormatInt(since, 10)}, "limit": {strconv.Itoa(limit)}}
	if keyword != "" {
		q.Set("keyword", keyword)
	}
	var p SQLPage
	return &p, h.GetJSON(ctx, "/sql/recent", q, &p)
}

// SpringReady reads /spring/ready.
func (h *HTTPClient) SpringReady(ctx context.Context) (present, ready bool, err error) {
	var r struct {
		SpringPresent bool `json:"springPresent"`
		Ready         bool `json:"ready"`
	}
	err = h.GetJSON(ctx, "/spring/ready", nil, &r)
	return r.SpringPresent, r.Ready, err
}

// ClassLoaderInfo is one entry of /allClassLoader.
type ClassLoaderInfo struct {
	Name       string `json:"name"`
	Identity   string `json:"identity"`
	ClassCount int    `json:"classCount"`
	Default    bool   `json:"default"`
}

// ClassLoaders reads /allClassLoader.
func (h *HTTPClient) ClassLoaders(ctx context.Context) ([]ClassLoaderInfo, error) {
	var out []ClassLoaderInfo
	return out, h.GetJSON(ctx, "/allClassLoader", nil, &out)
}
