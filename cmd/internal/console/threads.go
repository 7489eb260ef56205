package console

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dbg-dev/dbg/sessions"
)

func (p *prompt) cmdThreads(string) error {
	var out struct {
		Threads []sessions.Thread `json:"threads"`
	}
	return p.call("list_threads", p.sid(), &out, func() {
		current := p.thread
		if current == 0 && p.stop != nil {
			current = p.stop.ThreadID
		}
		for _, t := range out.Threads {
			mark := "  "
			if t.ID == current {
				mark = p.paint.mark("* ")
			}
			p.printf("%s%d %s\n", mark, t.ID, t.Name)
		}
	})
}

func (p *prompt) cmdThread(arg string) error {
	n, err := strconv.Atoi(arg)
	if err != nil || n <= 0 {
		return fmt.Errorf("usage: thread N (N from threads)")
	}
	var out struct {
		Threads []sessions.Thread `json:"threads"`
	}
	if _, err := p.tools.Call(p.ctx, "list_threads", p.sid(), &out); err != nil {
		return err
	}
	var ids []string
	for _, t := range out.Threads {
		if t.ID == n {
			p.thread, p.frames, p.frame, p.names = n, nil, 0, nil
			if p.json {
				return p.io.PrintJSON(t)
			}
			p.printf("thread %d %s\n", t.ID, t.Name)
			return nil
		}
		ids = append(ids, strconv.Itoa(t.ID))
	}
	return fmt.Errorf("no thread %d (threads: %s)", n, strings.Join(ids, ", "))
}
