package testrun

import (
	"context"
	"regexp"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/textcut"
)

// Bounds of a failure answer.
const (
	maxUserFrames    = 5
	maxFrameLocals   = 20
	maxLocalValueLen = 200
	maxOutputBytes   = 8 << 10
	stackDepth       = 64
	// outputSettle bounds the wait for the failure's message to reach the
	// session's output, which the adapter may deliver after the stop.
	outputSettle = 500 * time.Millisecond
)

// Failure is what a framework says about the failure at the stop.
type Failure struct {
	Message  string
	Expected string
	Actual   string
}

// UserFrame is one frame of the user's code at the failure.
type UserFrame struct {
	FrameID   int                  `json:"frameId"`
	Name      string               `json:"name"`
	File      string               `json:"file"`
	Line      int                  `json:"line"`
	Text      string               `json:"text,omitempty"`
	Locals    []Local              `json:"locals"`
	Truncated *sessions.Truncation `json:"truncation,omitempty"`
}

// Local is a local variable of a user frame.
type Local struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	Type  string `json:"type,omitempty"`
}

// failureReader reads the failure of a stopped test session.
type failureReader struct {
	s      *sessions.Session
	fw     *Framework
	p      *Project
	stop   *sessions.StopInfo
	frames []sessions.Frame
}

// output returns the session's output once ready reports it holds the
// failure's message, or after outputSettle.
func (r *failureReader) output(ctx context.Context, _ string, ready func(string) bool) string {
	deadline := time.Now().Add(outputSettle)
	for {
		out := r.s.Output().Text("")
		if ready(out) || time.Now().After(deadline) || ctx.Err() != nil {
			return out
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// userFrames are the frames of the user's code, top first.
func (r *failureReader) userFrames() []sessions.Frame {
	var out []sessions.Frame
	for _, f := range r.frames {
		if f.File != "" && f.Line > 0 && r.fw.UserFile(r.p, f.File) {
			out = append(out, f)
		}
	}
	return out
}

// withLocals reads the locals of up to maxUserFrames frames, bounded.
func (r *failureReader) withLocals(ctx context.Context, frames []sessions.Frame) []UserFrame {
	if len(frames) > maxUserFrames {
		frames = frames[:maxUserFrames]
	}
	out := make([]UserFrame, 0, len(frames))
	for _, f := range frames {
		uf := UserFrame{FrameID: f.ID, Name: frameName(f.Name), File: f.File, Line: f.Line, Text: f.Text, Locals: []Local{}}
		vars, _, _, err := r.s.LocalVariables(ctx, f.ID, nil)
		if err == nil {
			if r.fw.Internal != nil {
				kept := vars[:0]
				for _, v := range vars {
					if !r.fw.Internal(v.Name) {
						kept = append(kept, v)
					}
				}
				vars = kept
			}
			for i, v := range vars {
				if i == maxFrameLocals {
					uf.Truncated = &sessions.Truncation{Note: "more locals: get_local_variables with this frameId", Returned: maxFrameLocals, Total: len(vars)}
					break
				}
				uf.Locals = append(uf.Locals, Local{Name: v.Name, Value: textcut.Clip(v.Value, maxLocalValueLen), Type: v.Type})
			}
		}
		out = append(out, uf)
	}
	return out
}

// rustHash is the hash rustc appends to a symbol.
var rustHash = regexp.MustCompile(`::h[0-9a-f]{16}$`)

// frameName is a frame's function without what adapters add to it:
// debugpy's " (Current frame)", a Rust symbol's hash.
func frameName(name string) string {
	return rustHash.ReplaceAllString(strings.TrimSuffix(name, " (Current frame)"), "")
}
