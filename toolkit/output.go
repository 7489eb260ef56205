package toolkit

import (
	"strings"
	"sync"
	"time"
)

// OutputLine is one line of captured output.
type OutputLine struct {
	Seq      int64     `json:"seq"`
	Time     time.Time `json:"time"`
	Category string    `json:"category"` // stdout, stderr, console, important, telemetry...
	Text     string    `json:"text"`
}

// OutputRing is a bounded buffer of output lines. When full it drops the
// oldest lines and counts them. It is safe for concurrent use; any
// capability that owns a process (a debuggee, a run configuration) keeps
// its output in one.
type OutputRing struct {
	mu      sync.Mutex
	max     int // bytes
	size    int
	lines   []OutputLine
	next    int64
	dropped int64
	partial map[string]string // unterminated text per category
	now     func() time.Time
	onWrite func() // see OnWrite
}

// OnWrite sets f to be called after every write and flush, outside the
// ring's lock. f must not block.
func (r *OutputRing) OnWrite(f func()) {
	r.mu.Lock()
	r.onWrite = f
	r.mu.Unlock()
}

// wrote calls the OnWrite function.
func (r *OutputRing) wrote() {
	r.mu.Lock()
	f := r.onWrite
	r.mu.Unlock()
	if f != nil {
		f()
	}
}

// NewOutputRing returns a ring holding at most maxBytes of text.
func NewOutputRing(maxBytes int, now func() time.Time) *OutputRing {
	if now == nil {
		now = time.Now
	}
	return &OutputRing{max: maxBytes, now: now, partial: map[string]string{}, next: 1}
}

// Write appends text of a category; text is split into lines, and a
// trailing partial line waits for its end (or Flush).
func (r *OutputRing) Write(category, text string) {
	defer r.wrote()
	r.mu.Lock()
	defer r.mu.Unlock()
	text = r.partial[category] + text
	delete(r.partial, category)
	for {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			break
		}
		r.appendLocked(category, strings.TrimSuffix(text[:i], "\r"))
		text = text[i+1:]
	}
	if text != "" {
		if len(text) > 64<<10 { // do not hold an endless line back
			r.appendLocked(category, text)
		} else {
			r.partial[category] = text
		}
	}
}

// WriteWhole appends one output event's text as lines of their own: it
// is never joined to the unterminated text of another write, and its own
// last line needs no newline. Output that is not the program's (logpoint
// and trace messages) goes this way, so it never splices into a line the
// program is still writing.
func (r *OutputRing) WriteWhole(category, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	text = strings.TrimSuffix(text, "\n")
	for _, line := range strings.Split(text, "\n") {
		r.appendLocked(category, strings.TrimSuffix(line, "\r"))
	}
}

// Flush emits partial lines.
func (r *OutputRing) Flush() {
	defer r.wrote()
	r.mu.Lock()
	defer r.mu.Unlock()
	for c, t := range r.partial {
		r.appendLocked(c, t)
		delete(r.partial, c)
	}
}

func (r *OutputRing) appendLocked(category, line string) {
	r.lines = append(r.lines, OutputLine{Seq: r.next, Time: r.now(), Category: category, Text: line})
	r.next++
	r.size += len(line) + 1
	for r.size > r.max && len(r.lines) > 1 {
		r.size -= len(r.lines[0].Text) + 1
		r.lines = r.lines[1:]
		r.dropped++
	}
}

// Since returns up to limit lines with Seq > since (limit <= 0: all),
// optionally of one category, and whether older lines were dropped.
// When more than limit lines match, the newest are returned.
func (r *OutputRing) Since(since int64, limit int, category string) (lines []OutputLine, dropped int64, next int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, l := range r.lines {
		if l.Seq <= since {
			continue
		}
		if category != "" && l.Category != category {
			continue
		}
		lines = append(lines, l)
	}
	if limit > 0 && len(lines) > limit {
		lines = lines[len(lines)-limit:]
	}
	// Copy to keep the ring free to change.
	lines = append([]OutputLine(nil), lines...)
	for c, t := range r.partial {
		if category == "" || category == c {
			lines = append(lines, OutputLine{Seq: 0, Time: r.now(), Category: c, Text: t})
		}
	}
	return lines, r.dropped, r.next - 1
}

// Text returns all buffered text of a category ("" = all), joined.
func (r *OutputRing) Text(category string) string {
	lines, _, _ := r.Since(0, 0, category)
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	return b.String()
}
