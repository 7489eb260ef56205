package sessions

// evaluateArgs are evaluate's arguments. Unlike godap.EvaluateArguments
// they always carry frameId: 0 is a frame like any other (vscode-js-debug
// numbers a session's frames from 0), and an evaluate without frameId runs
// in the global scope.
type evaluateArgs struct {
	Expression string `json:"expression"`
	FrameID    int    `json:"frameId"`
	Context    string `json:"context,omitempty"`
	// SideEffects false asks for an evaluation that cannot change the
	// program (nil: the adapter's default).
	SideEffects *bool `json:"sideEffects,omitempty"`
}
