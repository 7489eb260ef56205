package toolkit

import (
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

// Tool is a tool ready to be served: its name, description and schemas,
// and its call. The package mcpbind serves tools on an MCP server.
type Tool struct {
	Name         string
	Description  string
	InputSchema  *jsonschema.Schema
	OutputSchema *jsonschema.Schema
	// Call runs the tool on its raw JSON arguments (empty or "null": no
	// arguments) and returns its envelope as JSON, and whether the
	// envelope reports a failure. It never panics; it is safe for
	// concurrent use.
	Call func(ctx context.Context, args json.RawMessage) (envelope json.RawMessage, failed bool)
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
	// revealAll turns the redaction of credentials off (see reveal.go).
	revealAll atomic.Bool

	mu         sync.Mutex
	names      []string
	shared     []reflect.Type         // types described once (see ShareSchemas)
	schemaOpts *jsonschema.ForOptions // nil: rebuild from shared
	resources  ResourceServer         // nil: the server serves no resources
}

// NewToolbox returns a Toolbox handing each tool added to serve, which
// installs it in a server (mcpbind.NewToolbox: an MCP server). now is the
// clock used for timestamps (nil = time.Now).
func NewToolbox(serve func(Tool), now func() time.Time) *Toolbox {
	if now == nil {
		now = time.Now
	}
	var b [4]byte
	_, _ = rand.Read(b[:])
	return &Toolbox{serve: serve, now: now, prefix: hex.EncodeToString(b[:])}
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
func AddTool[In, Out any](tb *Toolbox, name, description string, h func(ctx context.Context, in In) (Out, error)) {
	inSchema, err := jsonschema.For[In](tb.schemaOptions())
	if err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", name, err))
	}
	// The schema stays open, so tools/list stays small; decodeArgs refuses
	// a name that is no argument, naming the closest.
	inSchema.AdditionalProperties = nil
	outSchema, err := jsonschema.For[Envelope[Out]](tb.schemaOptions())
	if err != nil {
		panic(fmt.Sprintf("tool %s: output schema: %v", name, err))
	}
	values := holdsValues(outSchema) // its answers may hold credentials: redact them
	var extra []string               // arguments the toolbox reads itself
	if values {
		inSchema = withRevealParam(inSchema)
		extra = append(extra, RevealParam)
	}
	tb.mu.Lock()
	tb.names = append(tb.names, name)
	tb.mu.Unlock()
	tb.serve(Tool{Name: name, Description: description, InputSchema: inSchema, OutputSchema: outSchema,
		Call: func(ctx context.Context, args json.RawMessage) (json.RawMessage, bool) {
			env := Envelope[Out]{RequestID: fmt.Sprintf("%s-%d", tb.prefix, tb.seq.Add(1))}
			var out Out
			var err error
			var ra redactArgs
			if values {
				ra, err = readRedactArgs(args)
			}
			if err == nil {
				out, err = callTool(ctx, args, h, extra)
			}
			env.Timestamp = tb.now().UTC().Format(time.RFC3339Nano)
			if err != nil {
				env.Error = clipError(AsToolError(err))
				if env.Error.keepData {
					env.Data = &out
				}
			} else {
				env.Success = true
				env.Data = &out
			}
			b, merr := json.Marshal(env)
			if merr != nil {
				b, _ = json.Marshal(Envelope[Out]{RequestID: env.RequestID, Timestamp: env.Timestamp,
					Error: NewError(CodeInternal, "cannot encode the result: "+merr.Error(), "")})
				env.Success = false
			}
			if values {
				b = tb.redactAnswer(ra, b)
			}
			return b, !env.Success
		}})
}

func callTool[In, Out any](ctx context.Context, args json.RawMessage, h func(context.Context, In) (Out, error), extra []string) (out Out, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = NewError(CodeInternal, fmt.Sprintf("internal error: %v", r),
				"this is a bug in dbg; the server keeps running").WithDetails(string(debug.Stack()))
		}
	}()
	var in In
	if len(args) > 0 && string(args) != "null" {
		if err := decodeArgs(args, &in, extra...); err != nil {
			return out, err
		}
	}
	return h(ctx, in)
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
		reflect.TypeFor[Int]():  {Types: []string{"integer", "string"}},
		reflect.TypeFor[Bool](): {Types: []string{"boolean", "string"}},
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
