package toolkit

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
)

// Tool is a tool ready to be served: its name, description, input schema
// and hints, and its call. The package mcpbind serves tools on an MCP
// server. Answers are always the [Envelope], so a tool has no output
// schema of its own: structured content goes without one, and the list
// a client reads stays small.
type Tool struct {
	Name        string
	Description string
	InputSchema *jsonschema.Schema
	Hints       Hints
	// HintsDeclared says the tool declared its hints; without, Hints
	// are MCP's defaults (destructive, open-world) and none is served.
	HintsDeclared bool
	Toolset       string
	// Call runs the tool on its raw JSON arguments (empty or "null": no
	// arguments) and returns its envelope as JSON, and whether the
	// envelope reports a failure. It never panics; it is safe for
	// concurrent use. It enforces the server's [Policy].
	Call func(ctx context.Context, args json.RawMessage) (envelope json.RawMessage, failed bool)
	// Links returns the resources an answer links to (nil: none).
	Links func(envelope json.RawMessage) []ResourceLink
	// Confirmation returns the question to ask the user before this
	// call, or "" when the server's policy runs it without asking. Call
	// asks through the context's [Caller] all the same; a binding whose
	// protocol asks between two rounds of a call (MCP's input requests)
	// asks first and hands Call a Caller that knows the answer.
	Confirmation func(ctx context.Context, args json.RawMessage) string
}

// Toolbox adds tools to a server with one contract for all of them:
// a JSON schema derived from the input struct, input decoded by dbg itself
// so bad input becomes INVALID_ARGUMENT, every answer an [Envelope],
// handler panics caught as INTERNAL_ERROR. It knows no protocol: each tool
// is handed, as a [Tool], to the serve function it was made with.
//
// A Toolbox also carries the status registry that get_debug_tools_status
// reads, so a capability plugs into a server through its Toolbox alone:
// its tools with [AddTool], its status with tb.Status().Register.
//
// A Toolbox is safe for concurrent use.
type Toolbox struct {
	serve  func(Tool)
	now    func() time.Time
	prefix string
	seq    atomic.Uint64
	status StatusRegistry
	// revealAll turns the redaction of credentials off, noReveal makes a
	// call's reveal: true an error (see reveal.go).
	revealAll, noReveal atomic.Bool

	mu         sync.Mutex
	names      []string
	shared     []reflect.Type         // types described once (see ShareSchemas)
	schemaOpts *jsonschema.ForOptions // nil: rebuild from shared
	resources  ResourceServer         // nil: the server serves no resources
	linked     []ResourceTemplate     // the templates answers link to
	prompts    PromptServer           // nil: the server serves no prompts
	allPrompts []Prompt

	policy   Policy
	sets     map[string]*toolset
	setOrder []string
	tools    map[string]*toolEntry
	notes    map[string]string // see mentionNotes; nil: to be made again
}

// toolEntry is a tool added to the toolbox and whether it is listed.
type toolEntry struct {
	tool    Tool
	refused bool // by the profile
	listed  bool
}

// NewToolbox returns a Toolbox handing each tool added to serve, which
// installs it in a server (mcpbind.NewToolbox: an MCP server); serve is
// called again for a tool when it becomes listed ([Toolbox.Listed] says
// which tools the server's list shows). now is the clock used for
// timestamps (nil = time.Now). Until [Toolbox.SetPolicy] says otherwise,
// every toolset is listed and every tool allowed.
func NewToolbox(serve func(Tool), now func() time.Time) *Toolbox {
	if now == nil {
		now = time.Now
	}
	var b [2]byte // tells this server's requests from another's in a log
	_, _ = rand.Read(b[:])
	tb := &Toolbox{serve: serve, now: now, prefix: hex.EncodeToString(b[:]),
		policy: Policy{Toolsets: []string{AllToolsets}, Profile: ProfileFull}}
	tb.DeclareToolset(Toolset{Name: CoreToolset, Description: "sessions, breakpoints, execution, inspection, status"})
	return tb
}

// Names lists the tools added so far, in order.
func (tb *Toolbox) Names() []string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return append([]string(nil), tb.names...)
}

// Status returns the registry of status contributors of this server.
func (tb *Toolbox) Status() *StatusRegistry { return &tb.status }

// ShareSchemas describes types that recur in many tools' inputs or
// outputs once, and reuses that schema in every tool added after the call.
// It changes how fast schemas are built, never what they say.
func (tb *Toolbox) ShareSchemas(types ...reflect.Type) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.shared = append(tb.shared, types...)
	tb.schemaOpts = nil
}

// AddTool registers a tool. h returns the data of a successful answer or
// an error (a *ToolError, or any error, converted by AsToolError). When
// the operation itself failed (a business failure: a thrown invocation, a
// refused pull), h returns its data together with a ToolError marked
// [ToolError.KeepData]: the envelope then says success false, the code
// says which failure, and data keeps the tool's own fields.
//
// opts declare the tool's [Hints] (each of dbg's tools declares them: a
// title, and whether it is read-only, destructive, idempotent,
// open-world, or alters the program; without, MCP's defaults hold), its
// toolset ([InToolset]), which calls are destructive ([DestructiveWhen])
// and whether answers link resources ([LinkResources]).
func AddTool[In, Out any](tb *Toolbox, name, description string, h func(ctx context.Context, in In) (Out, error), opts ...ToolOption) {
	spec := toolSpec{toolset: CoreToolset}
	for _, o := range opts {
		o.apply(&spec)
	}
	inSchema, err := jsonschema.For[In](tb.schemaOptions())
	if err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", name, err))
	}
	// The schema stays open, so tools/list stays small; decodeArgs refuses
	// a name that is no argument, naming the closest.
	inSchema.AdditionalProperties = nil
	values := holdsValues(reflect.TypeFor[Out]()) // its answers may hold credentials: redact them
	var extra []string                            // arguments the toolbox reads itself
	if values {
		if spec.listReveal {
			inSchema = withRevealParam(inSchema)
		}
		extra = append(extra, RevealParam)
	}
	inSchema = compactSchema(inSchema, spec.enums)
	spec.decode = func(a *callArgs) error { return a.decode(new(In), extra) }
	tb.install(Tool{Name: name, Description: description, InputSchema: inSchema},
		spec, func(ctx context.Context, a *callArgs) (json.RawMessage, *ToolError) {
			var env Envelope[Out]
			var out Out
			err := a.err
			var ra redactArgs
			if err == nil && values {
				ra, err = tb.redactArgsOf(a)
			}
			if err == nil {
				out, err = callTool(ctx, a.in.Interface().(*In), h)
			}
			env.RequestID, env.Timestamp = tb.stamp()
			if err != nil {
				env.Error = clipError(AsToolError(err))
				if env.Error.keepData {
					env.Data = &out
				}
			} else {
				env.Success = true
				env.Data = &out
			}
			b, merr := Marshal(env)
			if merr != nil {
				env.Error = NewError(CodeInternal, "cannot encode the result: "+merr.Error(), "")
				b, _ = json.Marshal(Envelope[Out]{RequestID: env.RequestID, Timestamp: env.Timestamp, Error: env.Error})
			}
			if !fromShell(ctx) {
				b = tb.mentionAnswer(b, name)
			}
			if values {
				b = tb.redactAnswer(ra, b)
			}
			return b, env.Error
		})
}

// Marshal encodes v as JSON without escaping <, > and & (answers are not
// HTML, and code is full of them: "<module>", "a < b", "&&").
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// stamp returns a new request id and the time, for an envelope.
// The time is to the millisecond, or to the nanosecond with
// [Policy].FullAnswers.
func (tb *Toolbox) stamp() (requestID, timestamp string) {
	layout := "2006-01-02T15:04:05.000Z07:00"
	if !tb.Compact() {
		layout = time.RFC3339Nano
	}
	return fmt.Sprintf("%s-%d", tb.prefix, tb.seq.Add(1)), tb.now().UTC().Format(layout)
}

// install adds a tool with its options and its unguarded call, and
// serves it; it is listed when its toolset is and the profile allows it.
func (tb *Toolbox) install(t Tool, spec toolSpec, call func(context.Context, *callArgs) (json.RawMessage, *ToolError)) {
	if !spec.declared {
		spec.hints = undeclared
	}
	spec.hints.check(t.Name)
	t.Hints, t.HintsDeclared, t.Toolset = spec.hints, spec.declared, spec.toolset
	tb.mu.Lock()
	set := tb.sets[spec.toolset]
	if set == nil {
		tb.mu.Unlock()
		panic(fmt.Sprintf("tool %s: toolset %q is not declared", t.Name, spec.toolset))
	}
	if tb.tools[t.Name] != nil {
		tb.mu.Unlock()
		panic(fmt.Sprintf("tool %s is added twice", t.Name))
	}
	e := &toolEntry{refused: !tb.policy.Profile.allows(spec.hints)}
	t.Call = tb.guard(t.Name, spec, e.refused, call)
	t.Confirmation = tb.confirmation(t.Name, spec, e.refused)
	if spec.links {
		t.Links = tb.linksOf
	}
	e.tool = t
	e.listed = set.lists(t.Name) && !e.refused
	if tb.tools == nil {
		tb.tools = map[string]*toolEntry{}
	}
	tb.tools[t.Name] = e
	tb.notes = nil
	tb.names = append(tb.names, t.Name)
	set.tools = append(set.tools, t.Name)
	tb.mu.Unlock()
	tb.serve(t)
}

// callTool runs a tool's handler on its decoded input; a panic is an
// INTERNAL_ERROR.
func callTool[In, Out any](ctx context.Context, in *In, h func(context.Context, In) (Out, error)) (out Out, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = internalError(r)
		}
	}()
	return h(ctx, *in)
}

// internalError is the answer of a panic: a bug in dbg.
func internalError(r any) *ToolError {
	return NewError(CodeInternal, fmt.Sprintf("internal error: %v", r),
		"this is a bug in dbg; the server keeps running").WithDetails(string(debug.Stack()))
}

// schemaOptions describes dbg's tolerant argument types, and the shared
// types once each.
func (tb *Toolbox) schemaOptions() *jsonschema.ForOptions {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	if tb.schemaOpts != nil {
		return tb.schemaOpts
	}
	types := map[reflect.Type]*jsonschema.Schema{
		// The schema says what to send; the decoder also takes the
		// numeric and boolean strings some clients send.
		reflect.TypeFor[Int]():  {Type: "integer"},
		reflect.TypeFor[Bool](): {Type: "boolean"},
	}
	opts := &jsonschema.ForOptions{TypeSchemas: types}
	for _, t := range append([]reflect.Type{reflect.TypeFor[ToolError]()}, tb.shared...) {
		if sc, err := jsonschema.ForType(t, opts); err == nil {
			types[t] = sc
		}
	}
	tb.schemaOpts = opts
	return opts
}
