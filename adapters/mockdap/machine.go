package mockdap

import (
	"context"
	"fmt"
	"maps"
	"sort"
	"time"
)

type frame struct {
	id     int
	fn     *function // nil at the top level
	pc     int
	locals map[string]value
	dest   string           // caller's variable receiving the return value
	entry  map[string]value // the locals it was called with (restartFrame)
}

func (f *frame) name() string {
	if f.fn == nil {
		return "main"
	}
	return f.fn.name
}

func (f *frame) localNames() []string {
	names := make([]string, 0, len(f.locals))
	for n := range f.locals {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// stepMode is how the machine runs until its next stop.
type stepMode int

const (
	runContinue stepMode = iota
	runNext
	runStepIn
	runStepOut
)

// stopEvent is why the machine stopped; done means the program ended.
type stopEvent struct {
	reason      string // breakpoint, step, pause, exception, entry, function breakpoint
	description string
	text        string
	bpIDs       []int
	done        bool
	exitCode    int
	data        map[string]any // a data breakpoint's values
}

// machine executes a program. It is driven by one goroutine at a time
// (the adapter's runner); inspection happens only while it is stopped.
type machine struct {
	prog     *program
	frames   []*frame
	nextID   int
	lastLine int
	lastDep  int
	thrown   string // pending uncaught exception
	output   func(category, text string)
	// watchPassed lets the write a data breakpoint stopped before run
	// when the program resumes.
	watchPassed bool
}

func newMachine(p *program, args []string, output func(category, text string)) *machine {
	m := &machine{prog: p, output: output}
	argv := make([]value, len(args))
	for i, a := range args {
		argv[i] = a
	}
	m.push(nil, p.entry, map[string]value{"args": argv}, "")
	return m
}

func (m *machine) push(fn *function, pc int, locals map[string]value, dest string) {
	m.nextID++
	m.frames = append(m.frames, &frame{id: m.nextID, fn: fn, pc: pc, locals: locals, dest: dest, entry: maps.Clone(locals)})
}

func (m *machine) top() *frame { return m.frames[len(m.frames)-1] }

func (m *machine) current() *instr {
	if len(m.frames) == 0 {
		return nil
	}
	return &m.prog.code[m.top().pc]
}

// lookupIn resolves names in a frame, then at the top level.
func (m *machine) lookupIn(f *frame) lookup {
	return func(name string) (value, bool) {
		if v, ok := f.locals[name]; ok {
			return v, true
		}
		if len(m.frames) > 0 {
			if v, ok := m.frames[0].locals[name]; ok {
				return v, true
			}
		}
		return nil, false
	}
}

// hooks decide stops; they are called before each instruction.
type hooks struct {
	breakAt   func(line int, vars lookup) (bool, []int)
	breakFunc func(name string) bool
	breakExc  func(uncaught bool) bool
	paused    func() bool
	// breakWrite decides whether a write of a variable stops (nil: never).
	breakWrite func(m *machine, f *frame, name string, v value) (stopEvent, bool)
}

// run executes until a stop. The first instruction after a resume never
// re-triggers the breakpoint of the line the machine is on.
func (m *machine) run(ctx context.Context, mode stepMode, h hooks) stopEvent {
	startDepth := len(m.frames)
	first := true
	for {
		if ctx.Err() != nil {
			return stopEvent{done: true, exitCode: 137}
		}
		if len(m.frames) == 0 {
			return stopEvent{done: true}
		}
		f := m.top()
		in := &m.prog.code[f.pc]
		depth := len(m.frames)
		arrived := in.line != m.lastLine || depth != m.lastDep
		if !first && !in.synthetic {
			switch mode {
			case runNext:
				if depth < startDepth || depth == startDepth && arrived {
					return stopEvent{reason: "step"}
				}
			case runStepIn:
				if arrived {
					return stopEvent{reason: "step"}
				}
			case runStepOut:
				if depth < startDepth {
					return stopEvent{reason: "step"}
				}
			}
			if arrived {
				if ok, ids := h.breakAt(in.line, m.lookupIn(f)); ok {
					return stopEvent{reason: "breakpoint", bpIDs: ids}
				}
			}
			if h.paused() {
				return stopEvent{reason: "pause"}
			}
		}
		first = false
		if !in.synthetic {
			m.lastLine, m.lastDep = in.line, depth
		}
		if ev, stop := m.step(ctx, h); stop {
			return ev
		}
	}
}

// step executes one instruction.
func (m *machine) step(ctx context.Context, h hooks) (stopEvent, bool) {
	f := m.top()
	in := m.prog.code[f.pc]
	vars := m.lookupIn(f)
	eval := func(s string) (value, bool) {
		v, err := evalExpr(s, vars)
		if err != nil {
			m.thrown = fmt.Sprintf("line %d: %v", in.line, err)
			return nil, false
		}
		return v, true
	}
	fail := func() (stopEvent, bool) {
		if h.breakExc(true) {
			return stopEvent{reason: "exception", description: "Uncaught exception", text: m.thrown}, true
		}
		return m.crash(), true
	}
	switch in.op {
	case opLet:
		v, ok := eval(in.expr)
		if !ok {
			return fail()
		}
		if ev, stop := m.watchWrite(h, f, in.name, v); stop {
			return ev, true
		}
		f.locals[in.name] = v
		f.pc++
	case opPrint:
		m.output("stdout", interpolate(in.expr, vars)+"\n")
		f.pc++
	case opForInit:
		v, ok := eval(in.expr)
		if !ok {
			return fail()
		}
		f.locals[in.name] = v
		f.pc++
	case opForCheck:
		hi, ok := eval(in.hi)
		if !ok {
			return fail()
		}
		cur, _ := f.locals[in.name].(int64)
		limit, _ := hi.(int64)
		if cur > limit {
			f.pc = in.target
		} else {
			f.pc++
		}
	case opForNext:
		cur, _ := f.locals[in.name].(int64)
		f.locals[in.name] = cur + 1
		f.pc = in.target
	case opCall:
		fn := m.prog.funcs[in.name]
		locals := map[string]value{}
		for i, p := range fn.params {
			if i < len(in.args) {
				v, ok := eval(in.args[i])
				if !ok {
					return fail()
				}
				locals[p] = v
			}
		}
		f.pc++ // resume after the call on return
		m.push(fn, fn.start, locals, in.expr)
		if h.breakFunc(fn.name) {
			m.lastLine, m.lastDep = m.current().line, len(m.frames)
			return stopEvent{reason: "function breakpoint", description: "Function breakpoint: " + fn.name}, true
		}
	case opReturn:
		var rv value
		if in.expr != "" {
			v, ok := eval(in.expr)
			if !ok {
				return fail()
			}
			rv = v
		}
		m.frames = m.frames[:len(m.frames)-1]
		if len(m.frames) == 0 {
			return stopEvent{done: true}, true
		}
		if f.dest != "" {
			m.top().locals[f.dest] = rv
		}
	case opThrow:
		m.thrown = interpolate(in.expr, vars)
		return fail()
	case opSleep:
		d := time.Duration(atoiOr(in.expr, 0)) * time.Millisecond
		deadline := time.Now().Add(d)
		for time.Now().Before(deadline) {
			if h.paused() {
				return stopEvent{reason: "pause"}, true
			}
			select {
			case <-ctx.Done():
				return stopEvent{done: true, exitCode: 137}, true
			case <-time.After(min(5*time.Millisecond, time.Until(deadline))):
			}
		}
		f.pc++
	case opHalt:
		m.frames = nil
		return stopEvent{done: true}, true
	}
	return stopEvent{}, false
}

// crash ends the program after an uncaught exception.
func (m *machine) crash() stopEvent {
	msg := m.thrown
	m.output("stderr", "uncaught exception: "+msg+"\n")
	m.frames = nil
	return stopEvent{done: true, exitCode: 1}
}

// stack returns the frames, innermost first, with their current lines.
func (m *machine) stack() []*frame {
	out := make([]*frame, 0, len(m.frames))
	for i := len(m.frames) - 1; i >= 0; i-- {
		out = append(out, m.frames[i])
	}
	return out
}

// lineOf is the line a frame is at: the current instruction for the top
// frame, the call instruction for callers.
func (m *machine) lineOf(f *frame) int {
	if f == m.top() {
		return m.prog.code[f.pc].line
	}
	return m.prog.code[f.pc-1].line
}

func (m *machine) frameByID(id int) (*frame, error) {
	for _, f := range m.frames {
		if f.id == id {
			return f, nil
		}
	}
	return nil, fmt.Errorf("no frame %d", id)
}
