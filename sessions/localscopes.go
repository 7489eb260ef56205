package sessions

import "context"

// outerLocals adds to vars, the variables of scopes[0], those of the
// scopes right after it that are locals too (presentationHint "locals"):
// vscode-js-debug reports a loop's block and the function around it as
// two scopes, "Block" then "Local", where a reader expects one. An inner
// name hides an outer one, as in the program.
func (s *Session) outerLocals(ctx context.Context, scopes []Scope, vars []Variable) []Variable {
	if len(scopes) < 2 || scopes[0].Hint != "locals" {
		return vars
	}
	seen := make(map[string]bool, len(vars))
	for _, v := range vars {
		seen[v.Name] = true
	}
	for _, sc := range scopes[1:] {
		if sc.Hint != "locals" || sc.Expensive || len(vars) >= maxVarLimit {
			break
		}
		more, _, err := s.Variables(ctx, sc.VariablesReference, 0, maxVarLimit-len(vars))
		if err != nil {
			break
		}
		for _, v := range more {
			if !seen[v.Name] {
				seen[v.Name] = true
				vars = append(vars, v)
			}
		}
	}
	return vars
}
