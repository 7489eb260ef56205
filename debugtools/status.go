package debugtools

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/dbg-dev/dbg/toolkit"
)

// jvmStatus is the "jvm" contributor of get_debug_tools_status. It is
// cheap: connections are in memory, the JVM scan is cached by the
// service, and each agent's /status answer is cached for two seconds.
type jvmStatus struct {
	t *jvmTools

	mu    sync.Mutex
	cache map[string]agentStatusEntry
}

type agentStatusEntry struct {
	at     time.Time
	status agentStatus
	err    error
}

type agentStatus struct {
	Compiler bool `json:"compiler"`
	Logs     struct {
		Available bool     `json:"available"`
		Problems  []string `json:"problems"`
	} `json:"logs"`
	SQL struct {
		Available bool    `json:"available"`
		Reason    *string `json:"reason"`
	} `json:"sql"`
	Spring struct {
		Present bool
		Ready   bool
	} `json:"-"`
}

// StatusData is the "jvm" section of the status report.
type StatusData struct {
	Connections    []ConnectionOut `json:"connections"`
	AttachableJVMs []JVMOut        `json:"attachableJvms"`
}

func (s *jvmStatus) agent(ctx context.Context, c *Connection) (agentStatus, error) {
	s.mu.Lock()
	if s.cache == nil {
		s.cache = map[string]agentStatusEntry{}
	}
	e, ok := s.cache[c.ID]
	s.mu.Unlock()
	if ok && time.Since(e.at) < 2*time.Second {
		return e.status, e.err
	}
	var st agentStatus
	var err error
	if c.HTTP == nil {
		err = fmt.Errorf("no HTTP port")
	} else {
		actx, cancel := context.WithTimeout(ctx, 700*time.Millisecond)
		err = c.HTTP.GetJSON(actx, "/status", nil, &st)
		if err == nil {
			st.Spring.Present, st.Spring.Ready, _ = c.HTTP.SpringReady(actx)
		}
		cancel()
	}
	s.mu.Lock()
	s.cache[c.ID] = agentStatusEntry{at: time.Now(), status: st, err: err}
	s.mu.Unlock()
	return st, err
}

// Status implements toolkit.StatusContributor.
func (s *jvmStatus) Status(ctx context.Context, q toolkit.StatusQuery) toolkit.StatusPart {
	t := s.t
	conns := t.svc.Connections()
	if q.Session != nil {
		var mine []*Connection
		for _, c := range conns {
			if q.Session.PID != 0 && c.PID == q.Session.PID {
				mine = append(mine, c)
			}
		}
		conns = mine
	}
	data := StatusData{Connections: []ConnectionOut{}, AttachableJVMs: []JVMOut{}}
	for _, c := range conns {
		data.Connections = append(data.Connections, connOut(c))
	}
	jvms, jerr := t.listJVMs(ctx, Common{ProjectPath: q.Project})
	if jerr == nil {
		for _, j := range jvms.JVMs {
			if j.Attachable && !j.Connected {
				data.AttachableJVMs = append(data.AttachableJVMs, j)
			}
		}
	}
	part := toolkit.StatusPart{Section: "jvm", Data: data}
	cap := func(name, state, reason string) {
		part.Capabilities = append(part.Capabilities, toolkit.CapabilityState{Name: name, State: state, Reason: reason})
	}
	switch len(conns) {
	case 0:
		reason := "no DebugTools connection"
		if len(data.AttachableJVMs) > 0 {
			reason += fmt.Sprintf("; %d attachable JVM(s)", len(data.AttachableJVMs))
			part.Suggestions = append(part.Suggestions, toolkit.Suggestion{Action: toolkit.NextAttachJVM, Priority: 50,
				Hint: fmt.Sprintf("attach a JVM with attach_local_jvm (pid %s: %s)", data.AttachableJVMs[0].PID, data.AttachableJVMs[0].DisplayName)})
		}
		for _, n := range []string{"invokeJavaMethod", "classLoaderQuery", "resultFetch", "logs", "sql"} {
			cap(n, toolkit.NotConfigured, reason)
		}
		return part
	case 1:
	default:
		part.Suggestions = append(part.Suggestions, toolkit.Suggestion{Action: toolkit.NextSelectConnection, Priority: 40,
			Hint: fmt.Sprintf("%d connections: pass connectionId to invoke_java_method", len(conns))})
	}
	c := conns[0]
	st, err := s.agent(ctx, c)
	cap("invokeJavaMethod", toolkit.Available, "connection "+c.ID)
	if c.HTTP == nil || err != nil {
		why := "agent HTTP endpoint unreachable"
		if err != nil {
			why += ": " + err.Error()
		}
		cap("classLoaderQuery", toolkit.Unavailable, why)
		cap("resultFetch", toolkit.Unavailable, why)
		cap("logs", toolkit.Unknown, why)
		cap("sql", toolkit.Unknown, why)
	} else {
		cap("classLoaderQuery", toolkit.Available, "")
		cap("resultFetch", toolkit.Available, "")
		if st.Logs.Available {
			cap("logs", toolkit.Available, "")
		} else {
			cap("logs", toolkit.Unavailable, fmt.Sprint(st.Logs.Problems))
		}
		switch {
		case st.SQL.Available:
			r := ""
			if st.SQL.Reason != nil {
				r = *st.SQL.Reason
			}
			cap("sql", toolkit.Available, r)
		case st.SQL.Reason != nil:
			cap("sql", toolkit.Unavailable, *st.SQL.Reason)
		default:
			cap("sql", toolkit.Unavailable, "SQL capture is not active")
		}
	}
	if err == nil && st.Spring.Present && !st.Spring.Ready {
		part.Suggestions = append(part.Suggestions, toolkit.Suggestion{Action: toolkit.NextWaitForSpring, Priority: 60,
			Hint: "the Spring context of " + c.ApplicationName + " is still starting; wait, or use run_and_invoke which waits"})
	} else if len(conns) == 1 {
		part.Suggestions = append(part.Suggestions, toolkit.Suggestion{Action: toolkit.NextInvoke, Priority: 20,
			Hint: "invoke a method with invoke_java_method (connection " + c.ID + ")"})
	}
	return part
}
