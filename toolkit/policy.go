package toolkit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/dbg-dev/dbg/textcut"
)

// Profile is the set of tools a server lets its clients use
// (docs/contract.md, "Limits the server enforces"). A tool the profile
// refuses is not listed, and a call to it answers UNSUPPORTED naming the
// profile; no argument lifts it.
type Profile string

const (
	// ProfileFull allows every tool.
	ProfileFull Profile = "full"
	// ProfileObserve leaves out the tools that alter the program or the
	// repository ([Hints].Alters); evaluations run without side effects.
	ProfileObserve Profile = "observe"
	// ProfileReadOnly keeps only the read-only tools.
	ProfileReadOnly Profile = "read-only"
)

// Profiles lists the profiles, for flags and errors.
var Profiles = []Profile{ProfileFull, ProfileObserve, ProfileReadOnly}

// ParseProfile reads a profile's name ("" is full).
func ParseProfile(s string) (Profile, error) {
	if s == "" {
		return ProfileFull, nil
	}
	for _, p := range Profiles {
		if string(p) == s {
			return p, nil
		}
	}
	return "", fmt.Errorf("unknown profile %q: one of full, observe, read-only", s)
}

// allows reports whether the profile lets clients use a tool of these hints.
func (p Profile) allows(h Hints) bool {
	switch p {
	case ProfileObserve:
		return !h.Alters
	case ProfileReadOnly:
		return h.ReadOnly
	}
	return true
}

// Policy is what a server enforces on every call, whatever its
// arguments. Set it with [Toolbox.SetPolicy] before adding tools.
type Policy struct {
	// Toolsets names the toolsets listed besides [CoreToolset]
	// ([AllToolsets]: every one). nil: the sets whose Wanted says so.
	Toolsets []string
	// Profile limits the tools clients may call ("" = full).
	Profile Profile
	// ConfirmDestructive asks the user, through the caller, before
	// every destructive call (see [Hints].Destructive and
	// [DestructiveWhen]). A "no" answers CANCELLED; a client that cannot
	// be asked is refused.
	ConfirmDestructive bool
	// Audit, when set, records every call of a tool that is not
	// read-only, and every call on a session another client owns.
	Audit *AuditLog
	// FullAnswers keeps every field in answers (--compact=false): fields
	// equal to their defaults, fields an earlier answer of the session
	// gave, and timestamps to the nanosecond. By default answers leave
	// them out (docs/contract.md, "What an agent can afford and trust").
	FullAnswers bool
}

// Compact reports whether answers leave out what the agent has (the
// default), or keep every field (--compact=false).
func (tb *Toolbox) Compact() bool { return !tb.Policy().FullAnswers }

// SetPolicy sets what the server enforces. Call it before any toolset is
// declared or tool added.
func (tb *Toolbox) SetPolicy(p Policy) {
	if p.Profile == "" {
		p.Profile = ProfileFull
	}
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.policy = p
	tb.notes = nil
}

// Policy returns what the server enforces.
func (tb *Toolbox) Policy() Policy {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	p := tb.policy
	if p.Profile == "" {
		p.Profile = ProfileFull
	}
	return p
}

// ProfileRefusal is the UNSUPPORTED error of what the server's profile
// refuses (what names it: a tool, or an argument such as sideEffects:
// true).
func ProfileRefusal(p Profile, what string) *ToolError {
	return NewError(CodeUnsupported, fmt.Sprintf("%s is refused: the server runs with --profile %s", what, p),
		"this server does not allow it; a server started with --profile full does")
}

// CodeCancelled answers a call the user declined when asked to confirm it.
const CodeCancelled = "CANCELLED"

// guard wraps a tool's call with what the policy enforces: the profile's
// refusal, the confirmation of destructive calls, the audit.
// The arguments are decoded here, once (see callArgs), before the audit
// reads the session they name.
func (tb *Toolbox) guard(name string, spec toolSpec, refused bool, call func(context.Context, *callArgs) (json.RawMessage, *ToolError)) func(context.Context, json.RawMessage) (json.RawMessage, bool) {
	return func(ctx context.Context, args json.RawMessage) (json.RawMessage, bool) {
		p := tb.Policy()
		var b json.RawMessage
		var failure *ToolError // the answer's error; nil: a success
		a := &callArgs{raw: args}
		if !refused {
			a.err = decodeGuarded(a, spec.decode)
		}
		// Every call that changes something is recorded, and every call
		// on another client's session.
		var session, owner string
		var pid int
		if p.Audit != nil {
			session = a.session(!refused && a.err == nil)
		}
		audit := p.Audit != nil && (!spec.hints.ReadOnly || p.Audit.foreign(ctx, session))
		if audit {
			pid, owner = p.Audit.target(ctx, session)
		}
		switch {
		case refused:
			failure = ProfileRefusal(p.Profile, name)
			b = tb.failure(failure)
		case p.ConfirmDestructive && a.err == nil && spec.destructiveCall(ctx, args): // an invalid call asks nothing
			if err := confirm(ctx, name, spec.hints.Title, args); err != nil {
				failure, b = err, tb.failure(err)
				break
			}
			fallthrough
		default:
			b, failure = call(ctx, a)
		}
		if audit {
			p.Audit.record(ctx, name, args, b, failure, session, pid, owner)
		}
		return b, failure != nil
	}
}

// decodeGuarded decodes a call's arguments with decode; a panic is an
// INTERNAL_ERROR.
func decodeGuarded(a *callArgs, decode func(*callArgs) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = internalError(r)
		}
	}()
	return decode(a)
}

// confirm asks the caller whether a destructive call may run: nil means
// yes.
func confirm(ctx context.Context, name, title string, args json.RawMessage) *ToolError {
	c := CallerOf(ctx)
	if c == nil {
		return noConfirmation(name)
	}
	yes, err := c.Confirm(ctx, question(name, title, args))
	switch {
	case errors.Is(err, ErrCannotConfirm):
		return noConfirmation(name)
	case err != nil:
		return NewError(CodeCancelled, "the confirmation of "+name+" failed: "+Clip(err.Error()), "call again to be asked again").Wrap(err)
	case !yes:
		return NewError(CodeCancelled, "the user declined "+name, "do not repeat the call unless the user asks for it")
	}
	return nil
}

// question is what the user is asked before a destructive call.
func question(name, title string, args json.RawMessage) string {
	return fmt.Sprintf("%s (%s) may be destructive: %s. Run it?", title, name, textcut.Clip(string(auditArgs(args)), ClipBytes))
}

// confirmation returns the question the server's policy asks before
// this call of a tool, or "" when the call runs without asking.
func (tb *Toolbox) confirmation(name string, spec toolSpec, refused bool) func(context.Context, json.RawMessage) string {
	return func(ctx context.Context, args json.RawMessage) string {
		if refused || !tb.Policy().ConfirmDestructive || !spec.destructiveCall(ctx, args) {
			return ""
		}
		return question(name, spec.hints.Title, args)
	}
}

func noConfirmation(name string) *ToolError {
	return NewError(CodeUnsupported, name+" needs the user's confirmation (--confirm destructive), and this client cannot be asked (no elicitation)",
		"use a client that supports elicitation, or a server started without --confirm destructive")
}

// failure is the envelope of a call the toolbox refused itself.
func (tb *Toolbox) failure(err *ToolError) json.RawMessage {
	id, ts := tb.stamp()
	b, _ := json.Marshal(Envelope[struct{}]{RequestID: id, Timestamp: ts, Error: err})
	return b
}
