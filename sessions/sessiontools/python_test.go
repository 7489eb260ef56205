package sessiontools

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/dbg-dev/dbg/adapters"
)

// The create/start answers of a Python session say which interpreter it
// runs and why; list_supported_languages says where steps run at
// debugpy's own speed.
func TestPythonAnswerNamesTheInterpreter(t *testing.T) {
	cs := connect(t)
	_, file, _, _ := runtime.Caller(0)
	prog := filepath.Join(filepath.Dir(file), "..", "..", "testdata", "python", "loop.py")
	created := call[sessionOut](t, cs, "create_debug_session", map[string]any{"language": "python"})
	started := call[sessionOut](t, cs, "start_debugging", map[string]any{"sessionId": created.SessionID, "scriptPath": prog, "stopOnEntry": true, "waitMs": 60000})
	in := started.Interpreter
	if in == nil || in.Path == "" || in.Source == "" || !strings.HasPrefix(in.Version, "3.") || in.Debugpy == "" {
		t.Fatalf("start answer's interpreter: %+v", in)
	}
	call[okOut](t, cs, "close_debug_session", map[string]any{"sessionId": created.SessionID})

	langs := call[languagesOut](t, cs, "list_supported_languages", map[string]any{})
	var py *adapters.Info
	for i := range langs.Languages {
		if langs.Languages[i].Language == "python" {
			py = &langs.Languages[i]
		}
	}
	if py == nil || !strings.Contains(py.Note, "TCP_NODELAY") || !strings.Contains(py.Note, "attached by port") {
		t.Errorf("python's entry: %+v", py)
	}
}
