package nodedap

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// workerExceptionsScript throws and catches an error on the main thread,
// then in a worker thread.
const workerExceptionsScript = `const { Worker, isMainThread } = require('worker_threads');
if (isMainThread) {
  try {
    throw new RangeError('main');
  } catch (e) {
    console.log('main caught ' + e.message);
  }
  new Worker(__filename).on('exit', () => console.log('worker done'));
} else {
  try {
    throw new TypeError('in the worker'); // BP:worker
  } catch (e) {
    console.log('worker caught ' + e.message);
  }
}
`

// TestExceptionThreadsWorkersStopsOnlyInWorkers: with exceptionThreads
// "workers", the main thread's exception runs past, the worker's stops,
// on the worker's thread.
func TestExceptionThreadsWorkersStopsOnlyInWorkers(t *testing.T) {
	t.Parallel()
	script := filepath.Join(t.TempDir(), "threads.js")
	if err := os.WriteFile(script, []byte(workerExceptionsScript), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newClient(t)
	c.launch(map[string]any{"program": script, "exceptionThreads": "workers"})
	c.req("setExceptionBreakpoints", map[string]any{"filters": []string{"all"}})
	c.req("configurationDone", nil)
	st := c.stopped()
	want(t, "text", st.Text, "TypeError: in the worker")
	if st.ThreadID == 1 {
		t.Fatal("the exception stopped the main thread")
	}
	m := c.req("stackTrace", map[string]any{"threadId": st.ThreadID})
	want(t, "line", body[struct{ StackFrames []frame }](t, m).StackFrames[0].Line, lineOf(t, script, "BP:worker"))
	if !strings.Contains(c.outputText(), "main caught main") {
		t.Errorf("the main thread did not run past its exception: %q", c.outputText())
	}
	c.req("continue", map[string]any{"threadId": st.ThreadID})
	c.event("terminated")
	if !strings.Contains(c.outputText(), "worker caught in the worker") {
		t.Errorf("output %q", c.outputText())
	}
}

// TestExceptionThreadsDefaultStopsOnTheMainThread: by default the main
// thread's exception stops first.
func TestExceptionThreadsDefaultStopsOnTheMainThread(t *testing.T) {
	t.Parallel()
	script := filepath.Join(t.TempDir(), "threads.js")
	if err := os.WriteFile(script, []byte(workerExceptionsScript), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newClient(t)
	c.launch(map[string]any{"program": script})
	c.req("setExceptionBreakpoints", map[string]any{"filters": []string{"all"}})
	c.req("configurationDone", nil)
	st := c.stopped()
	want(t, "text", st.Text, "RangeError: main")
	want(t, "thread", st.ThreadID, 1)
}
