package adapters

import "context"

// ResolveInterpreter is the interpreter a launch of t runs on, chosen as
// for a session (executablePath, the project's environment, then PATH),
// so that tools running Python beside a session use the same one.
func (p Python) ResolveInterpreter(ctx context.Context, t Target) Interpreter {
	return p.resolveInterpreter(ctx, t)
}
