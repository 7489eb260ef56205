package cobol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dbg-dev/dbg/dap"
)

// Reference ranges of the proxy. LLDB's own references stay below
// refBase; the proxy's requests to LLDB use seqs from injectedSeq up.
const (
	refBase     = 0x3f000000
	injectedSeq = 1 << 30
	readTimeout = 10 * time.Second
)

// Proxy sits between a debug session and LLDB's DAP adapter debugging a
// GnuCOBOL program. Everything passes through unchanged except:
//
//   - scopes of a frame in COBOL source start with "Locals": the
//     program's WORKING-STORAGE records by their COBOL names with decoded
//     values (LLDB's own scopes follow, renamed "C Locals"...);
//   - variables of those references, and evaluate of a data item's name
//     (WS-TOTAL), are answered by the proxy, which reads the item's bytes
//     through LLDB ("memory read") and decodes them;
//   - setVariable of those references encodes the value for the item's
//     PICTURE and USAGE and writes it ("memory write").
//
// Goroutines: one reads the session's requests, one reads LLDB's
// messages; requests the proxy answers itself run on their own goroutine
// (they wait for LLDB). Writes to each side are serialised by a mutex;
// the maps are guarded by mu.
type Proxy struct {
	prog *Program
	up   io.ReadWriteCloser // LLDB's stream
	down net.Conn           // the proxy's end of the session's pipe

	upMu, downMu sync.Mutex

	mu        sync.Mutex
	downSeq   int
	injSeq    int
	frames    map[int]bool // frame id → frame is in COBOL source
	stackReqs map[int]bool // seqs of stackTrace requests
	scopeReqs map[int]int  // seq of scopes request → frame id
	refs      map[int]varRef
	nextRef   int
	waiting   map[int]chan *dap.Message // injected seq → its response
	step      stepState                 // a COBOL step under way
	bpReqs    map[int]bpRequest         // setBreakpoints seq → what the proxy keeps
	bpSpecs   map[int]*cobBP            // LLDB breakpoint id → its condition etc.
	bpByPath  map[string][]int          // source → ids in bpSpecs

	done      chan struct{}
	closeOnce sync.Once
	wg        sync.WaitGroup
}

// varRef is a variables reference the proxy owns.
type varRef struct {
	frame int
	field *Field // nil: the WORKING-STORAGE scope
}

// NewProxy starts a proxy over LLDB's stream up and returns the stream to
// give the session, and a stop function that closes both sides and waits
// for the proxy's goroutines. prog may be nil (no names known): then the
// proxy forwards everything.
func NewProxy(prog *Program, up io.ReadWriteCloser) (net.Conn, func()) {
	client, server := net.Pipe()
	p := &Proxy{prog: prog, up: up, down: server,
		frames: map[int]bool{}, stackReqs: map[int]bool{}, scopeReqs: map[int]int{},
		refs: map[int]varRef{}, waiting: map[int]chan *dap.Message{}, done: make(chan struct{}),
		bpReqs: map[int]bpRequest{}, bpSpecs: map[int]*cobBP{}, bpByPath: map[string][]int{}}
	p.wg.Add(2)
	go p.fromSession()
	go p.fromLLDB()
	return client, func() {
		p.close()
		p.wg.Wait()
	}
}

func (p *Proxy) close() {
	p.closeOnce.Do(func() {
		close(p.done)
		_ = p.up.Close()
		_ = p.down.Close()
	})
}

func (p *Proxy) sendDown(m *dap.Message) {
	p.mu.Lock()
	p.downSeq++
	if m.Seq == 0 {
		m.Seq = injectedSeq + p.downSeq
	}
	p.mu.Unlock()
	b, err := json.Marshal(m)
	if err != nil {
		return
	}
	p.downMu.Lock()
	defer p.downMu.Unlock()
	_ = dap.WriteFrame(p.down, b)
}

func (p *Proxy) writeUp(b []byte) error {
	p.upMu.Lock()
	defer p.upMu.Unlock()
	return dap.WriteFrame(p.up, b)
}

// respond answers a session request from the proxy.
func (p *Proxy) respond(req *dap.Message, body any, err error) {
	m := &dap.Message{Type: "response", RequestSeq: req.Seq, Command: req.Command}
	ok := err == nil
	m.Success = &ok
	if err != nil {
		m.Message = err.Error()
		body = map[string]any{"error": map[string]any{"id": 1, "format": err.Error(), "showUser": true}}
	}
	if body != nil {
		m.Body, _ = json.Marshal(body)
	}
	p.sendDown(m)
}

// fromSession forwards the session's requests, keeping what the answers
// need and answering COBOL variables and evaluations itself.
func (p *Proxy) fromSession() {
	defer p.wg.Done()
	defer p.close()
	fr := dap.NewFrameReader(p.down)
	for {
		body, err := fr.ReadFrame()
		if err != nil {
			return
		}
		m, err := dap.Decode(body)
		if err != nil || m.Type != "request" {
			_ = p.writeUp(body)
			continue
		}
		if p.prog != nil && m.Command == "setBreakpoints" {
			if b := p.interceptBreakpoints(m); b != nil {
				body = b
			}
		}
		if p.prog != nil && p.intercept(m) {
			continue
		}
		if err := p.writeUp(body); err != nil {
			return
		}
	}
}

// intercept notes or answers a request; true means it was answered.
func (p *Proxy) intercept(m *dap.Message) bool {
	switch m.Command {
	case "stackTrace":
		p.mu.Lock()
		p.stackReqs[m.Seq] = true
		p.mu.Unlock()
	case "scopes":
		var a struct {
			FrameID int `json:"frameId"`
		}
		_ = m.DecodeBody(&a)
		p.mu.Lock()
		p.scopeReqs[m.Seq] = a.FrameID
		p.mu.Unlock()
	case "variables":
		var a struct {
			Ref int `json:"variablesReference"`
		}
		_ = m.DecodeBody(&a)
		p.mu.Lock()
		ref, ok := p.refs[a.Ref]
		p.mu.Unlock()
		if !ok {
			return false
		}
		p.async(func() { p.variables(m, ref) })
		return true
	case "setVariable":
		var a struct {
			Ref   int    `json:"variablesReference"`
			Name  string `json:"name"`
			Value string `json:"value"`
		}
		_ = m.DecodeBody(&a)
		p.mu.Lock()
		ref, ok := p.refs[a.Ref]
		p.mu.Unlock()
		if ok {
			p.async(func() { p.setVariable(m, ref, a.Name, a.Value) })
			return true
		}
	case "evaluate":
		var a struct {
			Expression string `json:"expression"`
			FrameID    int    `json:"frameId"`
		}
		_ = m.DecodeBody(&a)
		f, ok := Lookup(p.prog.Fields, a.Expression)
		if !ok {
			return false
		}
		p.async(func() { p.evaluate(m, f, a.FrameID) })
		return true
	case "stepOut", "next":
		var a struct {
			ThreadID int `json:"threadId"`
		}
		_ = m.DecodeBody(&a)
		if m.Command == "next" {
			p.async(func() { p.stepOver(m, a.ThreadID) })
		} else {
			p.async(func() { p.stepOut(m, a.ThreadID) })
		}
		return true
	}
	return false
}

func (p *Proxy) async(f func()) {
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		f()
	}()
}

// fromLLDB forwards LLDB's messages, adding the COBOL scope to scopes
// answers of COBOL frames and routing answers to the proxy's requests.
func (p *Proxy) fromLLDB() {
	defer p.wg.Done()
	defer p.close()
	fr := dap.NewFrameReader(p.up)
	for {
		body, err := fr.ReadFrame()
		if err != nil {
			p.mu.Lock()
			for seq, ch := range p.waiting {
				close(ch)
				delete(p.waiting, seq)
			}
			p.mu.Unlock()
			return
		}
		m, err := dap.Decode(body)
		if err != nil || p.prog == nil {
			p.forward(body)
			continue
		}
		switch {
		case m.Type == "response" && m.RequestSeq >= injectedSeq:
			p.mu.Lock()
			ch, ok := p.waiting[m.RequestSeq]
			delete(p.waiting, m.RequestSeq)
			p.mu.Unlock()
			if ok {
				ch <- m
			}
			continue
		case m.Type == "response" && m.Command == "stackTrace":
			p.noteFrames(m)
		case m.Type == "response" && m.Command == "setBreakpoints":
			if p.noteBreakpoints(m) {
				p.sendDown(m)
				continue
			}
		case m.Type == "response" && m.Command == "scopes":
			if p.addScope(m) {
				p.sendDown(m)
				continue
			}
		case m.Type == "event" && (m.Event == "stopped" || m.Event == "continued"):
			p.mu.Lock()
			p.refs = map[int]varRef{}
			p.frames = map[int]bool{}
			p.mu.Unlock()
			if m.Event == "stopped" && (p.stepStopped(m) || p.conditionStop(m)) {
				continue
			}
		}
		p.forward(body)
	}
}

func (p *Proxy) forward(body []byte) {
	p.downMu.Lock()
	defer p.downMu.Unlock()
	_ = dap.WriteFrame(p.down, body)
}

// isCOBOL reports whether a source path is COBOL.
func (p *Proxy) isCOBOL(path string) bool {
	if path == p.prog.Source {
		return true
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".cob", ".cbl", ".cobol", ".cpy":
		return true
	}
	return false
}

func (p *Proxy) noteFrames(m *dap.Message) {
	p.mu.Lock()
	known := p.stackReqs[m.RequestSeq]
	delete(p.stackReqs, m.RequestSeq)
	p.mu.Unlock()
	if !known || !m.OK() {
		return
	}
	var body struct {
		StackFrames []struct {
			ID     int `json:"id"`
			Source struct {
				Path string `json:"path"`
			} `json:"source"`
		} `json:"stackFrames"`
	}
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
func (p *Proxy) addScope(m *dap.Message) bool {
	p.mu.Lock()
	frame, known := p.scopeReqs[m.RequestSeq]
	delete(p.scopeReqs, m.RequestSeq)
	isCOBOL := p.frames[frame]
	p.mu.Unlock()
	if !known || !isCOBOL || !m.OK() || len(p.prog.Fields) == 0 {
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

func (p *Proxy) newRef(r varRef) int {
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
func (p *Proxy) variables(req *dap.Message, ref varRef) {
	fields := p.prog.Fields
	if ref.field != nil {
		fields = ref.field.Children
	}
	ctx, cancel := context.WithTimeout(context.Background(), readTimeout)
	defer cancel()
	out := make([]variable, 0, len(fields))
	cache := map[string][]byte{}
	for _, f := range fields {
		data, ok := cache[f.Storage]
		if !ok {
			rec := p.record(f)
			var err error
			if data, err = p.read(ctx, ref.frame, f.Storage, rec.Size); err != nil {
				p.respond(req, nil, fmt.Errorf("read %s: %w", f.Name, err))
				return
			}
			cache[f.Storage] = data
		}
		out = append(out, p.describe(f, ref.frame, data))
	}
	p.respond(req, map[string]any{"variables": out}, nil)
}

// record returns the level-01 record holding f.
func (p *Proxy) record(f *Field) *Field {
	for _, r := range p.prog.Fields {
		if r.Storage == f.Storage {
			return r
		}
	}
	return f
}

// describe decodes f from its record's bytes.
func (p *Proxy) describe(f *Field, frame int, rec []byte) variable {
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
func (p *Proxy) setVariable(req *dap.Message, ref varRef, name, value string) {
	fields := p.prog.Fields
	if ref.field != nil {
		fields = ref.field.Children
	}
	f, ok := Lookup(fields, name)
	if !ok {
		p.respond(req, nil, fmt.Errorf("no data item %q here", name))
		return
	}
	data, err := Encode(f, value)
	if err != nil {
		p.respond(req, nil, err)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), readTimeout)
	defer cancel()
	if err := p.write(ctx, ref.frame, f.Storage, f.Offset, data); err != nil {
		p.respond(req, nil, fmt.Errorf("write %s: %w", f.Name, err))
		return
	}
	v := p.describe(f, ref.frame, append(make([]byte, f.Offset), data...))
	p.respond(req, map[string]any{"value": v.Value, "type": v.Type, "variablesReference": v.VariablesReference}, nil)
}

// write stores data at offset off of a storage array through LLDB.
func (p *Proxy) write(ctx context.Context, frame int, storage string, off int, data []byte) error {
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
	resp, err := p.call(ctx, "evaluate", args)
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
func (p *Proxy) evaluate(req *dap.Message, f *Field, frame int) {
	ctx, cancel := context.WithTimeout(context.Background(), readTimeout)
	defer cancel()
	rec := p.record(f)
	data, err := p.read(ctx, frame, f.Storage, rec.Size)
	if err != nil {
		p.respond(req, nil, fmt.Errorf("read %s: %w", f.Name, err))
		return
	}
	v := p.describe(f, frame, data)
	p.respond(req, map[string]any{"result": v.Value, "type": v.Type, "variablesReference": v.VariablesReference}, nil)
}

// read reads n bytes of a storage array through LLDB.
func (p *Proxy) read(ctx context.Context, frame int, storage string, n int) ([]byte, error) {
	if !validStorage(storage) || n <= 0 {
		return nil, fmt.Errorf("bad storage %q", storage)
	}
	expr := fmt.Sprintf("`memory read --size 1 --format x --count %d --force &%s[0]", n, storage)
	args := map[string]any{"expression": expr, "context": "repl"}
	if frame != 0 {
		args["frameId"] = frame
	}
	resp, err := p.call(ctx, "evaluate", args)
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

// call sends a request of the proxy's own to LLDB and waits for its answer.
func (p *Proxy) call(ctx context.Context, command string, args any) (*dap.Message, error) {
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	ch := make(chan *dap.Message, 1)
	p.mu.Lock()
	p.injSeq++
	seq := injectedSeq + p.injSeq
	p.waiting[seq] = ch
	p.mu.Unlock()
	b, err := json.Marshal(&dap.Message{Seq: seq, Type: "request", Command: command, Arguments: raw})
	if err != nil {
		return nil, err
	}
	if err := p.writeUp(b); err != nil {
		return nil, err
	}
	select {
	case m, ok := <-ch:
		if !ok {
			return nil, dap.ErrClosed
		}
		if !m.OK() {
			return nil, errors.New(m.ErrorText())
		}
		return m, nil
	case <-ctx.Done():
		p.mu.Lock()
		delete(p.waiting, seq)
		p.mu.Unlock()
		return nil, ctx.Err()
	case <-p.done:
		return nil, dap.ErrClosed
	}
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
