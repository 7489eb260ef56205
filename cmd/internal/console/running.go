package console

import (
	"encoding/json"
	"fmt"

	"github.com/dbg-dev/dbg/sessions"
)

// waitChunk is how long one wait_for_stop call blocks; the console waits
// for as many as it takes (Ctrl-C pauses).
const waitChunk = 600000

// threadArgs names the session and the thread chosen with `thread N`.
func (p *prompt) threadArgs() map[string]any {
	a := p.sid()
	if p.thread != 0 {
		a["threadId"] = p.thread
	}
	return a
}

func (p *prompt) cmdContinue(string) error { return p.resume("continue_execution", p.threadArgs()) }

// stepCommand is a step command run by tool.
func stepCommand(tool string) func(*prompt, string) error {
	return func(p *prompt, _ string) error { return p.resume(tool, p.threadArgs()) }
}

func (p *prompt) cmdUntil(arg string) error {
	file, line, ok := FileLine(arg, p.currentFile())
	if !ok {
		return fmt.Errorf("usage: until LINE | until FILE:LINE")
	}
	a := p.threadArgs()
	a["file"], a["line"] = file, line
	return p.resume("run_to_line", a)
}

func (p *prompt) cmdPause(string) error { return p.resume("pause_execution", p.threadArgs()) }

func (p *prompt) cmdWait(string) error {
	raw, s, err := p.waitStop()
	if err != nil {
		return err
	}
	p.stopped(raw, s)
	return nil
}

func (p *prompt) cmdRestart(string) error {
	if !p.launched {
		return fmt.Errorf("restart relaunches a launched program; this session is attached (detach, then attach again)")
	}
	return p.resume("restart_debugging", p.sid())
}

// resume runs tool, waits for the stop it leads to and prints it.
func (p *prompt) resume(tool string, args map[string]any) error {
	var s stopAnswer
	raw, err := p.tools.Call(p.ctx, tool, args, &s)
	if err != nil {
		return err
	}
	if s.Pending || s.State == string(sessions.StateRunning) {
		if raw, s, err = p.waitStop(); err != nil {
			return err
		}
	}
	p.stopped(raw, s)
	return nil
}

// waitStop waits for the next stop or the end of the program. A Ctrl-C
// meanwhile (p.interrupts) pauses the program, which is then the stop;
// without interrupts it waits at most waitChunk and answers the program
// still running.
func (p *prompt) waitStop() (json.RawMessage, stopAnswer, error) {
	p.drainInterrupts()
	if p.terminal && !p.json {
		fmt.Fprintln(p.io.ErrOut, p.paint.dim("running (Ctrl-C pauses)"))
	}
	type answer struct {
		raw json.RawMessage
		s   stopAnswer
		err error
	}
	for {
		done := make(chan answer, 1)
		go func() {
			var a answer
			a.raw, a.err = p.tools.Call(p.ctx, "wait_for_stop", map[string]any{"sessionId": p.id, "timeoutMs": waitChunk}, &a.s)
			done <- a
		}()
		var a answer
	wait:
		for {
			select {
			case a = <-done:
				break wait
			case <-p.interrupts:
				go p.pauseNow()
			case <-p.ctx.Done():
				return nil, stopAnswer{}, p.ctx.Err()
			}
		}
		if a.err != nil {
			return nil, stopAnswer{}, a.err
		}
		// Without Ctrl-C (a script on stdin) one chunk bounds the wait.
		if a.s.State != string(sessions.StateRunning) || p.interrupts == nil {
			return a.raw, a.s, nil
		}
	}
}

// pauseNow asks the running program to pause; the waiting wait_for_stop
// reports the stop.
func (p *prompt) pauseNow() {
	if !p.json {
		fmt.Fprintln(p.io.ErrOut, "pausing")
	}
	if _, err := p.tools.Call(p.ctx, "pause_execution", p.sid(), nil); err != nil {
		fmt.Fprintln(p.io.ErrOut, p.paint.err("pause:"), err)
	}
}

// drainInterrupts forgets a Ctrl-C that came before the wait.
func (p *prompt) drainInterrupts() {
	for {
		select {
		case <-p.interrupts:
		default:
			return
		}
	}
}
