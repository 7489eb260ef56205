package sessions

import "testing"

// The tools' step kinds map to DAP's step requests, and only those.
func TestStepKindCommand(t *testing.T) {
	for k, want := range map[StepKind]string{StepOver: "next", StepInto: "stepIn", StepOut: "stepOut"} {
		if got, ok := k.command(); !ok || got != want {
			t.Errorf("%s: %q %v, want %q", k, got, ok, want)
		}
	}
	if got, ok := StepKind(0).command(); ok {
		t.Errorf("the zero step kind maps to %q", got)
	}
}
