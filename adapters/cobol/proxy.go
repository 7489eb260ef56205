package cobol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dbg-dev/dbg/dap"
	godap "github.com/google/go-dap"
)

// refBase is where the layer's variables references start; LLDB's own
// stay below it.
const (
	refBase     = 0x3f000000
	readTimeout = 10 * time.Second
)

// Layer returns the proxy layer that speaks COBOL to a debug session in
// front of LLDB's DAP adapter debugging a GnuCOBOL program; it goes in
// front of LLDB's own layer in one [dap.Proxy]. Everything passes through
// unchanged except:
//
//   - scopes of a frame in COBOL source start with "Locals": the
//     program's WORKING-STORAGE records by their COBOL names with decoded
//     values (LLDB's own scopes follow, renamed "C Locals"...);
//   - variables of those references, and evaluate of a data item's name
//     (WS-TOTAL), are answered by the layer, which reads the item's bytes
//     through LLDB ("memory read") and decodes them;
//   - setVariable of those references encodes the value for the item's
//     PICTURE and USAGE and writes it ("memory write");
//   - breakpoint conditions and log messages in COBOL terms (condbp.go),
//     and steps over and out of PERFORMed paragraphs (stepping.go).
//
// prog may be nil (no names known): then the layer passes everything.
//
// Requests the layer answers itself run on goroutines of the proxy
// ([dap.Link.Go]): they wait for LLDB. The layer's maps are guarded by
// its mutex.
func Layer(prog *Program) dap.Layer {
	return func(l *dap.Link) dap.Hooks {
		if prog == nil {
			return dap.Hooks{}
		}
		p := &layer{prog: prog, link: l, frames: map[int]bool{}, refs: map[int]varRef{},
			bpSpecs: map[int]*cobBP{}, bpByPath: map[string][]int{}}
		return dap.Hooks{Request: p.request, Response: p.response, Event: p.event}
	}
}

// layer is the COBOL layer of one proxy.
type layer struct {
	prog *Program
	link *dap.Link

	mu       sync.Mutex
	frames   map[int]bool // frame id → frame is in COBOL source
	refs     map[int]varRef
	nextRef  int
	step     stepState        // a COBOL step under way
	bpSpecs  map[int]*cobBP   // LLDB breakpoint id → its condition etc.
	bpByPath map[string][]int // source → ids in bpSpecs
}

// varRef is a variables reference the layer owns.
type varRef struct {
	frame int
	field *Field // nil: the WORKING-STORAGE scope
}

// request notes or answers a session request.
func (p *layer) request(r *dap.Request) dap.Verdict {
	switch r.Command {
	case "setBreakpoints":
		p.interceptBreakpoints(r)
	case "variables":
		var a struct {
			Ref int `json:"variablesReference"`
		}
		_ = r.DecodeBody(&a)
		p.mu.Lock()
		ref, ok := p.refs[a.Ref]
		p.mu.Unlock()
		if ok {
			p.link.Go(func() { p.variables(r, ref) })
			return dap.Hold
		}
	case "setVariable":
		var a godap.SetVariableArguments
		_ = r.DecodeBody(&a)
		p.mu.Lock()
		ref, ok := p.refs[a.VariablesReference]
		p.mu.Unlock()
		if ok {
			p.link.Go(func() { p.setVariable(r, ref, a.Name, a.Value) })
			return dap.Hold
		}
	case "evaluate":
		var a struct {
			Expression string `json:"expression"`
			FrameID    int    `json:"frameId"`
		}
		_ = r.DecodeBody(&a)
		if f, ok := Lookup(p.prog.Fields, a.Expression); ok {
			p.link.Go(func() { p.evaluate(r, f, a.FrameID) })
			return dap.Hold
		}
	case "stepOut", "next":
		var a struct {
			ThreadID int `json:"threadId"`
		}
		_ = r.DecodeBody(&a)
		if r.Command == "next" {
			p.link.Go(func() { p.stepOver(r, a.ThreadID) })
		} else {
			p.link.Go(func() { p.stepOut(r, a.ThreadID) })
		}
		return dap.Hold
	}
	return dap.Pass
}

// response adds what COBOL frames need to LLDB's answers.
func (p *layer) response(r *dap.Request, m *dap.Message) dap.Verdict {
	switch m.Command {
	case "stackTrace":
		p.noteFrames(m)
	case "setBreakpoints":
		p.noteBreakpoints(r, m)
	case "scopes":
		p.addScope(r, m)
	}
	return dap.Pass
}

// event forgets references at each stop and resume, and takes over the
// stops of COBOL steps and COBOL breakpoint conditions.
func (p *layer) event(m *dap.Message) dap.Verdict {
	if m.Event != "stopped" && m.Event != "continued" {
		return dap.Pass
	}
	p.mu.Lock()
	p.refs = map[int]varRef{}
	p.frames = map[int]bool{}
	p.mu.Unlock()
	if m.Event == "stopped" && (p.stepStopped(m) || p.conditionStop(m)) {
		return dap.Hold
	}
	return dap.Pass
}

// isCOBOL reports whether a source path is COBOL.
func (p *layer) isCOBOL(path string) bool {
	if path == p.prog.Source {
		return true
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".cob", ".cbl", ".cobol", ".cpy":
		return true
	}
	return false
}

// stackTraceBody is what the layer reads of a stackTrace answer: each
// frame's id and source path.
type stackTraceBody struct {
	StackFrames []struct {
		ID     int `json:"id"`
		Source struct {
			Path string `json:"path"`
		} `json:"source"`
	} `json:"stackFrames"`
}

func (p *layer) noteFrames(m *dap.Message) {
	if !m.OK() {
		return
	}
	var body stackTraceBody
	if err := m.DecodeBody(&body); err != nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, f := range body.StackFrames {
		p.frames[f.ID] = p.isCOBOL(f.Source.Path)
	}
}

// addScope puts the WORKING-STORAGE scope first in a scopes answer of a
// COBOL frame; it reports whether it changed m.
func (p *layer) addScope(r *dap.Request, m *dap.Message) bool {
	var a struct {
		FrameID int `json:"frameId"`
	}
	_ = r.DecodeBody(&a)
	frame := a.FrameID
	p.mu.Lock()
	isCOBOL := p.frames[frame]
	p.mu.Unlock()
	if !isCOBOL || !m.OK() || len(p.prog.Fields) == 0 {
		return false
	}
	var body struct {
		Scopes []map[string]any `json:"scopes"`
	}
	if err := m.DecodeBody(&body); err != nil {
		return false
	}
	for _, s := range body.Scopes {
		if name, _ := s["name"].(string); name != "" {
			s["name"] = "C " + name
		}
		delete(s, "presentationHint")
	}
	ref := p.newRef(varRef{frame: frame})
	scope := map[string]any{
		"name": "Locals", "presentationHint": "locals", "variablesReference": ref,
		"namedVariables": len(p.prog.Fields), "expensive": false,
	}
	body.Scopes = append([]map[string]any{scope}, body.Scopes...)
	b, err := json.Marshal(body)
	if err != nil {
		return false
	}
	m.Body = b
	return true
}

func (p *layer) newRef(r varRef) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.nextRef++
	ref := refBase + p.nextRef
	p.refs[ref] = r
	return ref
}

// variable is one entry of a variables answer.
type variable struct {
	Name               string `json:"name"`
	Value              string `json:"value"`
	Type               string `json:"type,omitempty"`
	VariablesReference int    `json:"variablesReference"`
	EvaluateName       string `json:"evaluateName,omitempty"`
}

// variables answers the WORKING-STORAGE scope (every record) or a group
// (its subordinates).
func (p *layer) variables(req *dap.Request, ref varRef) {
	fields := p.prog.Fields
	if ref.field != nil {
		fields = ref.field.Children
	}
	ctx, cancel := context.WithTimeout(p.link.Context(), readTimeout)
	defer cancel()
	out := make([]variable, 0, len(fields))
	cache := map[string][]byte{}
	for _, f := range fields {
		data, ok := cache[f.Storage]
		if !ok {
			rec := p.record(f)
			var err error
			if data, err = p.read(ctx, ref.frame, f.Storage, rec.Size); err != nil {
				req.Respond(nil, fmt.Errorf("read %s: %w", f.Name, err))
				return
			}
			cache[f.Storage] = data
		}
		out = append(out, p.describe(f, ref.frame, data))
	}
	req.Respond(map[string]any{"variables": out}, nil)
}

// record returns the level-01 record holding f.
func (p *layer) record(f *Field) *Field {
	for _, r := range p.prog.Fields {
		if r.Storage == f.Storage {
			return r
		}
	}
	return f
}

// describe decodes f from its record's bytes.
func (p *layer) describe(f *Field, frame int, rec []byte) variable {
	v := variable{Name: f.Name, Type: Type(f), EvaluateName: f.Name}
	end := f.Offset + f.Size
	if f.Offset < len(rec) {
		if end > len(rec) {
			end = len(rec)
		}
		v.Value = Decode(f, rec[f.Offset:end])
	}
	if len(f.Children) > 0 {
		v.VariablesReference = p.newRef(varRef{frame: frame, field: f})
	}
	return v
}

// setVariable encodes value for the named item of ref and writes it
// into the program's storage through LLDB.
func (p *layer) setVariable(req *dap.Request, ref varRef, name, value string) {
	fields := p.prog.Fields
	if ref.field != nil {
		fields = ref.field.Children
	}
	f, ok := Lookup(fields, name)
	if !ok {
		req.Respond(nil, fmt.Errorf("no data item %q here", name))
		return
	}
	data, err := Encode(f, value)
	if err != nil {
		req.Respond(nil, err)
		return
	}
	ctx, cancel := context.WithTimeout(p.link.Context(), readTimeout)
	defer cancel()
	if err := p.write(ctx, ref.frame, f.Storage, f.Offset, data); err != nil {
		req.Respond(nil, fmt.Errorf("write %s: %w", f.Name, err))
		return
	}
	v := p.describe(f, ref.frame, append(make([]byte, f.Offset), data...))
	req.Respond(map[string]any{"value": v.Value, "type": v.Type, "variablesReference": v.VariablesReference}, nil)
}

// write stores data at offset off of a storage array through LLDB.
func (p *layer) write(ctx context.Context, frame int, storage string, off int, data []byte) error {
	if !validStorage(storage) || off < 0 || len(data) == 0 {
		return fmt.Errorf("bad storage %q", storage)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "`memory write --size 1 --format x &%s[%d]", storage, off)
	for _, c := range data {
		fmt.Fprintf(&b, " 0x%02x", c)
	}
	args := map[string]any{"expression": b.String(), "context": "repl"}
	if frame != 0 {
		args["frameId"] = frame
	}
	resp, err := p.link.Call(ctx, "evaluate", args)
	if err != nil {
		return err
	}
	var body struct {
		Result string `json:"result"`
	}
	_ = resp.DecodeBody(&body)
	if strings.Contains(body.Result, "error:") {
		return errors.New(strings.TrimSpace(body.Result))
	}
	return nil
}

// evaluate answers the value of a data item named in an evaluate.
func (p *layer) evaluate(req *dap.Request, f *Field, frame int) {
	ctx, cancel := context.WithTimeout(p.link.Context(), readTimeout)
	defer cancel()
	rec := p.record(f)
	data, err := p.read(ctx, frame, f.Storage, rec.Size)
	if err != nil {
		req.Respond(nil, fmt.Errorf("read %s: %w", f.Name, err))
		return
	}
	v := p.describe(f, frame, data)
	req.Respond(map[string]any{"result": v.Value, "type": v.Type, "variablesReference": v.VariablesReference}, nil)
}

// read reads n bytes of a storage array through LLDB.
func (p *layer) read(ctx context.Context, frame int, storage string, n int) ([]byte, error) {
	if !validStorage(storage) || n <= 0 {
		return nil, fmt.Errorf("bad storage %q", storage)
	}
	expr := fmt.Sprintf("`memory read --size 1 --format x --count %d --force &%s[0]", n, storage)
	args := map[string]any{"expression": expr, "context": "repl"}
	if frame != 0 {
		args["frameId"] = frame
	}
	resp, err := p.link.Call(ctx, "evaluate", args)
	if err != nil {
		return nil, err
	}
	var body struct {
		Result string `json:"result"`
	}
	if err := resp.DecodeBody(&body); err != nil {
		return nil, err
	}
	data := ParseMemoryRead(body.Result)
	if len(data) < n {
		return nil, fmt.Errorf("lldb returned %d of %d bytes: %s", len(data), n, strings.TrimSpace(body.Result))
	}
	return data[:n], nil
}

// validStorage accepts cobc's storage names only (b_123), so nothing else
// reaches an LLDB command line.
func validStorage(s string) bool {
	if !strings.HasPrefix(s, "b_") || len(s) < 3 {
		return false
	}
	_, err := strconv.Atoi(s[2:])
	return err == nil
}

// ParseMemoryRead extracts the bytes of LLDB's
// `memory read --size 1 --format x` output
// ("0x5555...: 0x30 0x30 0x31"). Lines without an address are skipped.
func ParseMemoryRead(out string) []byte {
	var data []byte
	for _, line := range strings.Split(out, "\n") {
		addr, rest, ok := strings.Cut(strings.TrimSpace(line), ": ")
		if !ok || !strings.HasPrefix(addr, "0x") {
			continue
		}
		if _, err := strconv.ParseUint(addr[2:], 16, 64); err != nil {
			continue
		}
		for _, tok := range strings.Fields(rest) {
			if !strings.HasPrefix(tok, "0x") || len(tok) > 4 {
				break
			}
			v, err := strconv.ParseUint(tok[2:], 16, 8)
			if err != nil {
				break
			}
			data = append(data, byte(v))
		}
	}
	return data
}
