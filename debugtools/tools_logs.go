package debugtools

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/toolkit"
)

type logsIn struct {
	ConnectionID string      `json:"connectionId,omitempty" jsonschema:"optional with one connection"`
	PID          flexString  `json:"pid,omitempty" jsonschema:"a process dbg started or a JVM"`
	Limit        toolkit.Int `json:"limit,omitempty" jsonschema:"default 100"`
	Since        toolkit.Int `json:"since,omitempty" jsonschema:"the previous answer's next"`
	Level        string      `json:"level,omitempty" jsonschema:"minimum level"`
	Keyword      string      `json:"keyword,omitempty" jsonschema:"in message, logger or throwable"`
	Common
}

// LogsOut is the answer of read_target_application_logs.
type LogsOut struct {
	Source       string     `json:"source"` // agent, session or process
	ConnectionID string     `json:"connectionId,omitempty"`
	SessionID    string     `json:"sessionId,omitempty"`
	PID          string     `json:"pid,omitempty"`
	Count        int        `json:"count"`
	Entries      []LogEntry `json:"entries"`
	Next         int64      `json:"next"`
	Dropped      int64      `json:"dropped"`
	Sources      []string   `json:"sources,omitempty"`
}

func clampLimit(n toolkit.Int, def, hi int) int {
	switch {
	case n <= 0:
		return def
	case int(n) > hi:
		return hi
	}
	return int(n)
}

func (t *jvmTools) logs(ctx context.Context, in logsIn) (LogsOut, error) {
	limit := clampLimit(in.Limit, 100, 1000)
	if err := knownSession(t.m, in.SessionID); err != nil {
		return LogsOut{}, err
	}
	if in.SessionID != "" && in.ConnectionID == "" && in.PID == "" {
		s, err := t.m.Get(in.SessionID)
		if err != nil {
			return LogsOut{}, err
		}
		out := ringLogs(s.Output(), int64(in.Since), limit, in.Level, in.Keyword)
		out.Source, out.SessionID = "session", s.ID()
		return out, nil
	}
	if in.PID != "" {
		pid, err := strconv.Atoi(string(in.PID))
		if err != nil {
			return LogsOut{}, toolkit.NewError(toolkit.CodeInvalidArgument, "pid must be a number", "")
		}
		if p, ok := t.m.ProcessByPID(pid); ok && p.Output != nil {
			out := ringLogs(p.Output, int64(in.Since), limit, in.Level, in.Keyword)
			out.Source, out.PID = "process", strconv.Itoa(pid)
			return out, nil
		}
		conn := t.svc.ConnectionByPID(pid)
		if conn == nil {
			return LogsOut{}, toolkit.NewError(toolkit.CodeLogsUnavailable, fmt.Sprintf("no log source for pid %d: dbg did not start it and no agent is attached", pid),
				"attach the JVM with attach_local_jvm, or read a debug session's output with sessionId").WithNext(toolkit.NextAttachJVM)
		}
		in.ConnectionID = conn.ID
	}
	conn, err := t.resolveConn(ctx, in.ConnectionID, in.Common)
	if err != nil {
		if te, ok := err.(*toolkit.ToolError); ok && te.Code == toolkit.CodeNoConnection {
			te.Code = toolkit.CodeLogsUnavailable
			te.Message = "no log source: " + te.Message
		}
		return LogsOut{}, err
	}
	if conn.HTTP == nil {
		return LogsOut{}, toolkit.NewError(toolkit.CodeLogsUnavailable, "the connection "+conn.ID+" has no HTTP port to read logs from", "")
	}
	page, err := conn.HTTP.Logs(ctx, int64(in.Since), limit, in.Level, in.Keyword)
	if err != nil {
		return LogsOut{}, toolkit.NewError(toolkit.CodeLogsUnavailable, "the agent's log endpoint failed: "+err.Error(),
			"a DebugTools agent without log capture cannot serve logs; dbg's own agent can").Wrap(err)
	}
	if !page.Available {
		return LogsOut{}, toolkit.NewError(toolkit.CodeLogsUnavailable, "log capture is not active in the target: "+strings.Join(page.Problems, "; "), "")
	}
	out := LogsOut{Source: "agent", ConnectionID: conn.ID, Entries: page.Entries, Next: page.Next, Dropped: page.Dropped, Sources: page.Sources}
	if out.Entries == nil {
		out.Entries = []LogEntry{}
	}
	out.Count = len(out.Entries)
	return out, nil
}

// ringLogs reads captured output as log entries: stderr is ERROR, the
// rest INFO.
func ringLogs(r *toolkit.OutputRing, since int64, limit int, level, keyword string) LogsOut {
	lines, dropped, next := r.Since(since, 0, "")
	min := levelRank(level)
	out := LogsOut{Entries: []LogEntry{}, Next: next, Dropped: dropped}
	kw := strings.ToLower(keyword)
	for _, l := range lines {
		lvl := "INFO"
		if l.Category == "stderr" {
			lvl = "ERROR"
		}
		if levelRank(lvl) < min || (kw != "" && !strings.Contains(strings.ToLower(l.Text), kw)) {
			continue
		}
		out.Entries = append(out.Entries, LogEntry{Seq: l.Seq, Timestamp: l.Time.UnixMilli(), Time: l.Time.UTC().Format(time.RFC3339Nano),
			Level: lvl, Logger: l.Category, Message: stripANSI(l.Text)})
	}
	if len(out.Entries) > limit {
		out.Entries = out.Entries[len(out.Entries)-limit:]
	}
	out.Count = len(out.Entries)
	return out
}

func levelRank(l string) int {
	switch strings.ToUpper(l) {
	case "TRACE", "FINEST", "FINER":
		return 1
	case "DEBUG", "FINE", "CONFIG":
		return 2
	case "INFO":
		return 3
	case "WARN", "WARNING":
		return 4
	case "ERROR", "SEVERE", "FATAL":
		return 5
	}
	return 0
}

// stripANSI removes terminal escape sequences.
func stripANSI(s string) string {
	if !strings.Contains(s, "\x1b") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != 0x1b {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j
			continue
		}
		i++ // two-byte escape
	}
	return b.String()
}

type sqlIn struct {
	ConnectionID string      `json:"connectionId,omitempty" jsonschema:"optional with one connection"`
	Limit        toolkit.Int `json:"limit,omitempty" jsonschema:"default 20"`
	Since        toolkit.Int `json:"since,omitempty" jsonschema:"the previous answer's next"`
	Keyword      string      `json:"keyword,omitempty" jsonschema:"in the SQL"`
	Common
}

// SQLOut is the answer of get_last_sql_statements.
type SQLOut struct {
	ConnectionID string         `json:"connectionId"`
	Count        int            `json:"count"`
	Statements   []SQLStatement `json:"statements"`
	Next         int64          `json:"next"`
	Dropped      int64          `json:"dropped"`
	Mode         string         `json:"mode"`
	Note         *string        `json:"note"`
}

func (t *jvmTools) sql(ctx context.Context, in sqlIn) (SQLOut, error) {
	conn, err := t.resolveConn(ctx, in.ConnectionID, in.Common)
	if err != nil {
		if te, ok := err.(*toolkit.ToolError); ok && te.Code == toolkit.CodeNoConnection {
			te.Code = toolkit.CodeSQLHistoryUnavailable
			te.Message = "no SQL source: " + te.Message
		}
		return SQLOut{}, err
	}
	if conn.HTTP == nil {
		return SQLOut{}, toolkit.NewError(toolkit.CodeSQLHistoryUnavailable, "the connection "+conn.ID+" has no HTTP port to read SQL from", "")
	}
	page, err := conn.HTTP.SQL(ctx, int64(in.Since), clampLimit(in.Limit, 20, 500), in.Keyword)
	if err != nil {
		return SQLOut{}, toolkit.NewError(toolkit.CodeSQLHistoryUnavailable, "the agent's SQL endpoint failed: "+err.Error(),
			"a DebugTools agent only records SQL when loaded at JVM start; dbg's own agent records it after attach too").Wrap(err)
	}
	if !page.Available {
		why := "unknown reason"
		if page.Reason != nil {
			why = *page.Reason
		}
		return SQLOut{}, toolkit.NewError(toolkit.CodeSQLHistoryUnavailable, "SQL capture is not possible in the target: "+why, "")
	}
	out := SQLOut{ConnectionID: conn.ID, Statements: page.Statements, Next: page.Next, Dropped: page.Dropped, Mode: page.Mode, Note: page.Reason}
	if out.Statements == nil {
		out.Statements = []SQLStatement{}
	}
	out.Count = len(out.Statements)
	return out, nil
}
