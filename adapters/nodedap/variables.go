package nodedap

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/dap"
)

// varRef is what a DAP variablesReference stands for: one or more scope
// objects of a call frame (merged, inner first), or one object.
type varRef struct {
	callFrameID string
	parts       []scopePart   // scopes; empty for an object
	objectID    string        // an object
	entries     bool          // objectID is a Map or Set: list its entries
	this        *remoteObject // the Local scope also lists "this"
	names       map[string]int
}

type scopePart struct {
	objectID string
	number   int // index in the frame's scope chain
}

// newRefLocked registers r and returns its id. Call with mu held.
func (h *Handler) newRefLocked(r *varRef) int {
	h.refSeq++
	h.refs[h.refSeq] = r
	return h.refSeq
}

// ref is the reference id names at this stop, with the connection that
// reads it.
func (h *Handler) ref(id int) (*varRef, cdpConn, error) {
	h.mu.Lock()
	r := h.refs[id]
	h.mu.Unlock()
	if r == nil {
		return nil, nil, fmt.Errorf("variablesReference %d is not valid at this stop", id)
	}
	c, err := h.client()
	return r, c, err
}

// variable builds a DAP Variable for a value, registering a reference when
// it has children.
func (h *Handler) variable(name string, o *remoteObject) godap.Variable {
	v := godap.Variable{Name: name, Value: formatValue(o), Type: typeName(o)}
	if expandable(o) {
		r := &varRef{objectID: o.ObjectID, entries: o.Subtype == "map" || o.Subtype == "set"}
		h.mu.Lock()
		v.VariablesReference = h.newRefLocked(r)
		h.mu.Unlock()
		if o.Subtype == "array" || o.Subtype == "typedarray" {
			v.IndexedVariables = max(arrayLength(o.Description), 0)
		}
	}
	return v
}

// arrayLength reads n from "Array(n)" (-1 when absent).
func arrayLength(desc string) int {
	i := strings.IndexByte(desc, '(')
	j := strings.IndexByte(desc, ')')
	if i < 0 || j < i {
		return -1
	}
	n := 0
	for _, c := range desc[i+1 : j] {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// isIndex reports whether a property name is an array index.
func isIndex(name string) bool {
	if name == "" || len(name) > 10 {
		return false
	}
	for _, c := range name {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// maxChildren bounds how many children one variables request lists.
const maxChildren = 1000

func (h *Handler) variables(ctx context.Context, req *godap.VariablesRequest) (*godap.VariablesResponse, error) {
	a := &req.Arguments
	r, c, err := h.ref(a.VariablesReference)
	if err != nil {
		return nil, err
	}
	var vars []godap.Variable
	switch {
	case len(r.parts) > 0:
		vars, err = h.scopeVariables(ctx, c, r)
	case r.entries:
		vars, err = h.entryVariables(ctx, c, r.objectID)
	default:
		vars, err = h.objectVariables(ctx, c, r.objectID)
	}
	if err != nil {
		return nil, err
	}
	if a.Filter == "indexed" || a.Filter == "named" {
		kept := vars[:0]
		for _, v := range vars {
			if isIndex(v.Name) == (a.Filter == "indexed") {
				kept = append(kept, v)
			}
		}
		vars = kept
	}
	if a.Start > 0 {
		if a.Start >= len(vars) {
			vars = nil
		} else {
			vars = vars[a.Start:]
		}
	}
	if a.Count > 0 && len(vars) > a.Count {
		vars = vars[:a.Count]
	}
	if vars == nil {
		vars = []godap.Variable{}
	}
	return &godap.VariablesResponse{Body: godap.VariablesResponseBody{Variables: vars}}, nil
}

func (h *Handler) properties(ctx context.Context, c cdpConn, objectID string) (*propertiesResult, error) {
	var res propertiesResult
	err := c.Call(ctx, "Runtime.getProperties", map[string]any{
		"objectId": objectID, "ownProperties": true, "generatePreview": true,
	}, &res)
	if err != nil {
		return nil, err
	}
	if res.ExceptionDetails != nil {
		return nil, errors.New(res.ExceptionDetails.message())
	}
	return &res, nil
}

func (h *Handler) scopeVariables(ctx context.Context, c cdpConn, r *varRef) ([]godap.Variable, error) {
	names := map[string]int{}
	var out []godap.Variable
	for _, part := range r.parts {
		res, err := h.properties(ctx, c, part.objectID)
		if err != nil {
			return nil, err
		}
		for i := range res.Result {
			p := &res.Result[i]
			if _, seen := names[p.Name]; seen {
				continue // an inner scope shadows it
			}
			names[p.Name] = part.number
			out = append(out, h.property(h.current(ctx, c, r, part.number, p)))
		}
	}
	if r.this != nil && r.this.Type != "undefined" {
		if _, seen := names["this"]; !seen {
			out = append(out, h.variable("this", r.this))
		}
	}
	h.mu.Lock()
	r.names = names
	h.mu.Unlock()
	return out, nil
}

// current returns a scope variable's value as the program has it now.
// Scope objects keep the values of the pause, so after the variables may
// have changed (setVariable, an evaluation with side effects), what
// setVariable wrote is taken as written, and the others are read again
// in the frame. A name an inner scope shadows cannot be read by name: it
// keeps the pause's value unless setVariable wrote it.
func (h *Handler) current(ctx context.Context, c cdpConn, r *varRef, scope int, p *propertyDescriptor) *propertyDescriptor {
	if p.Value == nil {
		return p
	}
	h.mu.Lock()
	pause := h.pause
	var mutated bool
	var written *remoteObject
	if pause != nil {
		mutated = pause.mutated
		written = pause.written[writtenKey{r.callFrameID, scope, p.Name}]
	}
	h.mu.Unlock()
	if written != nil {
		return &propertyDescriptor{Name: p.Name, Value: written}
	}
	if !mutated || !identRE.MatchString(p.Name) || h.shadowed(ctx, c, r.callFrameID, scope, p.Name) {
		return p
	}
	var res evalResult
	err := c.Call(ctx, "Debugger.evaluateOnCallFrame", map[string]any{
		"callFrameId": r.callFrameID, "expression": p.Name, "objectGroup": "dbg",
		"silent": true, "generatePreview": true, "throwOnSideEffect": true,
	}, &res)
	if err != nil || res.ExceptionDetails != nil {
		return p
	}
	return &propertyDescriptor{Name: p.Name, Value: &res.Result}
}

// shadowed reports whether a scope inside scope of the call frame binds
// name too.
func (h *Handler) shadowed(ctx context.Context, c cdpConn, callFrameID string, scope int, name string) bool {
	h.mu.Lock()
	var inner []string
	if h.pause != nil {
		for _, f := range h.pause.frames {
			if f.CallFrameID == callFrameID {
				for i := 0; i < scope && i < len(f.ScopeChain); i++ {
					inner = append(inner, f.ScopeChain[i].Object.ObjectID)
				}
			}
		}
	}
	h.mu.Unlock()
	for _, id := range inner {
		res, err := h.properties(ctx, c, id)
		if err != nil {
			return true
		}
		for _, q := range res.Result {
			if q.Name == name {
				return true
			}
		}
	}
	return false
}

// noteMutation records that the paused program's variables may have
// changed; written, when set, is what setVariable wrote to scope's name.
func (h *Handler) noteMutation(k writtenKey, written *remoteObject) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.pause == nil {
		return
	}
	h.pause.mutated = true
	if written != nil {
		if h.pause.written == nil {
			h.pause.written = map[writtenKey]*remoteObject{}
		}
		h.pause.written[k] = written
	}
}

// property renders one property; accessors are shown, never called.
func (h *Handler) property(p *propertyDescriptor) godap.Variable {
	if p.Value == nil {
		v := godap.Variable{Name: p.Name, Value: "(getter)", Type: "accessor", PresentationHint: &godap.VariablePresentationHint{Kind: "property", Lazy: true}}
		if p.Get == nil || p.Get.Type == "undefined" {
			v.Value = "(setter)"
		}
		return v
	}
	return h.variable(p.Name, p.Value)
}

func (h *Handler) objectVariables(ctx context.Context, c cdpConn, objectID string) ([]godap.Variable, error) {
	res, err := h.properties(ctx, c, objectID)
	if err != nil {
		return nil, err
	}
	var out []godap.Variable
	for i := range res.Result {
		p := &res.Result[i]
		if p.Name == "__proto__" {
			continue
		}
		out = append(out, h.property(p))
		if len(out) >= maxChildren {
			return out, nil
		}
	}
	for i := range res.PrivateProperties {
		out = append(out, h.property(&res.PrivateProperties[i]))
	}
	for i := range res.InternalProperties {
		p := &res.InternalProperties[i]
		switch p.Name {
		case "[[Prototype]]", "[[Scopes]]", "[[Entries]]", "[[FunctionLocation]]":
			continue
		}
		out = append(out, h.property(p))
	}
	return out, nil
}

// entryVariables lists a Map's entries as key => value children and a
// Set's as indexed values, followed by size.
func (h *Handler) entryVariables(ctx context.Context, c cdpConn, objectID string) ([]godap.Variable, error) {
	res, err := h.properties(ctx, c, objectID)
	if err != nil {
		return nil, err
	}
	var out []godap.Variable
	var entriesID string
	for _, p := range res.InternalProperties {
		if p.Name == "[[Entries]]" && p.Value != nil {
			entriesID = p.Value.ObjectID
		}
	}
	if entriesID != "" {
		list, err := h.properties(ctx, c, entriesID)
		if err != nil {
			return nil, err
		}
		for _, e := range list.Result {
			if e.Value == nil || e.Value.ObjectID == "" {
				continue
			}
			kv, err := h.properties(ctx, c, e.Value.ObjectID)
			if err != nil {
				return nil, err
			}
			var key, val *remoteObject
			for _, f := range kv.Result {
				switch f.Name {
				case "key":
					key = f.Value
				case "value":
					val = f.Value
				}
			}
			name := e.Name
			if key != nil {
				name = formatValue(key)
				if key.Type == "string" {
					var s string
					if json.Unmarshal(key.Value, &s) == nil {
						name = s
					}
				}
			}
			out = append(out, h.variable(name, val))
			if len(out) >= maxChildren {
				break
			}
		}
	}
	for i := range res.Result {
		p := &res.Result[i]
		if p.Name == "size" || p.Name == "__proto__" {
			continue
		}
		out = append(out, h.property(p))
	}
	return out, nil
}

// evaluate answers evaluate; without side effects (and for hovers) it
// evaluates with V8's throwOnSideEffect.
func (h *Handler) evaluate(ctx context.Context, req *dap.EvaluateRequest) (*godap.EvaluateResponse, error) {
	a := &req.Arguments
	if strings.TrimSpace(a.Expression) == "" {
		return nil, errors.New("evaluate needs an expression")
	}
	c, err := h.client()
	if err != nil {
		return nil, err
	}
	o, err := h.eval(ctx, c, a.Expression, a.FrameId, a.Context == "hover" || req.NoSideEffects())
	if err != nil {
		return nil, err
	}
	v := h.variable("", o)
	return &godap.EvaluateResponse{Body: godap.EvaluateResponseBody{Result: v.Value, Type: v.Type, VariablesReference: v.VariablesReference,
		IndexedVariables: v.IndexedVariables}}, nil
}

// eval evaluates expr on a frame (the top frame when paused and frameID is
// 0) or, while running, in the program's global scope.
func (h *Handler) eval(ctx context.Context, c cdpConn, expr string, frameID int, noSideEffects bool) (*remoteObject, error) {
	h.mu.Lock()
	p := h.pause
	h.mu.Unlock()
	var res evalResult
	if p != nil && len(p.frames) > 0 {
		f := &p.frames[0]
		if frameID != 0 {
			var err error
			h.mu.Lock()
			f, err = p.frame(frameID)
			h.mu.Unlock()
			if err != nil {
				return nil, err
			}
		}
		err := c.Call(ctx, "Debugger.evaluateOnCallFrame", map[string]any{
			"callFrameId": f.CallFrameID, "expression": expr, "objectGroup": "dbg",
			"includeCommandLineAPI": true, "generatePreview": true, "throwOnSideEffect": noSideEffects,
		}, &res)
		if err != nil {
			return nil, err
		}
		if !noSideEffects {
			h.noteMutation(writtenKey{}, nil)
		}
	} else {
		// While JavaScript runs, node answers only between tasks: a
		// program busy in a loop never does.
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		err := c.Call(ctx, "Runtime.evaluate", map[string]any{
			"expression": expr, "objectGroup": "dbg", "includeCommandLineAPI": true,
			"generatePreview": true, "replMode": true, "awaitPromise": false,
			"throwOnSideEffect": noSideEffects,
		}, &res)
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, errors.New("the program is busy running JavaScript and cannot evaluate now; pause it first")
		}
		if err != nil {
			return nil, err
		}
	}
	if res.ExceptionDetails != nil {
		return nil, errors.New(firstLine(res.ExceptionDetails.message()))
	}
	return &res.Result, nil
}

func (h *Handler) setVariable(ctx context.Context, req *godap.SetVariableRequest) (*godap.SetVariableResponse, error) {
	a := &req.Arguments
	r, c, err := h.ref(a.VariablesReference)
	if err != nil {
		return nil, err
	}
	frameID := 0
	if r.callFrameID != "" {
		h.mu.Lock()
		if p := h.pause; p != nil {
			for i, f := range p.frames {
				if f.CallFrameID == r.callFrameID {
					frameID = p.base + i
				}
			}
		}
		h.mu.Unlock()
	}
	val, err := h.eval(ctx, c, a.Value, frameID, false)
	if err != nil {
		return nil, fmt.Errorf("value %q: %w", a.Value, err)
	}
	if len(r.parts) > 0 {
		h.mu.Lock()
		known := r.names != nil
		h.mu.Unlock()
		if !known {
			if _, err := h.scopeVariables(ctx, c, r); err != nil {
				return nil, err
			}
		}
		h.mu.Lock()
		n, ok := r.names[a.Name]
		h.mu.Unlock()
		if !ok {
			return nil, fmt.Errorf("no variable %q in this scope", a.Name)
		}
		err := c.Call(ctx, "Debugger.setVariableValue", map[string]any{
			"scopeNumber": n, "variableName": a.Name, "newValue": callArgument(val), "callFrameId": r.callFrameID,
		}, nil)
		if err != nil {
			return nil, err
		}
		h.noteMutation(writtenKey{r.callFrameID, n, a.Name}, val)
	} else {
		var res evalResult
		err := c.Call(ctx, "Runtime.callFunctionOn", map[string]any{
			"objectId":            r.objectID,
			"functionDeclaration": "function(k, v) { this[k] = v; return this[k]; }",
			"arguments":           []any{map[string]any{"value": a.Name}, callArgument(val)},
			"generatePreview":     true,
		}, &res)
		if err != nil {
			return nil, err
		}
		if res.ExceptionDetails != nil {
			return nil, errors.New(firstLine(res.ExceptionDetails.message()))
		}
		val = &res.Result
		h.noteMutation(writtenKey{}, nil)
	}
	v := h.variable(a.Name, val)
	return &godap.SetVariableResponse{Body: godap.SetVariableResponseBody{Value: v.Value, Type: v.Type, VariablesReference: v.VariablesReference}}, nil
}
