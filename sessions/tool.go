package sessions

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/sessions/toolkit"
)

// Envelope is the answer of every tool (SPEC §4): on success Data holds
// the tool's result; on failure Error says what went wrong and how to fix it.
type Envelope[T any] struct {
	Success   bool               `json:"success"`
	Data      *T                 `json:"data,omitempty"`
	Error     *toolkit.ToolError `json:"error,omitempty"`
	RequestID string             `json:"requestId"`
	Timestamp string             `json:"timestamp"`
}

// Toolbox adds tools to an MCP server with one contract for all of them:
// a JSON schema derived from the input struct, input decoded by dbg itself
// so bad input becomes INVALID_ARGUMENT, the result as structuredContent
// plus the same JSON as text, handler panics caught as INTERNAL_ERROR.
//
// A Toolbox is safe for concurrent use.
type Toolbox struct {
	srv    *mcp.Server
	now    func() time.Time
	prefix string
	seq    atomic.Uint64
	names  []string

	schemaOnce sync.Once
	schemaOpts *jsonschema.ForOptions
}

// NewToolbox returns a Toolbox adding tools to srv. now is the clock used
// for timestamps (nil = time.Now).
func NewToolbox(srv *mcp.Server, now func() time.Time) *Toolbox {
	if now == nil {
		now = time.Now
	}
	var b [4]byte
	_, _ = rand.Read(b[:])
	return &Toolbox{srv: srv, now: now, prefix: hex.EncodeToString(b[:])}
}

// Names lists the tools added so far, in order.
func (tb *Toolbox) Names() []string { return append([]string(nil), tb.names...) }

// Server returns the underlying MCP server.
func (tb *Toolbox) Server() *mcp.Server { return tb.srv }

// AddTool registers a tool. h returns the data of a successful answer or
// an error (a *toolkit.ToolError, or any error, converted by toolkit.AsToolError).
func AddTool[In, Out any](tb *Toolbox, name, description string, h func(ctx context.Context, in In) (Out, error)) {
	inSchema, err := jsonschema.For[In](tb.schemaOptions())
	if err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", name, err))
	}
	inSchema.AdditionalProperties = nil // tolerate extra fields from clients
	outSchema, err := jsonschema.For[Envelope[Out]](tb.schemaOptions())
	if err != nil {
		panic(fmt.Sprintf("tool %s: output schema: %v", name, err))
	}
	tool := &mcp.Tool{Name: name, Description: description, InputSchema: inSchema, OutputSchema: outSchema}
	tb.names = append(tb.names, name)
	tb.srv.AddTool(tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		env := Envelope[Out]{RequestID: fmt.Sprintf("%s-%d", tb.prefix, tb.seq.Add(1))}
		out, err := callTool(ctx, req, h)
		env.Timestamp = tb.now().UTC().Format(time.RFC3339Nano)
		if err != nil {
			env.Error = toolkit.AsToolError(err)
		} else {
			env.Success = true
			env.Data = &out
		}
		b, merr := json.Marshal(env)
		if merr != nil {
			b, _ = json.Marshal(Envelope[Out]{RequestID: env.RequestID, Timestamp: env.Timestamp,
				Error: toolkit.NewError(toolkit.CodeInternal, "cannot encode the result: "+merr.Error(), "")})
			env.Success = false
		}
		return &mcp.CallToolResult{
			IsError:           !env.Success,
			StructuredContent: json.RawMessage(b),
			Content:           []mcp.Content{&mcp.TextContent{Text: string(b)}},
		}, nil
	})
}

func callTool[In, Out any](ctx context.Context, req *mcp.CallToolRequest, h func(context.Context, In) (Out, error)) (out Out, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = toolkit.NewError(toolkit.CodeInternal, fmt.Sprintf("internal error: %v", r),
				"this is a bug in dbg; the server keeps running").WithDetails(string(debug.Stack()))
		}
	}()
	var in In
	if req != nil && req.Params != nil && len(req.Params.Arguments) > 0 && string(req.Params.Arguments) != "null" {
		if err := decodeArgs(req.Params.Arguments, &in); err != nil {
			return out, err
		}
	}
	return h(ctx, in)
}

// decodeArgs decodes tool arguments, turning type errors into a clear
// INVALID_ARGUMENT naming the field.
func decodeArgs(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			field := te.Field
			if field == "" {
				field = "arguments"
			}
			return toolkit.NewError(toolkit.CodeInvalidArgument,
				fmt.Sprintf("argument %q must be %s, not %s", field, jsonKind(te.Type.Kind().String()), te.Value),
				"fix the type of "+field+" and call again").Wrap(err)
		}
		return toolkit.NewError(toolkit.CodeInvalidArgument, "arguments are not a valid JSON object: "+err.Error(),
			"send the arguments as a JSON object").Wrap(err)
	}
	return nil
}

func jsonKind(goKind string) string {
	switch {
	case strings.HasPrefix(goKind, "int"), strings.HasPrefix(goKind, "uint"), strings.HasPrefix(goKind, "float"):
		return "a number"
	case goKind == "string":
		return "a string"
	case goKind == "bool":
		return "a boolean"
	case goKind == "slice", goKind == "array":
		return "an array"
	case goKind == "map", goKind == "struct":
		return "an object"
	}
	return "a " + goKind
}

// schemaOptions describes dbg's tolerant argument types.
// Types that recur in many tools are described once and reused.
func (tb *Toolbox) schemaOptions() *jsonschema.ForOptions {
	tb.schemaOnce.Do(func() {
		types := map[reflect.Type]*jsonschema.Schema{
			reflect.TypeFor[Int]():  {Types: []string{"integer", "string"}},
			reflect.TypeFor[Bool](): {Types: []string{"boolean", "string"}},
		}
		opts := &jsonschema.ForOptions{TypeSchemas: types}
		for _, t := range []reflect.Type{reflect.TypeFor[toolkit.ToolError](), reflect.TypeFor[StopInfo](), reflect.TypeFor[SourceLine]()} {
			if sc, err := jsonschema.ForType(t, opts); err == nil {
				types[t] = sc
			}
		}
		tb.schemaOpts = opts
	})
	return tb.schemaOpts
}
